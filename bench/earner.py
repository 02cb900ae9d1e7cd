"""Collect badges from a server flat out, as a prankster's helper: `python bench/earner.py URL`.

It loads the page over and over, as one browser after another, and writes each badge it is
given on a line ("given <cookie value>"); once the address has none left to give, it earns each
with a proof of work (server/edge/badges.py), found in this process, on a core of its own, and
writes "earned <cookie value>". It runs until it is killed.
"""

import json
import re
import secrets
import sys
from http.client import HTTPConnection
from urllib.parse import urlsplit

import common  # noqa: F401 - puts the project on the import path

from server.edge.badges import COOKIE, find_proof

LIMITS = re.compile(rb'id="limits">(.*?)</script>')
BADGE = re.compile(rf"{COOKIE}=([^;]+)")


def badge_of(answer):
    """Return the badge an answer gives, or None."""
    found = BADGE.match(answer.getheader("Set-Cookie") or "")
    return found and found[1]


def main(url):
    address = urlsplit(url)
    server = HTTPConnection(address.hostname, address.port, timeout=30)
    while True:
        server.request("GET", "/")
        answer = server.getresponse()
        page = answer.read()
        if answer.status != 200 or answer.getheader("Connection") == "close":
            server.close()  # paced past its wait (503): the connection closes
            continue
        if given := badge_of(answer):
            print("given", given, flush=True)
            continue
        proof = find_proof(json.loads(LIMITS.search(page)[1])["badgeProof"], secrets.token_urlsafe(12))
        server.request("POST", "/badge", json.dumps({"proof": proof}), {"Content-Type": "application/json"})
        answer = server.getresponse()
        answer.read()
        print("earned" if answer.status == 200 else f"refused {answer.status}", badge_of(answer), flush=True)


if __name__ == "__main__":
    main(sys.argv[1])
