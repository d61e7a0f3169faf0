"""Writes PAGES pages of SIZE items each as static files under ROOT/p/, for the pagination bench: each page is
{"items": [...], "next": "/p/N+1.json"}, the last with "next": null, as a list that pages by a next URL in its body
is served. Also writes ROOT/urls.txt, a curl config that fetches the same pages in one process.

usage: pages.py ROOT PAGES SIZE BASE
"""

import json
import os
import sys

root, pages, size, base = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
os.makedirs(f"{root}/p", exist_ok=True)
with open(f"{root}/urls.txt", "w") as urls:
    for page in range(1, pages + 1):
        first = (page - 1) * size + 1
        items = [
            {"id": i, "name": f"Item {i}", "done": i % 2 == 0, "tags": ["a", "b"]} for i in range(first, first + size)
        ]
        body = {"items": items, "next": f"/p/{page + 1}.json" if page < pages else None}
        with open(f"{root}/p/{page}.json", "w") as f:
            json.dump(body, f, separators=(",", ":"))
        urls.write(f'url = "{base}/p/{page}.json"\n')
