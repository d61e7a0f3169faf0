"""A minimal Django REST framework project with dj-rest-auth, set up as dj-rest-auth's quickstart says: DRF's
TokenAuthentication (`Authorization: Token <key>`), dj-rest-auth's URLs under api/auth/ (login, logout, which
deletes the token, user, password change and reset). Logging in by e-mail is set up as dj-rest-auth's docs
("Login with Email Instead of Username") say, with django-allauth, as allauth's quickstart installs it:
ACCOUNT_LOGIN_METHODS is the current spelling of the ACCOUNT_AUTHENTICATION_METHOD the docs show, here
{"username", "email"} so that the login takes either. Also a list with DRF's PageNumberPagination (as DRF's docs
set it, globally) and a drf-spectacular schema (as its docs install it).

DOT_DATABASE names the SQLite file (by default one in a temporary folder of its own, removed at exit).
"""

from django_fixture import database

SECRET_KEY = "swaggerctl-tests-only-dj-rest-auth"
DEBUG = False
ALLOWED_HOSTS = ["*"]
USE_TZ = True
ROOT_URLCONF = "dj_rest_auth_server.urls"
INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    # dj-rest-auth logs the user in to a session too (its SESSION_LOGIN, on by default); allauth needs messages.
    "django.contrib.sessions",
    "django.contrib.messages",
    "rest_framework",
    "rest_framework.authtoken",
    "dj_rest_auth",
    "allauth",
    "allauth.account",
    "drf_spectacular",
    "dj_rest_auth_server",
]
# startproject's, less the admin's clickjacking and security ones, and allauth's.
MIDDLEWARE = [
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "allauth.account.middleware.AccountMiddleware",
]
# allauth needs the request context processor; DRF's browsable API the templates.
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "APP_DIRS": True,
        "OPTIONS": {"context_processors": ["django.template.context_processors.request"]},
    }
]
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    # allauth's login by e-mail, which dj-rest-auth's LoginSerializer uses through authenticate(email=...).
    "allauth.account.auth_backends.AuthenticationBackend",
]
DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": database("swaggerctl-dj-rest-auth-")}}
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
    "DEFAULT_AUTHENTICATION_CLASSES": ["rest_framework.authentication.TokenAuthentication"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 10,
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
}
ACCOUNT_LOGIN_METHODS = {"username", "email"}
# drf-spectacular's dj-rest-auth extensions warn once, at the first schema, that they cannot import
# dj_rest_auth.registration's views (allauth.socialaccount is not installed): registration is not set up here.
SPECTACULAR_SETTINGS = {
    "TITLE": "swaggerctl dj-rest-auth fixture",
    "DESCRIPTION": "Django REST framework with dj-rest-auth and TokenAuthentication",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
}
