"""A Flask-AppBuilder app with its REST API, set up as FAB's documentation and its examples are: the app factory
of examples/base_api and examples/crud_rest_api (an SQLA db and an AppBuilder, init_app in an app context),
AUTH_TYPE = AUTH_DB (Security chapter), FAB_API_SWAGGER_UI = True, so the OpenAPI spec is served, behind
authentication, at /api/v1/_openapi (REST API chapter, "OpenAPI spec"), and the login and refresh endpoints
FAB registers itself: POST /api/v1/security/login with {username, password, provider, refresh} and
POST /api/v1/security/refresh with the refresh token as the bearer (REST API chapter, "Security").

FAB has no current-user endpoint, so /api/v1/me/ is a BaseApi of its own, protected with @protect() as the
REST API chapter's private example is. /api/v1/item/ is a ModelRestApi over an Item model (REST API chapter,
"Model REST API"), 10 to a page (its page_size), in id order (base_order), each item with its id
(list_columns); the rison argument q=(page:N,page_size:M) pages it, pages counting from 0, and without q it
answers page 0 (ids 1..10, count 25). FAB has no logout nor any revocation for its JWTs: a token works until it
expires. FAB's login schema leaves "provider" optional but its code reads it: a login without it is a 500.

The tables and their rows are made when the module is imported: ana (ana@example.com, Passw0rd!, Ana Horvat),
given the Admin role as `flask fab create-admin` does, and the items 1..25. DOT_DATABASE names the SQLite file.
The access tokens last as long as flask-jwt-extended's default (15 minutes), which FAB keeps, unless
ACCESS_TOKEN_SECONDS sets JWT_ACCESS_TOKEN_EXPIRES. The signing key is new in every process.
"""

import os
import secrets
import sys
from datetime import timedelta

from flask import Flask
from flask_appbuilder import AppBuilder, Model, ModelRestApi
from flask_appbuilder.api import BaseApi, expose, safe
from flask_appbuilder.const import AUTH_DB
from flask_appbuilder.models.sqla.interface import SQLAInterface
from flask_appbuilder.security.decorators import protect
from flask_appbuilder.utils.legacy import get_sqla_class
from sqlalchemy import Column, Integer, String

# config.py

SQLALCHEMY_DATABASE_URI = f"sqlite:///{os.environ['DOT_DATABASE']}"
SECRET_KEY = secrets.token_hex(32)
CSRF_ENABLED = True
AUTH_TYPE = AUTH_DB
FAB_API_SWAGGER_UI = True
if "ACCESS_TOKEN_SECONDS" in os.environ:
    JWT_ACCESS_TOKEN_EXPIRES = timedelta(seconds=int(os.environ["ACCESS_TOKEN_SECONDS"]))

# extensions.py

db = get_sqla_class()()
appbuilder = AppBuilder()

# models.py


class Item(Model):
    __tablename__ = "item"
    id = Column(Integer, primary_key=True)
    name = Column(String(50), unique=True, nullable=False)

    def __repr__(self):
        return self.name


# api.py


class ItemModelApi(ModelRestApi):
    resource_name = "item"
    datamodel = SQLAInterface(Item)
    list_columns = ["id", "name"]
    page_size = 10
    base_order = ("id", "asc")


class MeApi(BaseApi):
    resource_name = "me"

    @expose("/", methods=["GET"])
    @protect()
    @safe
    def get(self):
        """The user the token belongs to
        ---
        get:
          description: >-
            Get the current user
          responses:
            200:
              description: The current user
              content:
                application/json:
                  schema:
                    type: object
                    properties:
                      result:
                        type: object
                        properties:
                          id:
                            type: integer
                          username:
                            type: string
                          email:
                            type: string
                          first_name:
                            type: string
                          last_name:
                            type: string
            401:
              $ref: '#/components/responses/401'
            500:
              $ref: '#/components/responses/500'
        """
        user = self.appbuilder.sm.current_user
        return self.response(
            200,
            result={
                "id": user.id,
                "username": user.username,
                "email": user.email,
                "first_name": user.first_name,
                "last_name": user.last_name,
            },
        )


# __init__.py


def create_app() -> Flask:
    app = Flask(__name__)
    app.config.from_object(sys.modules[__name__])
    with app.app_context():
        db.init_app(app)
        appbuilder.init_app(app, db.session)
        db.create_all()
        appbuilder.add_api(ItemModelApi)
        appbuilder.add_api(MeApi)
        sm = appbuilder.sm
        if sm.find_user(username="ana") is None:
            admin = sm.find_role(sm.auth_role_admin)
            sm.add_user("ana", "Ana", "Horvat", "ana@example.com", admin, "Passw0rd!")
        if db.session.query(Item).count() == 0:
            db.session.add_all(Item(id=i, name=f"Item {i}") for i in range(1, 26))
            db.session.commit()
    return app


app = create_app()
