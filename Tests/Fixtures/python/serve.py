"""Serves one of the test fixtures on a free port, as the demo server does: prints "listening on URL" once
ready, then serves until SIGTERM.

usage: serve.py fastapi|dot|drf HOST
"""

import os
import socket
import sys

import uvicorn


def main():
    which, host = sys.argv[1], sys.argv[2]
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, here)
    if which == "fastapi":
        from fastapi_app import app
    elif which == "dot":
        from dot_server.setup import application

        app = application()
    elif which == "drf":
        from drf_server.setup import application

        app = application()
    else:
        sys.exit(f"serve.py: unknown fixture {which}")
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, 0))
    port = sock.getsockname()[1]
    os.environ["FIXTURE_ORIGIN"] = f"http://{host}:{port}"
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    # Listening before saying so: a client that connects while uvicorn is still starting waits in the
    # backlog instead of being refused. asyncio's create_server listens on it again, which changes nothing.
    sock.listen(128)
    print(f"listening on http://{host}:{port}", flush=True)
    server.run(sockets=[sock])


if __name__ == "__main__":
    main()
