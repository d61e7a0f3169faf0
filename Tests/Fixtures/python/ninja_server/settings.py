"""A minimal Django Ninja project with django-ninja-jwt, set up as django-ninja-jwt's docs say: a NinjaExtraAPI
with NinjaJWTDefaultController (POST token/pair, token/refresh, token/verify) and, the blacklist app being
installed (its docs' "Blacklist app"), TokenBlackListController's token/blacklist, registered under the same
/token prefix as the library's own test project does; ROTATE_REFRESH_TOKENS with BLACKLIST_AFTER_ROTATION. Also
/me and the same list twice, behind JWTAuth: by Ninja's own PageNumberPagination (/items, ?page=N) and by its
default, LimitOffsetPagination (/items/limit-offset, ?offset=N&limit=M); and Ninja's OpenAPI document at
/api/openapi.json.

DOT_DATABASE names the SQLite file (by default one in a temporary folder of its own, removed at exit);
ACCESS_TOKEN_SECONDS the access tokens' life (300, django-ninja-jwt's default 5 minutes).
"""

import os
from datetime import timedelta

from django_fixture import database

SECRET_KEY = "swaggerctl-tests-only-ninja-signing-key-of-32-bytes-or-more"
DEBUG = False
ALLOWED_HOSTS = ["*"]
USE_TZ = True
ROOT_URLCONF = "ninja_server.urls"
INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "ninja_extra",
    "ninja_jwt",
    "ninja_jwt.token_blacklist",
    "ninja_server",
]
MIDDLEWARE = ["django.middleware.common.CommonMiddleware"]
DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": database("swaggerctl-ninja-")}}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast, for tests only
# A failing request's traceback goes to standard error, which the tests keep in the server's log.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "loggers": {"django.request": {"handlers": ["console"], "level": "ERROR"}},
}

NINJA_JWT = {
    "ACCESS_TOKEN_LIFETIME": timedelta(seconds=int(os.environ.get("ACCESS_TOKEN_SECONDS", "300"))),
    "ROTATE_REFRESH_TOKENS": True,
    "BLACKLIST_AFTER_ROTATION": True,
}
