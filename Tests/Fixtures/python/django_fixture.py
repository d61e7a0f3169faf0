"""What the Django projects among the fixtures (drf_server, dj_rest_auth_server, ninja_server) share: where their
SQLite database is, and how each is set up for the tests: migrated, with the user ana (ana@example.com,
Passw0rd!, Ana Horvat) and the items 1..25, as the ASGI application uvicorn serves.
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
    folder = tempfile.mkdtemp(prefix=prefix)
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    # uvicorn ends on SIGTERM by raising it again once it has shut down, which would skip atexit: exit instead,
    # with the status the signal would have given.
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    return os.path.join(folder, "db.sqlite3")


def application(package):
    """Sets up the project `package` (its settings, its database, ana and the items of its `Item` model) and
    returns its ASGI application."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", f"{package}.settings")
    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.core.asgi import get_asgi_application
    from django.core.management import call_command

    item = importlib.import_module(f"{package}.models").Item
    call_command("migrate", verbosity=0, interactive=False)
    if not User.objects.filter(username=USER[0]).exists():
        User.objects.create_user(USER[0], email=USER[1], password=USER[2], first_name="Ana", last_name="Horvat")
    if not item.objects.exists():
        item.objects.bulk_create(item(id=n) for n in range(1, ITEMS + 1))
    return get_asgi_application()
