"""A FastAPI app of the kind FastAPI's security tutorial builds: OAuth2PasswordRequestForm at /token,
OAuth2PasswordBearer on every other route, and /users/me for the profile. Refresh tokens are spent once, at
/token/refresh (the bearer scheme's refreshUrl, which the OpenAPI document names).

It also pages through lists in the shapes swaggerctl api --paginate follows: Stack Exchange's has_more with a
page parameter (/questions), RFC 8288 Link headers (/linked), and a next URL in the body (/cursor).

Under /git/ it serves the Git repositories in GIT_PROJECT_ROOT through git-http-backend, as git-http-backend(1)
sets it up behind a web server that authenticates: HTTP Basic, whose password must be a live access token.

ACCESS_TOKEN_SECONDS sets the access tokens' lifetime. /test/* routes let a test end every access token or
read counters; they stand for what a server restart or an operator would do.
"""

import asyncio
import base64
import binascii
import json
import os
import secrets
import time
from enum import Enum

from fastapi import Depends, FastAPI, Form, Header, HTTPException, Request, Response
from fastapi.responses import JSONResponse
from fastapi.security import OAuth2PasswordBearer, OAuth2PasswordRequestForm
from fastapi_pagination import LimitOffsetPage, Page, add_pagination, paginate
from fastapi_pagination.links import Page as LinksPage
from pydantic import BaseModel, Field

USERS = {
    "ana@example.com": {"password": "Passw0rd!", "full_name": "Ana Horvat"},
}
LIFETIME = int(os.environ.get("ACCESS_TOKEN_SECONDS", "3600"))

app = FastAPI(title="swaggerctl test API")
oauth2_scheme = OAuth2PasswordBearer(tokenUrl="token", refreshUrl="token/refresh")

access_tokens = {}
refresh_tokens = {}
counters = {"logins": 0, "refreshes": 0, "requests": 0, "git": 0, "git_refused": 0}


def issue(username):
    access = secrets.token_urlsafe(24)
    refresh = secrets.token_urlsafe(24)
    access_tokens[access] = (username, time.time() + LIFETIME)
    refresh_tokens[refresh] = username
    return {"access_token": access, "token_type": "bearer", "expires_in": LIFETIME, "refresh_token": refresh}


@app.post("/token")
def login(form: OAuth2PasswordRequestForm = Depends()):
    counters["logins"] += 1
    user = USERS.get(form.username)
    if not user or user["password"] != form.password:
        # As FastAPI's tutorial answers: 400 with a detail, not RFC 6749's error code.
        raise HTTPException(status_code=400, detail="Incorrect username or password")
    return issue(form.username)


@app.post("/token/refresh")
def refresh(grant_type: str = Form(), refresh_token: str = Form()):
    counters["refreshes"] += 1
    if grant_type != "refresh_token":
        return JSONResponse(status_code=400, content={"error": "unsupported_grant_type"})
    username = refresh_tokens.pop(refresh_token, None)
    if username is None:
        return JSONResponse(
            status_code=400, content={"error": "invalid_grant", "error_description": "The refresh token is not valid"}
        )
    return issue(username)


def current_user(token: str = Depends(oauth2_scheme)):
    counters["requests"] += 1
    grant = access_tokens.get(token)
    if grant is None or grant[1] < time.time():
        raise HTTPException(status_code=401, detail="Not authenticated", headers={"WWW-Authenticate": "Bearer"})
    return grant[0]


@app.get("/users/me")
def me(username: str = Depends(current_user)):
    return {"username": username, "email": username, "full_name": USERS[username]["full_name"], "disabled": False}


ITEMS = 8


@app.get("/questions")
def questions(page: int = 1, pagesize: int = 3, username: str = Depends(current_user)):
    start = (page - 1) * pagesize
    end = min(start + pagesize, ITEMS)
    items = [{"question_id": i + 1, "title": f"Question {i + 1}"} for i in range(start, end)]
    return {"items": items, "has_more": end < ITEMS, "quota_remaining": 300 - page}


@app.get("/linked")
def linked(request: Request, response: Response, page: int = 1, username: str = Depends(current_user)):
    per_page = 3
    start = (page - 1) * per_page
    end = min(start + per_page, ITEMS)
    if end < ITEMS:
        following = request.url.include_query_params(page=page + 1)
        last = request.url.include_query_params(page=(ITEMS + per_page - 1) // per_page)
        response.headers["Link"] = f'<{following}>; rel="next", <{last}>; rel="last"'
    return [{"id": i + 1} for i in range(start, end)]


@app.get("/cursor")
def cursor(request: Request, page: int = 1, username: str = Depends(current_user)):
    per_page = 4
    start = (page - 1) * per_page
    end = min(start + per_page, ITEMS)
    following = str(request.url.include_query_params(page=page + 1)) if end < ITEMS else None
    return {"count": ITEMS, "next": following, "previous": None, "results": [{"pk": i + 1} for i in range(start, end)]}


@app.get("/linked-items")
def linked_items(request: Request, response: Response, page: int = 1, per_page: int = 3,
                 username: str = Depends(current_user)):
    # GitHub's search shape: an object of items, paged by Link headers; the last page links only back.
    start = (page - 1) * per_page
    end = min(start + per_page, ITEMS)
    links = [f'<{request.url.include_query_params(page=1)}>; rel="first"']
    if end < ITEMS:
        links.append(f'<{request.url.include_query_params(page=page + 1)}>; rel="next"')
    response.headers["Link"] = ", ".join(links)
    items = [{"id": i + 1, "title": f"Item {i + 1}"} for i in range(start, end)]
    return {"total_count": ITEMS, "incomplete_results": False, "items": items}


together = {}


@app.get("/numbered")
async def numbered(page: int = 1, size: int = 10, together_key: str = "", username: str = Depends(current_user)):
    # Numbered pages that give their total: {"items", "page", "total_pages"}. With together_key, a page after the
    # first answers only once the page after it has been asked for, or after 10 s, which counts it as alone: pages
    # fetched one at a time are told apart from pages fetched together.
    total_pages = (len(LISTED) + size - 1) // size
    if together_key:
        events = together.setdefault(together_key, {})
        events.setdefault(page, asyncio.Event()).set()
        if 1 < page < total_pages:
            try:
                await asyncio.wait_for(events.setdefault(page + 1, asyncio.Event()).wait(), 10)
            except asyncio.TimeoutError:
                counters["alone"] = counters.get("alone", 0) + 1
    start = (page - 1) * size
    return {"items": LISTED[start:start + size], "page": page, "total_pages": total_pages}


throttled = set()


@app.get("/throttled")
def throttled_pages(page: int = 1, key: str = "", username: str = Depends(current_user)):
    # Numbered pages whose third is refused for coming too fast, as a rate limit would, every time it is asked
    # for until the first one is.
    if page == 3 and key not in throttled:
        throttled.add(key)
        counters["throttled"] = counters.get("throttled", 0) + 1
        return Response(content='{"detail":"slow down"}', status_code=429, headers={"Retry-After": "0"})
    return {"items": LISTED[(page - 1) * 5:page * 5], "page": page, "total_pages": 5}


@app.get("/body-cursor")
def body_cursor(cursor: str = "", username: str = Depends(current_user)):
    # A cursor in the body, taken back in the query parameter that this document declares, `cursor`.
    start = int(cursor[1:]) if cursor.startswith("c") else 0
    end = min(start + 10, len(LISTED))
    return {"data": LISTED[start:end], "next_cursor": f"c{end}" if end < len(LISTED) else None}


# fastapi-pagination's page types over 25 items, 10 to a page by default: page/pages, limit/offset/total, and
# links.next; and its cursor page's shape, next_page, which it builds only over a database.
LISTED = [{"id": i + 1} for i in range(25)]


@app.get("/fp/page", response_model=Page[dict])
def fp_page(username: str = Depends(current_user)):
    return paginate(LISTED)


@app.get("/fp/limit-offset", response_model=LimitOffsetPage[dict])
def fp_limit_offset(username: str = Depends(current_user)):
    return paginate(LISTED)


@app.get("/fp/links", response_model=LinksPage[dict])
def fp_links(username: str = Depends(current_user)):
    return paginate(LISTED)


@app.get("/fp/cursor")
def fp_cursor(cursor: str = "0", size: int = 10, username: str = Depends(current_user)):
    start = int(cursor)
    end = min(start + size, len(LISTED))
    following = str(end) if end < len(LISTED) else None
    return {"items": LISTED[start:end], "total": None, "current_page": cursor, "previous_page": None,
            "next_page": following}


@app.get("/fp/unknown")
def fp_unknown(username: str = Depends(current_user)):
    # A page of a longer list that says nothing of how to reach the next one.
    return {"items": LISTED[:10], "total": len(LISTED)}


@app.get("/endless")
def endless(page: int = 1, username: str = Depends(current_user)):
    return {"items": [{"page": page}], "has_more": True}


@app.get("/long")
def long(page: int = 1, username: str = Depends(current_user)):
    # More pages than swaggerctl once stopped at by default.
    return {"items": [{"page": page}], "has_more": page < 150}


@app.get("/big")
def big(page: int = 1, pages: int = 8, size: int = 1 << 20, username: str = Depends(current_user)):
    # Pages too large to keep together: --slurp must not hold them all.
    return Response(
        content=json.dumps({"items": [{"page": page, "text": "x" * size}], "has_more": page < pages}),
        media_type="application/json",
    )


busy_attempts: dict[str, int] = {}


@app.api_route("/busy", methods=["GET", "POST"])
def busy(key: str, fail: int, username: str = Depends(current_user)):
    # Busy for the first `fail` attempts under `key`, with a Retry-After that asks for no wait, then answers.
    attempt = busy_attempts[key] = busy_attempts.get(key, 0) + 1
    if attempt <= fail:
        return Response(content='{"detail":"busy"}', status_code=503, headers={"Retry-After": "0"})
    return {"attempts": attempt}


@app.get("/elsewhere")
def elsewhere(username: str = Depends(current_user)):
    return {"results": [1], "next": "http://attacker.example/collect?page=2"}


@app.api_route("/echo", methods=["GET", "POST", "PUT", "PATCH", "DELETE"])
async def echo(request: Request, username: str = Depends(current_user)):
    body = await request.body()
    return {
        "method": request.method,
        "query": dict(request.query_params),
        "contentType": request.headers.get("content-type"),
        "header": request.headers.get("x-swaggerctl-test"),
        "body": body.decode("utf-8", "replace") if len(body) <= 4096 else None,
        "length": len(body),
        "tail": body[-64:].decode("utf-8", "replace"),
    }


# The documentation's `swaggerctl api` examples run against these: each answers with what it was sent.
app.add_api_route("/users/me", echo, methods=["PATCH"])
app.add_api_route("/search", echo, methods=["GET"])
app.add_api_route("/items", echo, methods=["POST"])
app.add_api_route("/items/{item_id}", echo, methods=["PUT"])


# Operations that `swaggerctl api` calls by name, with what FastAPI's tutorials use: a body model, an enum, a path,
# a query and a header parameter. Each answers with what it was given.
class Kind(str, Enum):
    cat = "cat"
    dog = "dog"
    bird = "bird"


class Pet(BaseModel):
    name: str
    kind: Kind
    age: int | None = Field(default=None, ge=0)
    tags: list[str] = []


@app.post("/pets", operation_id="createPet", summary="Add a pet.", status_code=201)
def create_pet(pet: Pet, username: str = Depends(current_user)):
    return {"created": pet.model_dump(mode="json")}


@app.get("/pets/{pet_id}", operation_id="getPet", summary="Read a pet.")
def get_pet(
    pet_id: int, kind: Kind | None = None, x_trace: str | None = Header(default=None),
    username: str = Depends(current_user),
):
    return {"id": pet_id, "kind": kind, "trace": x_trace}


@app.get("/moved", operation_id="moved", summary="Moved on this server.")
def moved(username: str = Depends(current_user)):
    return Response(status_code=307, headers={"Location": "/pets/7?kind=dog"})


@app.get("/moved-away", operation_id="movedAway", summary="Moved to another origin.")
def moved_away(to: str = "http://127.0.0.1:9/", username: str = Depends(current_user)):
    return Response(status_code=302, headers={"Location": to})


@app.api_route("/moved-echo", methods=["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"], include_in_schema=False)
def moved_echo(status: int = 301, username: str = Depends(current_user)):
    # Every method, redirected by the status asked for, to /echo above, which says what it received.
    return Response(status_code=status, headers={"Location": "/echo"})


@app.get("/teapot")
def teapot(username: str = Depends(current_user)):
    return JSONResponse(status_code=418, content={"detail": "I'm a teapot"})


@app.get("/admin")
def admin(username: str = Depends(current_user)):
    # Another realm's endpoint: it refuses every token, a renewed one too.
    raise HTTPException(status_code=401, detail="Admins only", headers={"WWW-Authenticate": "Bearer"})


def basic_user(request: Request):
    """The user whose live access token is the password of the request's HTTP Basic credentials, if any."""
    scheme, _, encoded = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "basic":
        return None
    try:
        _, _, password = base64.b64decode(encoded, validate=True).decode().partition(":")
    except (binascii.Error, UnicodeDecodeError):
        return None
    grant = access_tokens.get(password)
    return grant[0] if grant is not None and grant[1] >= time.time() else None


@app.api_route("/git/{path:path}", methods=["GET", "POST"], include_in_schema=False)
async def git(path: str, request: Request):
    user = basic_user(request)
    if user is None:
        counters["git_refused"] += 1
        return Response(status_code=401, headers={"WWW-Authenticate": 'Basic realm="git"'})
    counters["git"] += 1
    body = await request.body()
    # The CGI variables git-http-backend reads (RFC 3875, and its own GIT_* ones).
    environment = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "GIT_PROJECT_ROOT": os.environ["GIT_PROJECT_ROOT"],
        "GIT_HTTP_EXPORT_ALL": "1", "REQUEST_METHOD": request.method, "PATH_INFO": "/" + path,
        "QUERY_STRING": request.url.query, "CONTENT_TYPE": request.headers.get("content-type", ""),
        "CONTENT_LENGTH": str(len(body)), "REMOTE_USER": user, "REMOTE_ADDR": "127.0.0.1",
        "HTTP_CONTENT_ENCODING": request.headers.get("content-encoding", ""),
        "GIT_PROTOCOL": request.headers.get("git-protocol", ""),
    }
    backend = await asyncio.create_subprocess_exec(
        "git", "http-backend", stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, env=environment)
    output, _ = await backend.communicate(body)
    head, _, content = output.partition(b"\r\n\r\n") if b"\r\n\r\n" in output else output.partition(b"\n\n")
    status, headers = 200, {}
    for line in head.decode().splitlines():
        name, _, value = line.partition(":")
        if name.lower() == "status":
            status = int(value.split()[0])
        elif name:
            headers[name] = value.strip()
    return Response(content=content, status_code=status, headers=headers)


@app.post("/test/expire-access-tokens")
def expire_access_tokens():
    ended = len(access_tokens)
    access_tokens.clear()
    return {"ended": ended}


@app.get("/test/counters")
def read_counters():
    return counters


add_pagination(app)
