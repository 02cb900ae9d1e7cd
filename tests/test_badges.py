"""Badges: a page connects on a handshake budget of its own, whatever its address has spent."""

import pytest
import requests
import websocket

from server.edge.badges import BADGE_BURST, COOKIE, RENEW, Badges, given
from server.edge.limits import Buckets
from tests.support.waiting import wait_for

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


def answer(client, ack, event, payload=None):
    """Send a request on a RawClient and return the server's answer."""
    client.emit(ack, event, *([] if payload is None else [payload]))
    assert wait_for(lambda: ack in client.answers(), 5), f"no answer to {event}"
    return client.answers()[ack][0]


def test_a_page_types_the_class_code_while_a_neighbour_has_spent_its_networks_wrong_codes(serve, raw):
    # An address that may mistype two codes, and gets no more within the test.
    server = serve({"JOIN_FAILURES_BURST": 2, "JOIN_FAILURES_PER_MINUTE": 0.001})
    code = answer(raw(server.url), 1, "class_open")["code"]
    wrong = "".join(reversed(code)) if code != code[::-1] else "2" * len(code)
    script = raw(server.url)
    assert [answer(script, n, "class_join", {"code": wrong})["code"] for n in (1, 2, 3)] == [
        "class.no_such_class",
        "class.no_such_class",
        "class.wait_network",
    ]
    # A script's fresh connection, or a client with no badge, waits with the address ...
    assert answer(raw(server.url), 1, "class_join", {"code": code})["code"] == "class.wait_network"
    # ... but a page with its badge types its own few, and the right code gets it in.
    badge = requests.get(server.url + "/", timeout=5).cookies.get(COOKIE)
    page = raw(server.url, cookie=f"{COOKIE}={badge}")
    assert answer(page, 1, "class_join", {"code": wrong})["code"] == "class.no_such_class"
    joined = answer(page, 2, "class_join", {"code": code})
    assert (joined["ok"], joined["code"]) == (True, code)


def test_a_badge_begins_with_when_it_was_given_and_a_page_renews_an_old_one():
    now = [1_800_000_000.0]
    badges = Badges(b"secret", wall=lambda: now[0])
    value = badges.issue({}, "10.0.0.1")
    environ = {"HTTP_COOKIE": f"{COOKIE}={value}"}
    assert given(badges.of(environ)) == 1_800_000_000
    now[0] += RENEW - 1
    assert badges.issue(environ, "10.0.0.1") is None, "a recent badge is kept"
    now[0] += 1
    renewed = badges.issue(environ, "10.0.0.1")
    assert renewed and given(badges.of({"HTTP_COOKIE": f"{COOKIE}={renewed}"})) == 1_800_000_000 + RENEW
    # A badge of the form given before ids began with their time counts as given long ago.
    old = badges._sign("ab" * 12)
    assert given(badges.of({"HTTP_COOKIE": f"{COOKIE}={old}"})) is None
    assert badges.issue({"HTTP_COOKIE": f"{COOKIE}={old}"}, "10.0.0.1") is not None
