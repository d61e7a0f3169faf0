"""django-allauth's headless API (allauth.headless), set up as its headless installation docs say: the apps
allauth, allauth.account and allauth.headless, allauth's account middleware and authentication backend,
HEADLESS_FRONTEND_URLS, and the URLs accounts/ (allauth.urls) and _allauth/ (allauth.headless.urls). Both clients
(HEADLESS_CLIENTS' default: app, with `X-Session-Token`, and browser, with cookies and CSRF) and the default token
strategy, SessionTokenStrategy, whose session token is the Django session's key. settings_jwt.py changes the
strategy to JWT.

Set for the tests beyond that, each a documented setting: HEADLESS_SERVE_SPECIFICATION, so that the OpenAPI
document is at _allauth/openapi.json (.yaml, .html); ACCOUNT_LOGIN_METHODS {"username", "email"}, so that the
login takes `username` or `email` (exactly one of them) with `password`; ACCOUNT_RATE_LIMITS' login limits raised
(the defaults allow 30 logins a minute from an IP, and 5 failed ones for a user in 5 minutes, then answer 400
too_many_login_attempts) so that a test suite logging in from one address does not trip them.

DOT_DATABASE names the SQLite file (by default one in a temporary folder of its own, removed at exit).
"""

from django_fixture import database

SECRET_KEY = "swaggerctl-tests-only-allauth"
DEBUG = False
ALLOWED_HOSTS = ["*"]
USE_TZ = True
ROOT_URLCONF = "allauth_server.urls"
INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    # The session strategy's tokens are sessions; allauth needs messages.
    "django.contrib.sessions",
    "django.contrib.messages",
    "allauth",
    "allauth.account",
    "allauth.headless",
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
# allauth needs the request context processor (and its templates, for the accounts/ views and its e-mails).
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "APP_DIRS": True,
        "OPTIONS": {"context_processors": ["django.template.context_processors.request"]},
    }
]
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": database("swaggerctl-allauth-")}}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast, for tests only
# No mail server: e-mails (a sign-up's verification, a password reset) stay in memory.
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
# A failing request's traceback goes to standard error, which the tests keep in the server's log.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "loggers": {"django.request": {"handlers": ["console"], "level": "ERROR"}},
}

# The pages of the single-page application that allauth's e-mails link to; there is none here.
HEADLESS_FRONTEND_URLS = {
    "account_confirm_email": "http://127.0.0.1:3000/account/verify-email/{key}",
    "account_reset_password_from_key": "http://127.0.0.1:3000/account/password/reset/key/{key}",
    "account_signup": "http://127.0.0.1:3000/account/signup",
}
HEADLESS_SERVE_SPECIFICATION = True
ACCOUNT_LOGIN_METHODS = {"username", "email"}
# Merged into allauth's defaults ("login": "30/m/ip", "login_failed": "10/m/ip,5/300s/key"); the others stay.
ACCOUNT_RATE_LIMITS = {"login": "600/m/ip", "login_failed": "300/m/ip,300/300s/key"}
