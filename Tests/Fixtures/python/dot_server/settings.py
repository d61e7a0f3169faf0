"""A minimal Django project around Django OAuth Toolkit: an OAuth 2 authorization server with the password
grant, refresh-token rotation, RFC 7009 revocation, RFC 7662 introspection, RFC 8414 metadata, and OpenID
Connect discovery and userinfo. DOT_DATABASE names the SQLite file; ACCESS_TOKEN_SECONDS the tokens' life.
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
    "oauth2_provider",
]
MIDDLEWARE = ["django.middleware.common.CommonMiddleware"]
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

OAUTH2_PROVIDER = {
    "ACCESS_TOKEN_EXPIRE_SECONDS": int(os.environ.get("ACCESS_TOKEN_SECONDS", "3600")),
    "ROTATE_REFRESH_TOKEN": True,
    "REFRESH_TOKEN_GRACE_PERIOD_SECONDS": 0,
    "PKCE_REQUIRED": False,
    "OIDC_ENABLED": True,
    "OIDC_RSA_PRIVATE_KEY": jwk.JWK.generate(kty="RSA", size=2048).export_to_pem(private_key=True, password=None).decode(),
    "OAUTH2_VALIDATOR_CLASS": "dot_server.validator.Validator",
    "SCOPES": {"openid": "OpenID Connect", "read": "Read", "introspection": "Introspect tokens"},
}
