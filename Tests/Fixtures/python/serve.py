"""Serves one of the test fixtures on a free port, as the demo server does: prints "listening on URL" once
ready, then serves until SIGTERM.

usage: serve.py fastapi|fastapi-users|dot|drf|flask|authlib|dj-rest-auth|ninja|litestar|restx|fab|apiflask HOST

The ASGI apps run in uvicorn; the Flask apps (flask, authlib: Authlib's authorization server, restx, fab and
apiflask), WSGI ones, in Werkzeug's threaded server, which Flask brings.
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
    wsgi = False
    import django_fixture

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
    if wsgi:
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


def interrupt(signum, frame):
    raise KeyboardInterrupt


if __name__ == "__main__":
    main()
