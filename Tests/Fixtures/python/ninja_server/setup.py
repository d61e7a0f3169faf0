"""Creates the database, the user and the 25 items the tests use, and returns the ASGI application."""

import os

import django

USER = ("ana", "ana@example.com", "Passw0rd!")
ITEMS = 25


def application():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ninja_server.settings")
    django.setup()
    from django.contrib.auth.models import User
    from django.core.asgi import get_asgi_application
    from django.core.management import call_command

    from ninja_server.models import Item

    call_command("migrate", verbosity=0, interactive=False)
    if not User.objects.filter(username=USER[0]).exists():
        User.objects.create_user(USER[0], email=USER[1], password=USER[2], first_name="Ana", last_name="Horvat")
    if not Item.objects.exists():
        Item.objects.bulk_create(Item(id=n) for n in range(1, ITEMS + 1))
    return get_asgi_application()
