"""Writes PAGES pages of SIZE items each as static files under ROOT, for the pagination bench, in two styles:
- ROOT/p/N.json: {"items": [...], "next": "/p/N+1.json"}, the last with "next": null, as a list that pages by a
  next URL in its body is served;
- ROOT/n/N.json: {"items": [...], "page": N, "total_pages": PAGES}, numbered pages with their total, which the web
  server gives for /n?page=N.
Also writes ROOT/urls.txt and ROOT/numbered-urls.txt, curl configs that fetch the same pages in one process.

usage: pages.py ROOT PAGES SIZE BASE
"""

import json
import os
import sys

root, pages, size, base = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
os.makedirs(f"{root}/p", exist_ok=True)
os.makedirs(f"{root}/n", exist_ok=True)
with open(f"{root}/urls.txt", "w") as urls, open(f"{root}/numbered-urls.txt", "w") as numbered:
    for page in range(1, pages + 1):
        first = (page - 1) * size + 1
        items = [
            {"id": i, "name": f"Item {i}", "done": i % 2 == 0, "tags": ["a", "b"]} for i in range(first, first + size)
        ]
        body = {"items": items, "next": f"/p/{page + 1}.json" if page < pages else None}
        with open(f"{root}/p/{page}.json", "w") as f:
            json.dump(body, f, separators=(",", ":"))
        with open(f"{root}/n/{page}.json", "w") as f:
            json.dump({"items": items, "page": page, "total_pages": pages}, f, separators=(",", ":"))
        urls.write(f'url = "{base}/p/{page}.json"\n')
        numbered.write(f'url = "{base}/n?page={page}"\n')
