"""A minimal Django REST framework project with djangorestframework-simplejwt, set up as their docs say: JWT
login, refresh with rotation and blacklisting, logout by blacklisting, DRF's three paginators and a
drf-spectacular schema. DOT_DATABASE names the SQLite file (by default one in a temporary folder of its own,
removed at exit); ACCESS_TOKEN_SECONDS the access tokens' life.
"""

import os
from datetime import timedelta

from django_fixture import database

SECRET_KEY = "swaggerctl-tests-only-drf-signing-key-of-32-bytes-or-more"
DEBUG = False
ALLOWED_HOSTS = ["*"]
USE_TZ = True
ROOT_URLCONF = "drf_server.urls"
INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "rest_framework",
    "rest_framework_simplejwt.token_blacklist",
    "drf_spectacular",
    "drf_server",
]
MIDDLEWARE = ["django.middleware.common.CommonMiddleware"]
# For the browsable API, which DRF answers with when a client asks for text/html.
TEMPLATES = [{"BACKEND": "django.template.backends.django.DjangoTemplates", "APP_DIRS": True}]
DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": database("swaggerctl-drf-")}}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast, for tests only
# A failing request's traceback goes to standard error, which the tests keep in the server's log.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "loggers": {"django.request": {"handlers": ["console"], "level": "ERROR"}},
}

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": ["rest_framework_simplejwt.authentication.JWTAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
}
SIMPLE_JWT = {
    "ACCESS_TOKEN_LIFETIME": timedelta(seconds=int(os.environ.get("ACCESS_TOKEN_SECONDS", "300"))),
    "ROTATE_REFRESH_TOKENS": True,
    "BLACKLIST_AFTER_ROTATION": True,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "swaggerctl DRF fixture",
    "DESCRIPTION": "Django REST framework with djangorestframework-simplejwt",
    "VERSION": "1.0.0",
}
