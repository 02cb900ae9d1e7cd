"""Badges: a page connects on a handshake budget of its own, whatever its address has spent."""

import pytest
import requests
import websocket

from server.edge.badges import BADGE_BURST, COOKIE
from server.edge.limits import Buckets

# An address whose handshakes are spent after two, and do not come back within a test.
SPENT = {"HANDSHAKE_RATE": 0.001, "HANDSHAKE_BURST": 2}


def refused(raw, url, **options):
    """Assert that a new connection is refused with 429 (too many new connections)."""
    with pytest.raises(websocket.WebSocketBadStatusException) as refusal:
        raw(url, **options)
    assert refusal.value.status_code == 429


def test_a_page_with_a_seat_connects_while_its_address_has_spent_its_handshakes(serve, raw):
    server = serve(SPENT)
    page = requests.get(server.url + "/", timeout=5)
    badge = page.cookies.get(COOKIE)
    assert badge, "the page gave the browser no badge"
    cookie = page.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
    # A script on the same address spends the address's handshakes.
    raw(server.url), raw(server.url)
    refused(raw, server.url)
    # The page (a reload, a blip) gets in on its badge's own, BADGE_BURST at once.
    badged = [raw(server.url, cookie=f"{COOKIE}={badge}") for _ in range(BADGE_BURST)]
    assert all(client.alive for client in badged)
    # Then it is one of its address's pages again.
    refused(raw, server.url, cookie=f"{COOKIE}={badge}")
    # A made-up badge, or one signed by another server, is no badge.
    nonce, signature = badge.split(".")
    for forged in (f"{nonce}.{signature[::-1]}", f"x{nonce}.{signature}", nonce, "é" * 5):
        refused(raw, server.url, cookie=f"{COOKIE}={forged}")


def test_an_address_is_given_seats_up_to_its_budget_and_a_page_keeps_its_own(app):
    app.extensions["knights_tour_badges"].minted = Buckets(0.0001, 3)
    browser = app.test_client()
    assert browser.get("/").headers.get("Set-Cookie", "").startswith(f"{COOKIE}=")
    # The same browser keeps its badge: it is given no other.
    assert "Set-Cookie" not in browser.get("/").headers
    assert "Set-Cookie" not in browser.get("/embed").headers
    given = [app.test_client().get(path).headers.get("Set-Cookie") for path in ("/", "/embed", "/")]
    assert [bool(cookie) for cookie in given] == [True, True, False], (
        "three badges from one address, then none"
    )
    # Another address has its own.
    other = app.test_client().get("/", environ_base={"REMOTE_ADDR": "127.0.0.9"})
    assert other.headers.get("Set-Cookie", "").startswith(f"{COOKIE}=")
