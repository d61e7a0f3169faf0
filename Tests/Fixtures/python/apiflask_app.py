"""An APIFlask app, written as its documentation's Basic Usage chapter ("Use @app.auth_required to protect your
views", "API Keys (in header)"), its Response Formatting chapter ("Pagination support") and its pagination
example are.

The auth object is HTTPTokenAuth(scheme='ApiKey', header='X-API-Key'), as in the Basic Usage chapter, so the
OpenAPI document at /openapi.json declares the apiKey security scheme ApiKeyAuth, in the header X-API-Key
(APIFlask 3 deprecates that form in favour of APIKeyHeaderAuth(), which declares the same scheme). Its tokens
are random strings kept in a dict, as Flask-HTTPAuth's token example keeps them, so POST /logout, which needs a
token, deletes it and the token stops working. POST /login takes {"email", "password"} (an input schema, so a
missing member is APIFlask's 422) and answers {"token"}; a wrong e-mail or password is a 401 with APIFlask's
error body. GET /me answers the user, ana (ana@example.com, Passw0rd!, Ana Horvat).

GET /items pages through 25 items, ids 1..25, with PaginationSchema and pagination_builder over
Flask-SQLAlchemy's db.paginate as the documentation's example does: page (from 1) and per_page (10 by default,
30 at most) in the query, the answer {"items": [...], "pagination": {...}}. DOT_DATABASE names the SQLite file;
the table and its rows are made when the module is imported. GET /test/tokens, without authentication and left
out of the OpenAPI document, tells a test how many tokens are live.
"""

import os
import secrets

from apiflask import APIFlask, HTTPTokenAuth, PaginationSchema, Schema, abort, pagination_builder
from apiflask.fields import Email, Integer, List, Nested, String
from apiflask.validators import Range
from flask_sqlalchemy import SQLAlchemy
from werkzeug.security import check_password_hash, generate_password_hash

app = APIFlask(__name__)
app.config["SQLALCHEMY_DATABASE_URI"] = f"sqlite:///{os.environ['DOT_DATABASE']}"
db = SQLAlchemy(app)
auth = HTTPTokenAuth(scheme="ApiKey", header="X-API-Key")

USERS = {
    "ana@example.com": {
        "username": "ana",
        "email": "ana@example.com",
        "password_hash": generate_password_hash("Passw0rd!"),
        "first_name": "Ana",
        "last_name": "Horvat",
    },
}

# The live tokens, each to the e-mail of its user. Flask-HTTPAuth's example keeps them in a dict too.
tokens = {}


@auth.verify_token
def verify_token(token):
    email = tokens.get(token)
    return USERS[email] if email is not None else None


class ItemModel(db.Model):
    id = db.Column(db.Integer, primary_key=True)
    name = db.Column(db.String(50))


class LoginIn(Schema):
    email = Email(required=True)
    password = String(required=True)


class TokenOut(Schema):
    token = String()


class UserOut(Schema):
    username = String()
    email = String()
    first_name = String()
    last_name = String()


class ItemQuery(Schema):
    page = Integer(load_default=1)
    per_page = Integer(load_default=10, validate=Range(max=30))


class ItemOut(Schema):
    id = Integer()
    name = String()


class ItemsOut(Schema):
    items = List(Nested(ItemOut))
    pagination = Nested(PaginationSchema)


@app.post("/login")
@app.input(LoginIn)
@app.output(TokenOut)
@app.doc(responses={401: "Wrong e-mail or password"})
def login(json_data):
    """Log in"""
    user = USERS.get(json_data["email"])
    if user is None or not check_password_hash(user["password_hash"], json_data["password"]):
        abort(401, message="Wrong e-mail or password")
    token = secrets.token_urlsafe(32)
    tokens[token] = user["email"]
    return {"token": token}


@app.post("/logout")
@app.auth_required(auth)
@app.output({}, status_code=204)
def logout():
    """Log out: the token stops working"""
    tokens.pop(auth.get_auth().token, None)
    return ""


@app.get("/me")
@app.auth_required(auth)
@app.output(UserOut)
def me():
    """The current user"""
    return auth.current_user


@app.get("/items")
@app.auth_required(auth)
@app.input(ItemQuery, location="query")
@app.output(ItemsOut)
def get_items(query_data):
    """The items, a page at a time"""
    pagination = db.paginate(
        db.select(ItemModel).order_by(ItemModel.id), page=query_data["page"], per_page=query_data["per_page"]
    )
    return {"items": pagination.items, "pagination": pagination_builder(pagination)}


@app.get("/test/tokens")
@app.doc(hide=True)
def live_tokens():
    return {"count": len(tokens)}


with app.app_context():
    db.create_all()
    if db.session.scalar(db.select(db.func.count(ItemModel.id))) == 0:
        db.session.add_all(ItemModel(id=i, name=f"Item {i}") for i in range(1, 26))
        db.session.commit()
