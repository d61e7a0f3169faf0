"""A Flask app around Authlib's OAuth 2 authorization server, written as Authlib's documentation shows it: its
Flask AuthorizationServer and ResourceProtector, the RFC 8628 device authorization endpoint and device code
grant, the refresh token grant (with rotation), RFC 7009 revocation and RFC 8414 metadata; the storage, which
the documentation keeps in SQLAlchemy and Redis, in memory.

One public client, swaggerctl-device (token endpoint auth method none), with the device code and refresh token
grants; one user, ana@example.com / Passw0rd!. A person signs in at /login and decides at /device, the
verification page that the documentation leaves to the developer: one form with the user code and the decision
(allowed=1 or 0), which /device?user_code=… (verification_uri_complete) fills in.

DEVICE_INTERVAL sets the polling interval that the device authorization answer gives (5 by default), and a poll
sooner than it after the previous one is slow_down, after which the interval grows by 5 s (RFC 8628 §3.5);
DEVICE_EXPIRES the device and user codes' life in seconds (600 by default); ACCESS_TOKEN_SECONDS the access
tokens' life (3600 by default). /test/tokens, without authentication, tells a test how many access tokens
(neither expired nor revoked) and refresh tokens (not revoked) the server holds.
"""

import os
import secrets
import threading
import time
import urllib.parse

from flask import Flask, jsonify, redirect, render_template_string, request, session, url_for

from authlib.integrations.flask_oauth2 import AuthorizationServer, ResourceProtector, current_token
from authlib.oauth2.rfc6749 import ClientMixin, TokenMixin, grants
from authlib.oauth2.rfc6749.errors import InvalidGrantError
from authlib.oauth2.rfc6750 import BearerTokenValidator
from authlib.oauth2.rfc7009 import RevocationEndpoint
from authlib.oauth2.rfc8414 import AuthorizationServerMetadata
from authlib.oauth2.rfc8628 import (
    DEVICE_CODE_GRANT_TYPE,
    DeviceAuthorizationEndpoint,
    DeviceCodeGrant,
    DeviceCredentialDict,
)

DEVICE_INTERVAL = int(os.environ.get("DEVICE_INTERVAL", "5"))
DEVICE_EXPIRES = int(os.environ.get("DEVICE_EXPIRES", "600"))
ACCESS_TOKEN_SECONDS = int(os.environ.get("ACCESS_TOKEN_SECONDS", "3600"))
SCOPES = ["profile", "email"]
CLIENT_ID = "swaggerctl-device"
# The client measures its interval from its side of the network: a quarter of a second's slack, as dot_server's.
SLOW_DOWN_SLACK = 0.25


# MARK: - Models


class User:
    def __init__(self, id, email, password, name):
        self.id, self.email, self.password, self.name = id, email, password, name

    def get_user_id(self):
        return self.id

    def check_password(self, password):
        return secrets.compare_digest(self.password.encode(), password.encode())


class Client(ClientMixin):
    """A registered client, as Authlib's OAuth2ClientMixin reads its RFC 7591 metadata."""

    def __init__(self, client_id, grant_types, scope, token_endpoint_auth_method="none", client_secret=""):
        self.client_id = client_id
        self.client_secret = client_secret
        self.grant_types = grant_types
        self.scope = scope
        self.token_endpoint_auth_method = token_endpoint_auth_method

    def get_client_id(self):
        return self.client_id

    def get_default_redirect_uri(self):
        return None

    def get_allowed_scope(self, scope):
        if not scope:
            return self.scope  # the client's scopes when the request names none (RFC 6749 §3.3)
        allowed = set(self.scope.split())
        return " ".join(s for s in scope.split() if s in allowed)

    def check_redirect_uri(self, redirect_uri):
        return False

    def check_client_secret(self, client_secret):
        return bool(self.client_secret) and secrets.compare_digest(self.client_secret, client_secret)

    def check_endpoint_auth_method(self, method, endpoint):
        # The same method at every endpoint: token, revocation, device authorization.
        return method == self.token_endpoint_auth_method

    def check_response_type(self, response_type):
        return False

    def check_grant_type(self, grant_type):
        return grant_type in self.grant_types


class Token(TokenMixin):
    def __init__(self, client_id, user_id, token_type, access_token, scope, expires_in, refresh_token=None):
        self.client_id, self.user_id = client_id, user_id
        self.token_type, self.access_token, self.refresh_token = token_type, access_token, refresh_token
        self.scope, self.expires_in = scope, expires_in
        self.issued_at = time.time()
        self.access_token_revoked = False
        self.refresh_token_revoked = False

    def check_client(self, client):
        return self.client_id == client.get_client_id()

    def get_scope(self):
        return self.scope

    def get_expires_in(self):
        return self.expires_in

    def is_expired(self):
        return self.issued_at + self.expires_in < time.time()

    def is_revoked(self):
        return self.access_token_revoked

    def get_user(self):
        return USERS_BY_ID.get(self.user_id)

    def get_client(self):
        return CLIENTS.get(self.client_id)

    @property
    def user(self):
        return self.get_user()


# MARK: - Storage, in memory

USERS = {"ana@example.com": User(1, "ana@example.com", "Passw0rd!", "Ana Horvat")}
USERS_BY_ID = {user.id: user for user in USERS.values()}
CLIENTS = {
    CLIENT_ID: Client(CLIENT_ID, grant_types=[DEVICE_CODE_GRANT_TYPE, "refresh_token"], scope=" ".join(SCOPES)),
}
TOKENS = {}  # access token → Token
REFRESH_TOKENS = {}  # refresh token → Token
DEVICE_CREDENTIALS = {}  # device code → DeviceCredentialDict
USER_CODES = {}  # user code → device code
USER_GRANTS = {}  # user code → (User, approved): what the verification page saves, as the documentation's Redis
lock = threading.Lock()


def query_client(client_id):
    return CLIENTS.get(client_id)


def save_token(token_data, request):
    token = Token(client_id=request.client.get_client_id(), user_id=request.user.get_user_id(), **token_data)
    with lock:
        TOKENS[token.access_token] = token
        if token.refresh_token:
            REFRESH_TOKENS[token.refresh_token] = token


# MARK: - Grants and endpoints


class MyDeviceAuthorizationEndpoint(DeviceAuthorizationEndpoint):
    EXPIRES_IN = DEVICE_EXPIRES
    INTERVAL = DEVICE_INTERVAL

    def get_verification_uri(self):
        return url_for("device", _external=True)

    def save_device_credential(self, client_id, scope, data):
        # DeviceCredentialDict.is_expired reads expires_at, which the endpoint's data does not carry.
        credential = DeviceCredentialDict(
            client_id=client_id, scope=scope, expires_at=time.time() + data["expires_in"], last_poll=None, **data)
        with lock:
            DEVICE_CREDENTIALS[data["device_code"]] = credential
            USER_CODES[data["user_code"]] = data["device_code"]


class MyDeviceCodeGrant(DeviceCodeGrant):
    # TOKEN_ENDPOINT_AUTH_METHODS already has none, for public clients.

    def query_device_credential(self, device_code):
        return DEVICE_CREDENTIALS.get(device_code)

    def query_user_grant(self, user_code):
        return USER_GRANTS.get(user_code)

    def should_slow_down(self, credential):
        """A poll sooner than the interval after the previous one for this device code: slow_down, and the
        interval that the next poll must keep grows by 5 s, as the client's must (RFC 8628 §3.5)."""
        now = time.monotonic()
        with lock:
            previous = credential["last_poll"]
            credential["last_poll"] = now
            if previous is not None and now - previous < credential["interval"] - SLOW_DOWN_SLACK:
                credential["interval"] += 5
                return True
        return False

    def create_token_response(self):
        # Authlib's grant leaves the device code valid once it has issued tokens (its documentation lets the
        # Redis key of the user's decision expire instead): here a device code gives tokens once, and a second
        # poll, even a concurrent one, is refused.
        credential = self.request.credential
        with lock:
            if DEVICE_CREDENTIALS.pop(credential["device_code"], None) is None:
                raise InvalidGrantError("The device code has been used.")
            USER_CODES.pop(credential["user_code"], None)
            USER_GRANTS.pop(credential["user_code"], None)
        return super().create_token_response()


class RefreshTokenGrant(grants.RefreshTokenGrant):
    TOKEN_ENDPOINT_AUTH_METHODS = ["none"]
    INCLUDE_NEW_REFRESH_TOKEN = True  # rotation, as dot_server's

    def authenticate_refresh_token(self, refresh_token):
        token = REFRESH_TOKENS.get(refresh_token)
        if token and not token.refresh_token_revoked:
            return token

    def authenticate_user(self, credential):
        return credential.get_user()

    def revoke_old_credential(self, credential):
        credential.access_token_revoked = True
        credential.refresh_token_revoked = True


class MyRevocationEndpoint(RevocationEndpoint):
    CLIENT_AUTH_METHODS = ["none"]

    def query_token(self, token_string, token_type_hint):
        # The hint first; RFC 7009 §2.1: a wrong hint extends the search to the other kind.
        if token_type_hint == "refresh_token":
            return REFRESH_TOKENS.get(token_string) or TOKENS.get(token_string)
        return TOKENS.get(token_string) or REFRESH_TOKENS.get(token_string)

    def revoke_token(self, token, request):
        # As the method's documentation: an access token alone, or a refresh token with its access token
        # (RFC 7009 §2.1); by what the token is rather than by the hint, which may be wrong.
        token.access_token_revoked = True
        if token.refresh_token == request.form["token"]:
            token.refresh_token_revoked = True


class MyBearerTokenValidator(BearerTokenValidator):
    def authenticate_token(self, token_string):
        return TOKENS.get(token_string)


# MARK: - The app

app = Flask(__name__)
app.config["SECRET_KEY"] = secrets.token_hex(32)
app.config["OAUTH2_REFRESH_TOKEN_GENERATOR"] = True
app.config["OAUTH2_TOKEN_EXPIRES_IN"] = {
    DEVICE_CODE_GRANT_TYPE: ACCESS_TOKEN_SECONDS,
    "refresh_token": ACCESS_TOKEN_SECONDS,
}
app.config["OAUTH2_SCOPES_SUPPORTED"] = SCOPES

server = AuthorizationServer(app, query_client=query_client, save_token=save_token)
server.register_grant(MyDeviceCodeGrant)
server.register_grant(RefreshTokenGrant)
server.register_endpoint(MyDeviceAuthorizationEndpoint)
server.register_endpoint(MyRevocationEndpoint)

require_oauth = ResourceProtector()
require_oauth.register_token_validator(MyBearerTokenValidator())


@app.route("/.well-known/oauth-authorization-server")
def metadata():
    issuer = request.host_url.rstrip("/")
    data = AuthorizationServerMetadata({
        "issuer": issuer,
        "token_endpoint": url_for("issue_token", _external=True),
        "device_authorization_endpoint": url_for("device_authorization", _external=True),
        "revocation_endpoint": url_for("revoke_token", _external=True),
        "userinfo_endpoint": url_for("userinfo", _external=True),
        "scopes_supported": SCOPES,
        "grant_types_supported": [DEVICE_CODE_GRANT_TYPE, "refresh_token"],
        "token_endpoint_auth_methods_supported": ["none"],
        "revocation_endpoint_auth_methods_supported": ["none"],
    })
    # RFC 8414's checks of what it says; not validate() as a whole, which requires response_types_supported, and
    # this server has no authorization endpoint (http passes for a loopback host).
    for key in ["issuer", "token_endpoint", "revocation_endpoint", "scopes_supported", "grant_types_supported",
                "token_endpoint_auth_methods_supported", "revocation_endpoint_auth_methods_supported"]:
        getattr(data, f"validate_{key}")()
    return jsonify(data)


@app.route("/oauth/device_authorization", methods=["POST"])
def device_authorization():
    return server.create_endpoint_response(MyDeviceAuthorizationEndpoint.ENDPOINT_NAME)


@app.route("/oauth/token", methods=["POST"])
def issue_token():
    return server.create_token_response()


@app.route("/oauth/revoke", methods=["POST"])
def revoke_token():
    return server.create_endpoint_response(MyRevocationEndpoint.ENDPOINT_NAME)


@app.route("/userinfo")
@require_oauth("profile")
def userinfo():
    user = current_token.user
    return jsonify(sub=str(user.id), email=user.email, name=user.name)


@app.route("/test/tokens")
def tokens():
    with lock:
        access = sum(1 for t in TOKENS.values() if not t.access_token_revoked and not t.is_expired())
        refresh = sum(1 for t in REFRESH_TOKENS.values() if not t.refresh_token_revoked)
    return jsonify(access=access, refresh=refresh)


# MARK: - Pages for a person

PAGE = """<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>{{ title }}</title></head>
<body>
<h1>{{ title }}</h1>
{% if error %}<p class="errors">{{ error }}</p>{% endif %}
{% if message %}<p>{{ message }}</p>{% endif %}
{% if form == "login" %}
<form method="post" action="{{ url_for('login') }}">
  <p><label for="username">E-mail address</label>
    <input type="text" name="username" id="username" autocomplete="username" required></p>
  <p><label for="password">Password</label>
    <input type="password" name="password" id="password" autocomplete="current-password" required></p>
  <input type="hidden" name="next" value="{{ next }}">
  <p><button type="submit">Sign in</button></p>
</form>
{% elif form == "device" %}
<p>Signed in as {{ user.email }}. Enter the code that your device shows: {{ client_id }} asks for
  {{ scope }}.</p>
<form method="post" action="{{ url_for('device') }}">
  <p><label for="user_code">Code</label>
    <input type="text" name="user_code" id="user_code" value="{{ user_code }}" autocomplete="off" required></p>
  <p><button type="submit" name="allowed" value="1">Approve</button>
    <button type="submit" name="allowed" value="0">Deny</button></p>
</form>
{% endif %}
</body>
</html>
"""


def current_user():
    return USERS_BY_ID.get(session.get("user_id"))


def local(url):
    """url if it leads to a page of this server, else the device page."""
    parts = urllib.parse.urlsplit(url or "")
    if parts.scheme or parts.netloc or not parts.path.startswith("/"):
        return url_for("device")
    return url


@app.route("/login", methods=["GET", "POST"])
def login():
    if request.method == "GET":
        return render_template_string(PAGE, title="Sign in", form="login", next=local(request.args.get("next")))
    user = USERS.get(request.form.get("username", ""))
    if user is None or not user.check_password(request.form.get("password", "")):
        return render_template_string(PAGE, title="Sign in", form="login", next=local(request.form.get("next")),
                                      error="Your e-mail address and password didn't match."), 200
    session.clear()
    session["user_id"] = user.id
    return redirect(local(request.form.get("next")))


@app.route("/device", methods=["GET", "POST"])
def device():
    """The verification endpoint (the documentation's /active): the signed-in person's decision on a user code
    goes where MyDeviceCodeGrant.query_user_grant finds it."""
    user = current_user()
    if user is None:
        return redirect(url_for("login", next=request.full_path if request.args else request.path))
    page = dict(title="Connect a device", form="device", user=user, client_id=CLIENT_ID, scope=" ".join(SCOPES))
    if request.method == "GET":
        return render_template_string(PAGE, user_code=request.args.get("user_code", ""), **page)
    user_code = request.form.get("user_code", "").strip().upper()
    allowed = request.form.get("allowed") == "1"
    with lock:
        credential = DEVICE_CREDENTIALS.get(USER_CODES.get(user_code, ""))
        usable = credential is not None and not credential.is_expired() and user_code not in USER_GRANTS
        if usable:
            USER_GRANTS[user_code] = (user, allowed)
    if not usable:
        return render_template_string(PAGE, user_code=user_code, error="That code is unknown, expired or used.",
                                      **page), 400
    done = "The device is connected: you can return to it." if allowed else "The device was denied access."
    return render_template_string(PAGE, title="Done", message=done)
