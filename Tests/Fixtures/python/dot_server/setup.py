"""Creates the database, a user and the OAuth 2 clients the tests use, and returns the ASGI application."""

import os

import django

USER = ("ana@example.com", "Passw0rd!")
PUBLIC_CLIENT = "swaggerctl-public"
CONFIDENTIAL_CLIENT = ("swaggerctl-confidential", "s3cret-client-secret")
# The browser login's client: the authorization code grant with PKCE (settings.pkce_required), to a loopback
# redirect URI on any port (RFC 8252 §7.3: DOT ignores the port of a registered http://127.0.0.1 or [::1] URI).
WEB_CLIENT = ("swaggerctl-web", "http://127.0.0.1/callback")
DEVICE_CLIENT = "swaggerctl-device"


def application():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dot_server.settings")
    django.setup()
    from django.contrib.auth.models import User
    from django.core.asgi import get_asgi_application
    from django.core.management import call_command
    from oauth2_provider.models import Application

    call_command("migrate", verbosity=0, interactive=False)
    if not User.objects.filter(username=USER[0]).exists():
        User.objects.create_user(USER[0], email=USER[0], password=USER[1], first_name="Ana", last_name="Horvat")
    for client_id, client_type, secret in [
        (PUBLIC_CLIENT, Application.CLIENT_PUBLIC, ""),
        (CONFIDENTIAL_CLIENT[0], Application.CLIENT_CONFIDENTIAL, CONFIDENTIAL_CLIENT[1]),
    ]:
        if not Application.objects.filter(client_id=client_id).exists():
            Application.objects.create(
                name=client_id,
                client_id=client_id,
                client_secret=secret,
                client_type=client_type,
                authorization_grant_type=Application.GRANT_PASSWORD,
                # With the openid scope, a refresh answer carries an ID token, which must be signed.
                algorithm=Application.RS256_ALGORITHM,
            )
    for client_id, grant_type, redirect_uris in [
        (WEB_CLIENT[0], Application.GRANT_AUTHORIZATION_CODE, WEB_CLIENT[1]),
        (DEVICE_CLIENT, Application.GRANT_DEVICE_CODE, ""),
    ]:
        if not Application.objects.filter(client_id=client_id).exists():
            Application.objects.create(
                name=client_id,
                client_id=client_id,
                client_secret="",
                client_type=Application.CLIENT_PUBLIC,
                authorization_grant_type=grant_type,
                redirect_uris=redirect_uris,
                skip_authorization=False,  # the person approves on DOT's page
                algorithm=Application.RS256_ALGORITHM,
            )
    return get_asgi_application()
