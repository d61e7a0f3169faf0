"""Kinto with its accounts plugin, set up as `kinto init` sets it up (`kinto init --backend memory --cache-backend
memory --host HOST`: the accounts plugin as the only authentication policy, HTTP Basic against accounts made with
PUT /v1/accounts/<id>, the memory backends, the admin plugin, `account:admin` as the accounts' administrator), plus
one line from the accounts docs ("Manage accounts"), `kinto.account_read_principals = account:admin`, so that the
admin can list every account. Its config file, kinto.ini, is made at start-up in the fixture's folder (the tests'
temporary HOME) and served as `kinto start` serves it (pserve: its logging, its app, waitress), on the socket that
serve.py bound.

With the memory backend, accounts live only as long as the process (Kinto says so at start-up, and that its
`kinto create-user` cannot be used with it), so they are made at start-up through Kinto's own API, called in the
process before it listens: the accounts admin (ADMIN) and ana (USER), then, as the admin, the bucket `b`, readable by
ana, with the collection `c` holding the 25 records {"n": 1} … {"n": 25}.
"""

import json
import os
from base64 import b64encode

USER = ("ana", "Passw0rd!")
ADMIN = ("admin", "admin-Passw0rd!")
RECORDS = 25


def application(folder, host):
    """Writes kinto.ini into `folder`, loads Kinto's WSGI application from it and fills it."""
    from kinto.__main__ import main as kinto
    from pyramid.paster import get_app, setup_logging

    ini = os.path.join(folder, "kinto.ini")
    if not os.path.exists(ini):
        if kinto(["init", "--ini", ini, "--backend", "memory", "--cache-backend", "memory", "--host", host]) != 0:
            raise SystemExit(f"kinto init --ini {ini} failed")
        with open(ini) as file:
            text = file.read()
        anchor = "kinto.account_write_principals = account:admin\n"
        if anchor not in text:
            raise SystemExit(f"kinto init wrote no '{anchor.strip()}' in {ini}")
        read = "# Let the administrator read every account.\nkinto.account_read_principals = account:admin\n"
        text = text.replace(anchor, anchor + read)
        with open(ini, "w") as file:
            file.write(text)
    setup_logging(ini)
    app = get_app(ini, "main")
    fill(app)
    return app


def fill(app):
    """Makes the accounts, the bucket, the collection and its records, as a client would over HTTP."""
    call(app, "PUT", f"/v1/accounts/{ADMIN[0]}", {"data": {"password": ADMIN[1]}})
    call(app, "PUT", f"/v1/accounts/{USER[0]}", {"data": {"password": USER[1]}})
    call(app, "PUT", "/v1/buckets/b", {"permissions": {"read": [f"account:{USER[0]}"]}}, ADMIN)
    call(app, "PUT", "/v1/buckets/b/collections/c", {}, ADMIN)
    for n in range(1, RECORDS + 1):
        call(app, "POST", "/v1/buckets/b/collections/c/records", {"data": {"n": n}}, ADMIN)


def call(app, method, path, body, credentials=None):
    from webob import Request

    request = Request.blank(path, method=method, body=json.dumps(body).encode(), content_type="application/json")
    if credentials:
        request.authorization = ("Basic", b64encode(":".join(credentials).encode()).decode())
    response = request.get_response(app)
    if response.status_code not in (200, 201):
        raise SystemExit(f"kinto: {method} {path} answered {response.status}: {response.text}")
    return response.json
