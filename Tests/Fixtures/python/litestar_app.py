"""A Litestar app with its JWT security backend, written as Litestar's documentation shows it: "JWT Security
Backends" (usage/security/jwt: OAuth2PasswordBearerAuth with token_url="/login", a login handler taking a JSON
body and answering with auth.login(), which is an OAuth2Login; token revocation through revoked_token_handler
and a /logout that puts the token's jti in a blocklist) and "Pagination" (usage/responses: ClassicPagination
from an AbstractSyncClassicPaginator, with page_size and current_page in the query). The OpenAPI document is
at Litestar's default /schema/openapi.json, where the backend declares an oauth2 password flow.

Litestar has no refresh tokens of its own: OAuth2Login has a refresh_token field, which auth.login() leaves
empty. This app fills it with a token of its own making (auth.create_token, marked refresh in its extras, which
the middleware refuses as a bearer) and spends it at POST /refresh, whose JSON body {"refresh_token": ...}
answers a new OAuth2Login. POST /logout revokes the bearer access token, as the documentation's example does.

ACCESS_TOKEN_SECONDS sets the access tokens' lifetime (300 by default). The signing key is new in every
process. /test/revoked, without authentication, tells a test how many tokens are revoked.
"""

import math
import os
import secrets
import uuid
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from pydantic import BaseModel, EmailStr

from litestar import Litestar, Request, Response, get, post
from litestar.connection import ASGIConnection
from litestar.exceptions import NotAuthorizedException
from litestar.openapi.config import OpenAPIConfig
from litestar.pagination import AbstractSyncClassicPaginator, ClassicPagination
from litestar.params import FromQuery
from litestar.security.jwt import OAuth2Login, OAuth2PasswordBearerAuth, Token


class User(BaseModel):
    username: str
    email: EmailStr
    full_name: str


class LoginData(BaseModel):
    email: EmailStr
    password: str


class RefreshData(BaseModel):
    refresh_token: str


USERS = {"ana": User(username="ana", email="ana@example.com", full_name="Ana Horvat")}
PASSWORDS = {"ana": "Passw0rd!"}
SECRET = secrets.token_hex(32)
# The jtis of revoked tokens. The documentation's example keeps them in a dict in memory too.
BLOCKLIST: dict[str, str] = {}


async def retrieve_user_handler(token: Token, connection: "ASGIConnection[Any, Any, Any, Any]") -> User | None:
    if token.extras.get("type") == "refresh":  # a refresh token is no bearer token
        return None
    return USERS.get(token.sub)


async def revoked_token_handler(token: Token, connection: "ASGIConnection[Any, Any, Any, Any]") -> bool:
    return bool(token.jti and BLOCKLIST.get(token.jti))


oauth2_auth = OAuth2PasswordBearerAuth[User](
    retrieve_user_handler=retrieve_user_handler,
    revoked_token_handler=revoked_token_handler,
    token_secret=SECRET,
    token_url="/login",
    default_token_expiration=timedelta(seconds=int(os.environ.get("ACCESS_TOKEN_SECONDS", "300"))),
    exclude=["/login", "/refresh", "/schema", "/test"],
)


def issue(username: str, refresh_token: str | None = None) -> "Response[OAuth2Login]":
    response = oauth2_auth.login(identifier=username, token_unique_jwt_id=uuid.uuid4().hex)
    if refresh_token is None:
        refresh_token = oauth2_auth.create_token(
            identifier=username,
            token_expiration=timedelta(days=30),
            token_unique_jwt_id=uuid.uuid4().hex,
            token_extras={"type": "refresh"},
        )
    response.content["refresh_token"] = refresh_token
    return response


@post("/login")
async def login_handler(data: LoginData) -> "Response[OAuth2Login]":
    username = next((name for name, user in USERS.items() if user.email == data.email), None)
    if username is None or PASSWORDS[username] != data.password:
        raise NotAuthorizedException("Incorrect email or password")
    return issue(username)


@post("/refresh")
async def refresh_handler(data: RefreshData) -> "Response[OAuth2Login]":
    token = Token.decode(data.refresh_token, secret=SECRET, algorithm=oauth2_auth.algorithm)
    if token.extras.get("type") != "refresh" or (token.jti and token.jti in BLOCKLIST) or token.sub not in USERS:
        raise NotAuthorizedException("Invalid refresh token")
    # The refresh token stays valid: the answer carries it again, with a new access token.
    return issue(token.sub, data.refresh_token)


@post("/logout")
async def logout_handler(request: "Request[User, Token, Any]") -> dict[str, str]:
    jti = request.auth.jti
    if jti:
        BLOCKLIST[jti] = "revoked"
        return {"message": "Token has been revoked."}
    return {"message": "No valid token found."}


@get("/me", sync_to_thread=False)
def me_handler(request: "Request[User, Token, Any]") -> User:
    return request.user


@dataclass
class Item:
    id: int
    name: str


class ItemClassicPaginator(AbstractSyncClassicPaginator[Item]):
    def __init__(self) -> None:
        self.data = [Item(id=i, name=f"Item {i}") for i in range(1, 26)]

    def get_total(self, page_size: int) -> int:
        # The documentation's example rounds (round(50 / 10)); 25 items in pages of 10 need ceil's 3.
        return math.ceil(len(self.data) / page_size)

    def get_items(self, page_size: int, current_page: int) -> list[Item]:
        return self.data[(current_page - 1) * page_size : current_page * page_size]


paginator = ItemClassicPaginator()


@get("/items", sync_to_thread=False)
def items_handler(current_page: FromQuery[int] = 1, page_size: FromQuery[int] = 10) -> ClassicPagination[Item]:
    return paginator(page_size=page_size, current_page=current_page)


@get("/test/revoked", sync_to_thread=False)
def revoked_handler() -> dict[str, int]:
    return {"count": len(BLOCKLIST)}


app = Litestar(
    route_handlers=[login_handler, refresh_handler, logout_handler, me_handler, items_handler, revoked_handler],
    on_app_init=[oauth2_auth.on_app_init],
    openapi_config=OpenAPIConfig(title="swaggerctl Litestar test API", version="1.0.0"),
)
