"""A Flask app with flask-jwt-extended, written as its documentation's examples are: basic usage (/login with
a JSON body, @jwt_required routes), refreshing tokens (/refresh takes the refresh token as the bearer and
answers with a new access token only), and JWT revoking with a blocklist (DELETE /logout revokes the bearer
token, access or refresh, by its jti), the blocklist kept in memory.

ACCESS_TOKEN_SECONDS sets the access tokens' lifetime (300 by default). The signing key is new in every
process. /test/revoked, without authentication, tells a test how many tokens are revoked.
"""

import os
import secrets
from datetime import timedelta

from flask import Flask, jsonify, request
from flask_jwt_extended import (
    JWTManager,
    create_access_token,
    create_refresh_token,
    get_jwt,
    get_jwt_identity,
    jwt_required,
)

USERS = {
    "ana": {"password": "Passw0rd!", "email": "ana@example.com", "full_name": "Ana Horvat"},
}

app = Flask(__name__)
app.config["JWT_SECRET_KEY"] = secrets.token_hex(32)
app.config["JWT_ACCESS_TOKEN_EXPIRES"] = timedelta(seconds=int(os.environ.get("ACCESS_TOKEN_SECONDS", "300")))
jwt = JWTManager(app)

# The jtis of revoked tokens. The documentation keeps them in Redis or a database; a set does for one process.
blocklist = set()


@jwt.token_in_blocklist_loader
def check_if_token_revoked(jwt_header, jwt_payload: dict) -> bool:
    return jwt_payload["jti"] in blocklist


@app.route("/login", methods=["POST"])
def login():
    username = request.json.get("username", None)
    password = request.json.get("password", None)
    user = USERS.get(username)
    if user is None or user["password"] != password:
        return jsonify({"msg": "Bad username or password"}), 401

    access_token = create_access_token(identity=username)
    refresh_token = create_refresh_token(identity=username)
    return jsonify(access_token=access_token, refresh_token=refresh_token)


# We are using the `refresh=True` option in jwt_required to only allow refresh tokens to access this route.
@app.route("/refresh", methods=["POST"])
@jwt_required(refresh=True)
def refresh():
    identity = get_jwt_identity()
    access_token = create_access_token(identity=identity)
    return jsonify(access_token=access_token)


# Endpoint for revoking the current user's access or refresh token: `verify_type=False` lets either in.
@app.route("/logout", methods=["DELETE"])
@jwt_required(verify_type=False)
def modify_token():
    token = get_jwt()
    jti = token["jti"]
    ttype = token["type"]
    blocklist.add(jti)
    # Returns "Access token revoked" or "Refresh token revoked"
    return jsonify(msg=f"{ttype.capitalize()} token revoked")


@app.route("/me", methods=["GET"])
@jwt_required()
def me():
    username = get_jwt_identity()
    user = USERS[username]
    return jsonify(username=username, email=user["email"], full_name=user["full_name"])


@app.route("/test/revoked", methods=["GET"])
def revoked():
    return jsonify(count=len(blocklist))
