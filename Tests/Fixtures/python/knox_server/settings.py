"""A minimal Django REST framework project with django-rest-knox, set up as knox's documentation says: knox's
TokenAuthentication as the only default authentication (`Authorization: Token <token>`), so LoginView is the
project's own, taking HTTP Basic as knox's docs show it (`authentication_classes = [BasicAuthentication]`), beside
knox's LogoutView (which deletes the token it was sent) and LogoutAllView (which deletes all the user's), under
api/auth/. TOKEN_TTL is knox's default, 10 hours; knox keeps only a hash of each token, and one is made for each
login. Also api/users/me/, a list with DRF's PageNumberPagination (as DRF's docs set it, globally) and a
drf-spectacular schema (as its docs install it; its contrib extension for knox describes the token scheme).

DOT_DATABASE names the SQLite file (by default one in a temporary folder of its own, removed at exit);
TOKEN_TTL_SECONDS the tokens' life.
"""

import os
from datetime import timedelta

from django_fixture import database

SECRET_KEY = "swaggerctl-tests-only-knox"
DEBUG = False
ALLOWED_HOSTS = ["*"]
USE_TZ = True
ROOT_URLCONF = "knox_server.urls"
INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "rest_framework",
    "knox",
    "drf_spectacular",
    "knox_server",
]
MIDDLEWARE = ["django.middleware.common.CommonMiddleware"]
# For the browsable API, which DRF answers with when a client asks for text/html.
TEMPLATES = [{"BACKEND": "django.template.backends.django.DjangoTemplates", "APP_DIRS": True}]
DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": database("swaggerctl-knox-")}}
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
    "DEFAULT_AUTHENTICATION_CLASSES": ["knox.auth.TokenAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 10,
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
}
REST_KNOX = {"TOKEN_TTL": timedelta(seconds=int(os.environ.get("TOKEN_TTL_SECONDS", str(10 * 60 * 60))))}
SPECTACULAR_SETTINGS = {
    "TITLE": "swaggerctl knox fixture",
    "DESCRIPTION": "Django REST framework with django-rest-knox",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
}
