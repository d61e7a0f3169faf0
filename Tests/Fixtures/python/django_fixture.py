"""What the Django projects among the fixtures (drf_server, dj_rest_auth_server, ninja_server, allauth_server) share:
where their SQLite database is, and how each is set up for the tests: migrated, with the user ana (ana@example.com,
Passw0rd!, Ana Horvat) and, but for allauth_server, the items 1..25, as the ASGI application uvicorn serves. Also
where the fixtures that are not Django (kinto, synapse) keep their files.
"""

import atexit
import importlib
import os
import shutil
import signal
import sys
import tempfile

USER = ("ana", "ana@example.com", "Passw0rd!")
ITEMS = 25


def database(prefix):
    """The SQLite file: DOT_DATABASE, else one in a temporary folder of its own (named from `prefix`), removed at
    exit."""
    if os.environ.get("DOT_DATABASE"):
        return os.environ["DOT_DATABASE"]
    return os.path.join(temporary_folder(prefix), "db.sqlite3")


def folder(prefix):
    """Where a fixture keeps its files: the folder of DOT_DATABASE (in the tests, their temporary HOME), else a
    temporary folder of its own (named from `prefix`), removed at exit."""
    if os.environ.get("DOT_DATABASE"):
        return os.path.dirname(os.path.abspath(os.environ["DOT_DATABASE"]))
    return temporary_folder(prefix)


def temporary_folder(prefix):
    folder = tempfile.mkdtemp(prefix=prefix)
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    # uvicorn ends on SIGTERM by raising it again once it has shut down, which would skip atexit: exit instead,
    # with the status the signal would have given.
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    return folder


def application(package, settings="settings", items=True):
    """Sets up the project `package` (its settings module `settings`, its database, ana and, with `items`, the items
    of its `Item` model) and returns its ASGI application."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", f"{package}.{settings}")
    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.core.asgi import get_asgi_application
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)
    if not User.objects.filter(username=USER[0]).exists():
        User.objects.create_user(USER[0], email=USER[1], password=USER[2], first_name="Ana", last_name="Horvat")
    if items:
        item = importlib.import_module(f"{package}.models").Item
        if not item.objects.exists():
            item.objects.bulk_create(item(id=n) for n in range(1, ITEMS + 1))
    return get_asgi_application()
