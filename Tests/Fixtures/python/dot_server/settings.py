"""A minimal Django project around Django OAuth Toolkit: an OAuth 2 authorization server with the password
grant, refresh-token rotation, RFC 7009 revocation, RFC 7662 introspection, RFC 8414 metadata, and OpenID
Connect discovery and userinfo; and, for a person with a browser, a login page (accounts/login/), the
authorization code grant with PKCE (RFC 7636) and loopback redirects (RFC 8252), and the device authorization
grant (RFC 8628) with DOT's device pages.

DOT_DATABASE names the SQLite file; ACCESS_TOKEN_SECONDS the tokens' life; DEVICE_INTERVAL the polling interval
that the device authorization answer gives (5 by default); DEVICE_EXPIRES the device and user codes' life in
seconds (600 by default); DEVICE_URI_COMPLETE=0 leaves verification_uri_complete out of that answer;
DEVICE_SLOW_DOWN=1 answers a poll that comes too soon with slow_down (dot_server.views.TokenView);
NO_PASSWORD_GRANT=1 leaves the password grant out of the metadata's grant_types_supported.
"""

import os

from jwcrypto import jwk

SECRET_KEY = "swaggerctl-tests-only"
DEBUG = False
ALLOWED_HOSTS = ["*"]
USE_TZ = True
ROOT_URLCONF = "dot_server.urls"
INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "oauth2_provider",
]
MIDDLEWARE = [
    "django.middleware.common.CommonMiddleware",
    # For the pages a person sees: the login, DOT's authorization and device pages. DOT's API views (token,
    # revocation, introspection, userinfo, device authorization) are exempt from CSRF.
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
]
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [os.path.join(os.path.dirname(os.path.abspath(__file__)), "templates")],
        "APP_DIRS": True,  # DOT's own: the authorization page and the device pages
        "OPTIONS": {"context_processors": ["django.template.context_processors.request"]},
    }
]
STATIC_URL = "static/"  # DOT's base template links its stylesheet, which nothing serves
LOGIN_URL = "/accounts/login/"
DATABASES = {
    "default": {"ENGINE": "django.db.backends.sqlite3", "NAME": os.environ.get("DOT_DATABASE", ":memory:")}
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast, for tests only
# A failing request's traceback goes to standard error, which the tests keep in the server's log.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "loggers": {"django.request": {"handlers": ["console"], "level": "ERROR"}},
}

WEB_CLIENT = "swaggerctl-web"
# The device and user codes' life. DOT has no setting for it: dot_server.views passes it to oauthlib.
DEVICE_EXPIRES = int(os.environ.get("DEVICE_EXPIRES", "600"))
DEVICE_URI_COMPLETE = os.environ.get("DEVICE_URI_COMPLETE", "1") != "0"
DEVICE_SLOW_DOWN = os.environ.get("DEVICE_SLOW_DOWN", "0") == "1"
NO_PASSWORD_GRANT = os.environ.get("NO_PASSWORD_GRANT", "0") == "1"


def pkce_required(client_id):
    """PKCE for the browser login's client only: the password-grant clients never see the authorization
    endpoint, and a per-client callable is what DOT's PKCE_REQUIRED accepts besides a bool."""
    return client_id == WEB_CLIENT


OAUTH2_PROVIDER = {
    "ACCESS_TOKEN_EXPIRE_SECONDS": int(os.environ.get("ACCESS_TOKEN_SECONDS", "3600")),
    "ROTATE_REFRESH_TOKEN": True,
    "REFRESH_TOKEN_GRACE_PERIOD_SECONDS": 0,
    "PKCE_REQUIRED": pkce_required,
    "DEVICE_FLOW_INTERVAL": int(os.environ.get("DEVICE_INTERVAL", "5")),
    "OIDC_ENABLED": True,
    "OIDC_RSA_PRIVATE_KEY": jwk.JWK.generate(kty="RSA", size=2048).export_to_pem(private_key=True, password=None).decode(),
    "OAUTH2_VALIDATOR_CLASS": "dot_server.validator.Validator",
    "SCOPES": {"openid": "OpenID Connect", "read": "Read", "introspection": "Introspect tokens"},
}
