"""A Flask-RESTX app with flask-jwt-extended, written as the two libraries' documentation shows them: Flask-RESTX's
"Swagger documentation" (a Swagger 2.0 document at /swagger.json; models with @api.expect and @api.response;
`authorizations`, here an apiKey in the Authorization header, which Swagger 2.0 documents as the way to send
"Bearer <token>", and @api.doc(security=...) on the routes that need it; a reqparse parser for query
arguments) and flask-jwt-extended's basic usage, refreshing tokens (/auth/refresh takes the refresh token as the
bearer and answers with a new access token only) and JWT revoking with a blocklist (DELETE /auth/logout revokes
the bearer token, access or refresh, by its jti), the blocklist kept in memory.

Flask-RESTX documents no pagination: GET /items answers Flask-SQLAlchemy's page attributes, {items, page, pages,
total}, for the page and per_page query arguments. PROPAGATE_EXCEPTIONS is set, as flask-jwt-extended's and
Flask-RESTX's maintainers advise (flask-restx issue 512): without it Flask-RESTX answers flask-jwt-extended's
errors with 500 instead of letting its handlers answer 401 or 422.

ACCESS_TOKEN_SECONDS sets the access tokens' lifetime (300 by default). The signing key is new in every
process. /test/revoked, without authentication, tells a test how many tokens are revoked.
"""

import math
import os
import secrets
from datetime import timedelta

from flask import Flask
from flask_jwt_extended import (
    JWTManager,
    create_access_token,
    create_refresh_token,
    get_jwt,
    get_jwt_identity,
    jwt_required,
)
from flask_restx import Api, Resource, fields, reqparse

USERS = {
    "ana": {"password": "Passw0rd!", "email": "ana@example.com", "full_name": "Ana Horvat"},
}

app = Flask(__name__)
app.config["JWT_SECRET_KEY"] = secrets.token_hex(32)
app.config["JWT_ACCESS_TOKEN_EXPIRES"] = timedelta(seconds=int(os.environ.get("ACCESS_TOKEN_SECONDS", "300")))
app.config["PROPAGATE_EXCEPTIONS"] = True
jwt = JWTManager(app)

authorizations = {
    "Bearer": {
        "type": "apiKey",
        "in": "header",
        "name": "Authorization",
        "description": 'Type "Bearer <token>", the token from /auth/login (or its refresh token for /auth/refresh).',
    }
}
api = Api(app, version="1.0", title="swaggerctl Flask-RESTX test API", authorizations=authorizations)

# The jtis of revoked tokens. The documentation keeps them in Redis or a database; a set does for one process.
blocklist = set()


@jwt.token_in_blocklist_loader
def check_if_token_revoked(jwt_header, jwt_payload: dict) -> bool:
    return jwt_payload["jti"] in blocklist


auth = api.namespace("auth", description="Logging in and out")

login_model = auth.model(
    "Login",
    {"username": fields.String(required=True, example="ana"), "password": fields.String(required=True)},
)
tokens_model = auth.model("Tokens", {"access_token": fields.String, "refresh_token": fields.String})
access_model = auth.model("AccessToken", {"access_token": fields.String})
message_model = auth.model("Message", {"msg": fields.String})
user_model = auth.model("User", {"username": fields.String, "email": fields.String, "full_name": fields.String})


@auth.route("/login")
class Login(Resource):
    @auth.expect(login_model, validate=True)
    @auth.response(200, "Logged in", tokens_model)
    @auth.response(401, "Bad username or password", message_model)
    def post(self):
        username = api.payload.get("username", None)
        password = api.payload.get("password", None)
        user = USERS.get(username)
        if user is None or user["password"] != password:
            return {"msg": "Bad username or password"}, 401

        access_token = create_access_token(identity=username)
        refresh_token = create_refresh_token(identity=username)
        return {"access_token": access_token, "refresh_token": refresh_token}


@auth.route("/refresh")
class Refresh(Resource):
    # `refresh=True` lets only refresh tokens in.
    @auth.doc(security="Bearer")
    @auth.response(200, "A new access token", access_model)
    @jwt_required(refresh=True)
    def post(self):
        identity = get_jwt_identity()
        access_token = create_access_token(identity=identity)
        return {"access_token": access_token}


@auth.route("/logout")
class Logout(Resource):
    # Revokes the current user's access or refresh token: `verify_type=False` lets either in.
    @auth.doc(security="Bearer")
    @auth.response(200, "Token revoked", message_model)
    @jwt_required(verify_type=False)
    def delete(self):
        token = get_jwt()
        jti = token["jti"]
        ttype = token["type"]
        blocklist.add(jti)
        # Returns "Access token revoked" or "Refresh token revoked"
        return {"msg": f"{ttype.capitalize()} token revoked"}


@auth.route("/me")
class Me(Resource):
    @auth.doc(security="Bearer")
    @auth.marshal_with(user_model)
    @jwt_required()
    def get(self):
        username = get_jwt_identity()
        user = USERS[username]
        return {"username": username, "email": user["email"], "full_name": user["full_name"]}


items_ns = api.namespace("items", description="A list in pages")

ITEMS = [{"id": i, "name": f"Item {i}"} for i in range(1, 26)]
item_model = items_ns.model("Item", {"id": fields.Integer, "name": fields.String})
page_model = items_ns.model(
    "ItemPage",
    {
        "items": fields.List(fields.Nested(item_model)),
        "page": fields.Integer,
        "pages": fields.Integer,
        "total": fields.Integer,
    },
)

page_parser = reqparse.RequestParser()
page_parser.add_argument("page", type=int, default=1, location="args", help="The page, from 1")
page_parser.add_argument("per_page", type=int, default=10, location="args", help="Items on a page")


@items_ns.route("")
class Items(Resource):
    @items_ns.doc(security="Bearer")
    @items_ns.expect(page_parser)
    @items_ns.marshal_with(page_model)
    @jwt_required()
    def get(self):
        args = page_parser.parse_args()
        page, per_page = args["page"], args["per_page"]
        start = (page - 1) * per_page
        return {
            "items": ITEMS[start : start + per_page],
            "page": page,
            "pages": math.ceil(len(ITEMS) / per_page),
            "total": len(ITEMS),
        }


pets_ns = api.namespace("pets", description="Operations that swaggerctl api calls by name and checks")

pet_model = pets_ns.model(
    "Pet",
    {
        "name": fields.String(required=True),
        "kind": fields.String(required=True, enum=["cat", "dog", "bird"]),
        "age": fields.Integer(min=0),
    },
)

kind_parser = reqparse.RequestParser()
kind_parser.add_argument("kind", type=str, choices=("cat", "dog", "bird"), location="args", help="Only this kind")


@pets_ns.route("")
class Pets(Resource):
    @pets_ns.doc(security="Bearer", id="createPet")
    @pets_ns.expect(pet_model, validate=True)
    @jwt_required()
    def post(self):
        return {"created": api.payload}, 201


@pets_ns.route("/<int:pet_id>")
class PetByID(Resource):
    @pets_ns.doc(security="Bearer", id="getPet")
    @pets_ns.expect(kind_parser)
    @jwt_required()
    def get(self, pet_id):
        return {"id": pet_id, "kind": kind_parser.parse_args()["kind"]}


@api.route("/test/revoked")
class Revoked(Resource):
    def get(self):
        return {"count": len(blocklist)}
