"""Synapse, the Matrix homeserver, set up as its docs set one up: its config generated at start-up
(`python -m synapse.app.homeserver --generate-config --server-name HOST --config-path homeserver.yaml
--report-stats=no --data-directory FOLDER`: SQLite, a random registration_shared_secret, registration closed), then
run as `python -m synapse.app.homeserver --config-path homeserver.yaml --config-path fixture.yaml`, both in this
process. fixture.yaml holds what the fixture changes, each a documented option (Synapse merges the files' top-level
options, the later winning):
- one listener, the client API only (no federation), on HOST and a free port, and no trusted key servers: nothing
  beyond loopback;
- refresh tokens as Synapse has them by default, for a client that logs in with "refresh_token": true (access
  tokens for 5 minutes, refresh tokens that rotate and do not expire), written out;
- rc_login raised: by default an address or an account may log in 5 times, then once in about 5.5 minutes, and
  gets 429 M_LIMIT_EXCEEDED;
- room_list_publication_rules allowing every room into the directory: by default none is, and publicRooms is empty;
- bcrypt_rounds down to 4, as the Django fixtures hash passwords with MD5: a login takes milliseconds, not 0.25 s;
- no redirection of standard output to the log, and warnings and errors logged to standard error.
The files, the database (homeserver.db) and the media store are in the fixture's folder: the tests' temporary HOME.

Once the client API answers, and before it says `listening on`, it makes through Synapse's own APIs:
- the server admin ADMIN, by shared-secret registration (what register_new_matrix_user does: GET and POST
  /_synapse/admin/v1/register, with an HMAC of the nonce and the user made with registration_shared_secret), which
  logs the admin in; its access token, which does not expire, is written to FOLDER/admin_token;
- ana (USER), as the admin, with PUT /_synapse/admin/v2/users/@ana:HOST, which makes no device or token: ana has
  none until a test logs in;
- 25 public rooms, "Room 1" … "Room 25", made by the admin (whose rate limits are lifted first through
  POST /_synapse/admin/v1/users/@admin:HOST/override_ratelimit), so that
  GET /_matrix/client/v3/publicRooms?limit=10 (with a token) pages by next_batch / since.
serve.py's docstring says how a test counts users and sees that a token was ended, with the admin's token.
"""

import hashlib
import hmac
import json
import os
import socket
import sys
import threading
import time
import traceback
import urllib.error
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from contextlib import redirect_stdout

USER = ("ana", "Passw0rd!")
ADMIN = ("admin", "admin-Passw0rd!")
ROOMS = 25

# Straight to loopback, whatever proxy the environment names.
OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))

# Generous for a test suite logging in from one address and as one account: 100 at once, then 10 a second.
RATE = {"per_second": 10, "burst_count": 100}


def serve(folder, host):
    # Only the `listening on` line goes to standard output; anything else written there goes to standard error.
    out = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    # Synapse binds its listener itself, so the free port is found here first.
    with socket.socket() as probe:
        probe.bind((host, 0))
        port = probe.getsockname()[1]
    origin = f"http://{host}:{port}"
    config = os.path.join(folder, "homeserver.yaml")
    overlay = os.path.join(folder, "fixture.yaml")
    generate(folder, host, config)
    write_overlay(folder, host, port, overlay)
    with open(config) as file:
        import yaml

        secret = yaml.safe_load(file)["registration_shared_secret"]
    threading.Thread(target=fill, args=(origin, host, folder, secret, out), daemon=True).start()

    import synapse.app.homeserver

    # SIGTERM stops Twisted's reactor, and with it main().
    sys.argv = ["synapse.app.homeserver", "--config-path", config, "--config-path", overlay]
    synapse.app.homeserver.main()


def generate(folder, host, config):
    from synapse.config.homeserver import HomeServerConfig

    if os.path.exists(config):
        return
    # It says what it wrote on standard output.
    with redirect_stdout(sys.stderr):
        HomeServerConfig.load_or_generate_config(
            "Synapse Homeserver",
            ["--generate-config", "--server-name", host, "--config-path", config, "--report-stats=no",
             "--data-directory", folder],
        )


def write_overlay(folder, host, port, overlay):
    log_config = os.path.join(folder, "fixture.log.config")
    settings = {
        "listeners": [
            {
                "port": port,
                "bind_addresses": [host],
                "type": "http",
                "tls": False,
                "x_forwarded": False,
                "resources": [{"names": ["client"], "compress": False}],
            }
        ],
        "trusted_key_servers": [],
        "enable_registration": False,
        # Cheap password hashes (by default 12 rounds, a quarter of a second for each login), for tests only.
        "bcrypt_rounds": 4,
        "refreshable_access_token_lifetime": "5m",
        "rc_login": {"address": RATE, "account": RATE, "failed_attempts": RATE},
        "room_list_publication_rules": [{"action": "allow"}],
        "no_redirect_stdio": True,
        "log_config": log_config,
    }
    with open(overlay, "w") as file:
        json.dump(settings, file, indent=2)  # JSON is YAML
    logging = {
        "version": 1,
        "formatters": {"precise": {"format": "%(asctime)s - %(name)s - %(lineno)d - %(levelname)s - %(message)s"}},
        "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "precise"}},
        "root": {"level": "WARNING", "handlers": ["console"]},
        "disable_existing_loggers": False,
    }
    with open(log_config, "w") as file:
        json.dump(logging, file, indent=2)


def fill(origin, host, folder, secret, out):
    """Makes the admin, ana and the rooms once Synapse answers, then says it listens; ends the process if any of it
    fails."""
    try:
        started = time.monotonic()
        while True:
            try:
                call(origin, "GET", "/_matrix/client/versions")
                break
            except (urllib.error.URLError, ConnectionError):
                if time.monotonic() - started > 60:
                    raise
                time.sleep(0.05)
        admin_token = register(origin, secret, *ADMIN)
        admin_id = f"@{ADMIN[0]}:{host}"
        call(origin, "PUT", f"/_synapse/admin/v2/users/@{USER[0]}:{host}", {"password": USER[1]}, admin_token)
        call(
            origin, "POST", f"/_synapse/admin/v1/users/{urllib.parse.quote(admin_id)}/override_ratelimit",
            {"messages_per_second": 0, "burst_count": 0}, admin_token,
        )

        def room(n):
            body = {"visibility": "public", "preset": "public_chat", "name": f"Room {n}"}
            call(origin, "POST", "/_matrix/client/v3/createRoom", body, admin_token)

        with ThreadPoolExecutor(4) as pool:
            list(pool.map(room, range(1, ROOMS + 1)))
        with open(os.path.join(folder, "admin_token"), "w") as file:
            file.write(admin_token)
        print(f"listening on {origin}", file=out, flush=True)
    except BaseException:
        traceback.print_exc()
        sys.stderr.flush()
        os._exit(1)


def register(origin, secret, user, password):
    """Shared-secret registration of a server admin, as register_new_matrix_user does it; returns its access token."""
    nonce = call(origin, "GET", "/_synapse/admin/v1/register")["nonce"]
    mac = hmac.new(secret.encode(), digestmod=hashlib.sha1)
    mac.update(b"\x00".join([nonce.encode(), user.encode(), password.encode(), b"admin"]))
    body = {"nonce": nonce, "username": user, "password": password, "admin": True, "mac": mac.hexdigest()}
    return call(origin, "POST", "/_synapse/admin/v1/register", body)["access_token"]


def call(origin, method, path, body=None, token=None):
    request = urllib.request.Request(origin + path, method=method)
    if body is not None:
        request.data = json.dumps(body).encode()
        request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with OPENER.open(request, timeout=30) as response:
            return json.load(response)
    except urllib.error.HTTPError as error:
        raise RuntimeError(f"synapse: {method} {path} answered {error.code}: {error.read()[:500]!r}") from None
