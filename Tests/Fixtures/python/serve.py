"""Serves one of the test fixtures on a free port, as the demo server does: prints "listening on URL" once
ready, then serves until SIGTERM.

usage: serve.py fastapi|fastapi-users|dot|drf|flask|authlib|dj-rest-auth|ninja|knox|litestar|restx|fab|apiflask|
                allauth|allauth-jwt|kinto|synapse HOST

The ASGI apps run in uvicorn; the Flask apps (flask, authlib: Authlib's authorization server, restx, fab and
apiflask), WSGI ones, in Werkzeug's threaded server, which Flask brings. allauth and allauth-jwt (django-allauth's
headless API, with session tokens or JWTs: allauth_server) are Django projects in uvicorn too; kinto (kinto_fixture)
runs in waitress, as `kinto start` runs it; synapse (synapse_fixture) is Synapse's own server, which binds its
listener itself and says it listens once its users and rooms are made.

Server-side checks, with ORIGIN what the fixture printed and HOME its folder (the tests' HOME, which also holds
DOT_DATABASE):
- kinto: the number of accounts, which the admin that kinto_fixture makes (admin, admin-Passw0rd!) may read; it is 2
  (admin and ana) unless a test made one, and a failed Basic login makes none:
      curl -sI -u 'admin:admin-Passw0rd!' "$ORIGIN/v1/accounts" | grep -i '^Total-Objects:'
  There is no session to end: Kinto checks Basic credentials on every request and has no logout.
- synapse: with the token of the server admin that synapse_fixture makes, in $HOME/admin_token, the number of users
  ("total": 2, admin and ana, unless a test made one):
      curl -s -H "Authorization: Bearer $(cat "$HOME/admin_token")" "$ORIGIN/_synapse/admin/v2/users?guests=false"
  and ana's devices: a login makes one (its device_id is in the login's answer) and a logout deletes it with its
  access and refresh tokens, so a token was ended when its device is gone ("total": 0 once every session is over):
      curl -s -H "Authorization: Bearer $(cat "$HOME/admin_token")" "$ORIGIN/_synapse/admin/v2/users/@ana:HOST/devices"
  The ended token itself gets 401 M_UNKNOWN_TOKEN with "soft_logout": false from
  GET $ORIGIN/_matrix/client/v3/account/whoami.
- allauth, allauth-jwt: GET $ORIGIN/test/state answers {"users": N, "sessions": M}.
- drf: GET $ORIGIN/api/test/blacklisted/ answers {"count": N}, the refresh tokens blacklisted, and
  GET $ORIGIN/api/test/notes/ {"texts": [...]}, the notes that POST $ORIGIN/api/notes/ made.
- knox: GET $ORIGIN/api/test/tokens/ answers {"count": N}, the knox tokens that have not expired: a login makes one,
  a logout deletes the one it was sent, a logout of all sessions every one of the user's.
"""

import logging
import os
import signal
import socket
import sys


def main():
    which, host = sys.argv[1], sys.argv[2]
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, here)
    wsgi = waitress = False
    import django_fixture

    if which == "synapse":
        import synapse_fixture

        synapse_fixture.serve(django_fixture.folder("swaggerctl-synapse-"), host)
        return
    if which == "fastapi":
        from fastapi_app import app
    elif which == "fastapi-users":
        from fastapi_users_app import app
    elif which == "dot":
        from dot_server.setup import application

        app = application()
    elif which == "drf":
        app = django_fixture.application("drf_server")
    elif which == "flask":
        from flask_app import app

        wsgi = True
    elif which == "authlib":
        from authlib_app import app

        wsgi = True
    elif which == "dj-rest-auth":
        app = django_fixture.application("dj_rest_auth_server")
    elif which == "ninja":
        app = django_fixture.application("ninja_server")
    elif which == "knox":
        app = django_fixture.application("knox_server")
    elif which in ("allauth", "allauth-jwt"):
        settings = "settings_jwt" if which == "allauth-jwt" else "settings"
        app = django_fixture.application("allauth_server", settings=settings, items=False)
    elif which == "kinto":
        import kinto_fixture

        app = kinto_fixture.application(django_fixture.folder("swaggerctl-kinto-"), host)
        waitress = True
    elif which == "litestar":
        from litestar_app import app
    elif which == "restx":
        from restx_app import app

        wsgi = True
    elif which == "fab":
        from fab_app import app

        wsgi = True
    elif which == "apiflask":
        from apiflask_app import app

        wsgi = True
    else:
        sys.exit(f"serve.py: unknown fixture {which}")
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, 0))
    port = sock.getsockname()[1]
    # FIXTURE_TLS_CERT and FIXTURE_TLS_KEY (PEM files) make an ASGI app serve HTTPS.
    scheme = "https" if os.environ.get("FIXTURE_TLS_CERT") else "http"
    os.environ["FIXTURE_ORIGIN"] = f"{scheme}://{host}:{port}"
    if waitress:
        serve_waitress(app, host, port, sock)
    elif wsgi:
        serve_wsgi(app, host, port, sock)
    else:
        serve_asgi(app, host, port, sock)


def serve_asgi(app, host, port, sock):
    import uvicorn

    tls = {}
    if os.environ.get("FIXTURE_TLS_CERT"):
        tls = {"ssl_certfile": os.environ["FIXTURE_TLS_CERT"], "ssl_keyfile": os.environ["FIXTURE_TLS_KEY"]}
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off", **tls))
    # Listening before saying so: a client that connects while uvicorn is still starting waits in the
    # backlog instead of being refused. asyncio's create_server listens on it again, which changes nothing.
    sock.listen(128)
    print(f"listening on {os.environ['FIXTURE_ORIGIN']}", flush=True)
    server.run(sockets=[sock])


def serve_wsgi(app, host, port, sock):
    from werkzeug.serving import make_server

    # As uvicorn's log_level="warning": no line for each request, but tracebacks still reach standard error.
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    # A thread for each request (Werkzeug closes every connection after one answer). With fd= it serves a
    # duplicate of the socket bound above, which it neither binds nor listens on.
    server = make_server(host, port, app, threaded=True, fd=sock.fileno())
    sock.close()
    # SIGTERM ends serve_forever as Ctrl-C does (it returns on KeyboardInterrupt and closes the socket), so the
    # process exits with 0; requests still being answered are in daemon threads, which end with it.
    signal.signal(signal.SIGTERM, interrupt)
    try:
        server.socket.listen(128)
        print(f"listening on http://{host}:{port}", flush=True)
        server.serve_forever()
    except KeyboardInterrupt:  # a SIGTERM before serve_forever began
        pass


def serve_waitress(app, host, port, sock):
    import waitress

    # What `kinto start` serves kinto.ini's app with ([server:main] is waitress), on the socket bound above, which it
    # listens on without binding it.
    server = waitress.create_server(app, sockets=[sock])
    # SIGTERM ends the process through sys.exit, so that atexit removes a temporary folder.
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    print(f"listening on http://{host}:{port}", flush=True)
    server.run()


def interrupt(signum, frame):
    raise KeyboardInterrupt


if __name__ == "__main__":
    main()
