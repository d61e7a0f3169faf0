"""A FastAPI app with fastapi-users, written as its documentation's full SQLAlchemy example is (the User table,
the UserManager, a bearer authentication backend, the auth, register, reset-password, verify and users routers),
with two differences. The backend keeps the docs' name and prefix, /auth/jwt, and BearerTransport's tokenUrl
"auth/jwt/login", but its strategy is the DatabaseStrategy, over fastapi-users-db-sqlalchemy's
SQLAlchemyAccessTokenDatabase, rather than the JWTStrategy: an access token is a row in the database, so
POST /auth/jwt/logout deletes it and the token stops working on the server, where a JWT would go on working
until it expires. And the tables, with one user (ana@example.com, Passw0rd!, active and verified), are made
when the module is imported, not in a lifespan handler, because serve.py runs uvicorn with lifespan="off".

DOT_DATABASE names the SQLite file; ACCESS_TOKEN_SECONDS sets the access tokens' lifetime (300 by default).

It also pages through 25 items with fastapi-pagination's page types, 10 to a page by default: page/pages
(/items/page), limit/offset (/items/limit-offset), links.next (/items/links) and a cursor page's next_page
(/items/cursor). /test/tokens, without authentication, tells a test how many access tokens the database holds.
"""

import asyncio
import contextlib
import os
import secrets
import sys
import uuid
from collections.abc import AsyncGenerator

from fastapi import Depends, FastAPI, HTTPException, Query, Request
from fastapi_pagination import LimitOffsetPage, Page, add_pagination, create_page, paginate, resolve_params
from fastapi_pagination.cursor import CursorPage
from fastapi_pagination.customization import CustomizedPage, UseParamsFields
from fastapi_pagination.links import Page as LinksPage
from fastapi_users import BaseUserManager, FastAPIUsers, UUIDIDMixin, exceptions, schemas
from fastapi_users.authentication import AuthenticationBackend, BearerTransport
from fastapi_users.authentication.strategy.db import AccessTokenDatabase, DatabaseStrategy
from fastapi_users.db import SQLAlchemyBaseUserTableUUID, SQLAlchemyUserDatabase
from fastapi_users_db_sqlalchemy.access_token import SQLAlchemyAccessTokenDatabase, SQLAlchemyBaseAccessTokenTableUUID
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker, create_async_engine
from sqlalchemy.orm import DeclarativeBase

# db.py

DATABASE_URL = f"sqlite+aiosqlite:///{os.environ['DOT_DATABASE']}"
LIFETIME = int(os.environ.get("ACCESS_TOKEN_SECONDS", "300"))


class Base(DeclarativeBase):
    pass


class User(SQLAlchemyBaseUserTableUUID, Base):
    pass


class AccessToken(SQLAlchemyBaseAccessTokenTableUUID, Base):
    pass


engine = create_async_engine(DATABASE_URL)
async_session_maker = async_sessionmaker(engine, expire_on_commit=False)


async def create_db_and_tables():
    async with engine.begin() as conn:
        await conn.run_sync(Base.metadata.create_all)


async def get_async_session() -> AsyncGenerator[AsyncSession, None]:
    async with async_session_maker() as session:
        yield session


async def get_user_db(session: AsyncSession = Depends(get_async_session)):
    yield SQLAlchemyUserDatabase(session, User)


async def get_access_token_db(session: AsyncSession = Depends(get_async_session)):
    yield SQLAlchemyAccessTokenDatabase(session, AccessToken)


# schemas.py


class UserRead(schemas.BaseUser[uuid.UUID]):
    pass


class UserCreate(schemas.BaseUserCreate):
    pass


class UserUpdate(schemas.BaseUserUpdate):
    pass


# users.py

# The reset and verification tokens' signing key, new in every process.
SECRET = secrets.token_urlsafe(32)


class UserManager(UUIDIDMixin, BaseUserManager[User, uuid.UUID]):
    reset_password_token_secret = SECRET
    verification_token_secret = SECRET

    # The docs print these; to standard error here, as serve.py's standard output must begin with "listening on".
    async def on_after_register(self, user: User, request: Request | None = None):
        print(f"User {user.id} has registered.", file=sys.stderr)

    async def on_after_forgot_password(self, user: User, token: str, request: Request | None = None):
        print(f"User {user.id} has forgot their password. Reset token: {token}", file=sys.stderr)

    async def on_after_request_verify(self, user: User, token: str, request: Request | None = None):
        print(f"Verification requested for user {user.id}. Verification token: {token}", file=sys.stderr)


async def get_user_manager(user_db: SQLAlchemyUserDatabase = Depends(get_user_db)):
    yield UserManager(user_db)


bearer_transport = BearerTransport(tokenUrl="auth/jwt/login")


def get_database_strategy(
    access_token_db: AccessTokenDatabase[AccessToken] = Depends(get_access_token_db),
) -> DatabaseStrategy:
    return DatabaseStrategy(access_token_db, lifetime_seconds=LIFETIME)


auth_backend = AuthenticationBackend(
    name="jwt",
    transport=bearer_transport,
    get_strategy=get_database_strategy,
)

fastapi_users = FastAPIUsers[User, uuid.UUID](get_user_manager, [auth_backend])

current_active_user = fastapi_users.current_user(active=True)


# The set-up, as the docs' "create a user programmatically" recipe does it.

get_async_session_context = contextlib.asynccontextmanager(get_async_session)
get_user_db_context = contextlib.asynccontextmanager(get_user_db)
get_user_manager_context = contextlib.asynccontextmanager(get_user_manager)


async def set_up():
    await create_db_and_tables()
    async with get_async_session_context() as session:
        async with get_user_db_context(session) as user_db:
            async with get_user_manager_context(user_db) as user_manager:
                try:
                    await user_manager.create(
                        UserCreate(email="ana@example.com", password="Passw0rd!", is_active=True, is_verified=True)
                    )
                except exceptions.UserAlreadyExists:
                    pass
    # The pool's aiosqlite connections belong to this event loop; uvicorn's is another.
    await engine.dispose()


asyncio.run(set_up())


# app.py

app = FastAPI(title="fastapi-users test API")

app.include_router(fastapi_users.get_auth_router(auth_backend), prefix="/auth/jwt", tags=["auth"])
app.include_router(fastapi_users.get_register_router(UserRead, UserCreate), prefix="/auth", tags=["auth"])
app.include_router(fastapi_users.get_reset_password_router(), prefix="/auth", tags=["auth"])
app.include_router(fastapi_users.get_verify_router(UserRead), prefix="/auth", tags=["auth"])
app.include_router(fastapi_users.get_users_router(UserRead, UserUpdate), prefix="/users", tags=["users"])


@app.get("/authenticated-route")
async def authenticated_route(user: User = Depends(current_active_user)):
    return {"message": f"Hello {user.email}!"}


# fastapi-pagination's page types over 25 items, 10 to a page by default (its own default is 50). paginate's
# safe=True says a list is meant: without it, each call warns that an installed package (Django here) has an
# extension of its own.
ITEMS = [{"id": n, "name": f"item {n}"} for n in range(1, 26)]

# A bare default would drop the parameters' bounds and descriptions, so each is given again as the page's has it.
ItemsPage = CustomizedPage[Page, UseParamsFields(size=Query(10, ge=1, le=100, description="Page size"))]
ItemsLimitOffsetPage = CustomizedPage[
    LimitOffsetPage, UseParamsFields(limit=Query(10, ge=1, le=100, description="Page size limit"))
]
ItemsLinksPage = CustomizedPage[LinksPage, UseParamsFields(size=Query(10, ge=1, le=100, description="Page size"))]
ItemsCursorPage = CustomizedPage[CursorPage, UseParamsFields(size=Query(10, ge=0, le=100, description="Page size"))]


@app.get("/items/page", response_model=ItemsPage[dict], tags=["items"])
async def items_page(user: User = Depends(current_active_user)):
    return paginate(ITEMS, safe=True)


@app.get("/items/limit-offset", response_model=ItemsLimitOffsetPage[dict], tags=["items"])
async def items_limit_offset(user: User = Depends(current_active_user)):
    return paginate(ITEMS, safe=True)


@app.get("/items/links", response_model=ItemsLinksPage[dict], tags=["items"])
async def items_links(user: User = Depends(current_active_user)):
    return paginate(ITEMS, safe=True)


@app.get("/items/cursor", response_model=ItemsCursorPage[dict], tags=["items"])
async def items_cursor(user: User = Depends(current_active_user)):
    # fastapi-pagination builds cursor pages only over a database; over a list, the cursor is the offset of the
    # page's first item, which the page encodes as it would a database's cursor.
    params = resolve_params()
    raw = params.to_raw_params()
    try:
        start = int(raw.cursor or 0)
    except ValueError:
        start = -1
    if start < 0:
        # As fastapi-pagination answers a cursor it cannot decode.
        raise HTTPException(status_code=400, detail="Invalid cursor value")
    end = min(start + raw.size, len(ITEMS))
    return create_page(
        ITEMS[start:end],
        total=len(ITEMS),
        params=params,
        current=str(start),
        next_=str(end) if end < len(ITEMS) else None,
        previous=str(max(start - raw.size, 0)) if start > 0 else None,
    )


@app.get("/test/tokens", tags=["test"])
async def count_tokens(session: AsyncSession = Depends(get_async_session)):
    return {"tokens": await session.scalar(select(func.count()).select_from(AccessToken))}


add_pagination(app)
