"""Badges: a page connects on a handshake budget of its own, whatever its address has spent."""

import json
import re

import pytest
import requests
import websocket

from server.edge.badges import (
    BADGE_BURST,
    COOKIE,
    EARNED,
    PROOF_BITS,
    RENEW,
    Badges,
    find_proof,
    given,
    proves,
)
from server.edge.guesses import Guesses
from server.edge.limits import Buckets
from server.replies import Refusal
from tests.support.waiting import wait_for

# An address whose handshakes are spent after two, and do not come back within a test.
SPENT = {"HANDSHAKE_RATE": 0.001, "HANDSHAKE_BURST": 2}


def refused(raw, url, **options):
    """Assert that a new connection is refused with 429 (too many new connections)."""
    with pytest.raises(websocket.WebSocketBadStatusException) as refusal:
        raw(url, **options)
    assert refusal.value.status_code == 429


def test_a_page_with_a_badge_connects_while_its_address_has_spent_its_handshakes(serve, raw):
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


def test_an_address_is_given_badges_up_to_its_budget_and_a_page_keeps_its_own(app):
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


def limits_of(page):
    """Return the limits a page's response gives its script."""
    return json.loads(re.search(r'<script type="application/json" id="limits">(.*?)</script>', page.text)[1])


def test_a_page_whose_address_has_given_its_badges_is_asked_to_earn_one(app):
    badges = app.extensions["knights_tour_badges"]
    badges.minted = Buckets(0.0001, 1)
    first = app.test_client().get("/")
    assert first.headers.get("Set-Cookie") and limits_of(first)["badgeProof"] is None
    # The address's badges are given: a browser new to the server is asked for a proof.
    newcomer = app.test_client()
    asked = limits_of(newcomer.get("/"))["badgeProof"]
    assert asked == badges.asked() and asked["bits"] == PROOF_BITS
    earned = newcomer.post("/badge", json={"proof": find_proof(asked, "newcomer-1")})
    assert earned.status_code == 200 and earned.json == {"ok": True}
    cookie = earned.headers["Set-Cookie"]
    assert cookie.startswith(f"{COOKIE}=") and "HttpOnly" in cookie and "SameSite=Lax" in cookie
    # It keeps its badge, and is asked for nothing more; once its address has badges to give
    # again, it is given one of those (with wrong codes of its own) in its place.
    again = newcomer.get("/")
    assert limits_of(again)["badgeProof"] is None and "Set-Cookie" not in again.headers
    badges.minted = Buckets(0.0001, 1)
    assert newcomer.get("/").headers.get("Set-Cookie"), "an earned badge was not renewed"
    # An embed is not asked (another site's page keeps the cookie from it): it connects on its
    # address's budget, as before.
    badges.minted = Buckets(0.0001, 0)
    assert limits_of(app.test_client().get("/embed"))["badgeProof"] is None
    assert limits_of(app.test_client().get("/"))["badgeProof"] == badges.asked()


def test_an_earned_badge_connects_on_its_own_but_types_no_wrong_codes_of_its_own():
    now = [1_800_000_000.0]
    badges = Badges(b"secret", wall=lambda: now[0])
    value = badges.earn(find_proof(badges.asked(), "salt-of-mine"))
    environ = {"HTTP_COOKIE": f"{COOKIE}={value}"}
    badge = badges.of(environ)
    assert badge.endswith(EARNED) and given(badge) is None
    assert [badges.admits(dict(environ)) for _ in range(BADGE_BURST + 1)] == [True] * BADGE_BURST + [False]
    # A wrong code it types is its address's: what a guesser's CPU buys is no guess.
    guesses = Guesses(burst=1, per_minute=0.001, wall=lambda: now[0])
    guesses.failed("sid", "10.0.0.1", badge)
    with pytest.raises(Refusal) as refusal:
        guesses.check("other", "10.0.0.1", badge)
    assert refusal.value.code == "class.wait_network"


def test_a_proof_is_refused_unless_it_is_well_formed_fresh_strong_enough_and_new(monkeypatch):
    now = [1_800_000_000.0]
    badges = Badges(b"secret", wall=lambda: now[0], proof_bits=12)
    asked = badges.asked()

    def refused(proof):
        with pytest.raises(Refusal) as refusal:
            badges.earn(proof)
        return refusal.value.code

    for malformed in (
        None,
        5,
        "",
        "1.2.3",
        f"{asked['minute']}.short.1",
        f"{asked['minute']}.{'s' * 33}.1",
        f"{asked['minute']}.saltsalt.{'n' * 17}",
        f"{asked['minute']}.salt salt.1",
        f"x{asked['minute']}.saltsalt.1",
    ):
        assert refused(malformed) == "badge.bad_proof", malformed
    weak = next(
        f"{asked['minute']}.saltsalt.{n}"
        for n in range(99)
        if not proves(f"{asked['minute']}.saltsalt.{n}", 12)
    )
    assert refused(weak) == "badge.weak_proof"
    for minute in (asked["minute"] - 2, asked["minute"] + 1):
        assert refused(find_proof({**asked, "minute": minute}, "saltsalt")) == "badge.stale_proof"
    # Last minute's proof is good; a salt earns one badge, whatever its nonce.
    badges.earn(find_proof({**asked, "minute": asked["minute"] - 1}, "saltsalt"))
    assert refused(find_proof(asked, "saltsalt")) == "badge.spent_proof"
    # Two minutes on, spent salts are forgotten, as their proofs are stale by then.
    badges.earn(find_proof(asked, "other-salt"))
    now[0] += 120
    badges.earn(find_proof(badges.asked(), "third-salt"))
    assert len(badges._spent) == 1
    # Past the table's size, none earns: memory stays bounded under a flood of proofs.
    monkeypatch.setattr("server.edge.badges.MAX_SPENT", 1)
    assert refused(find_proof(badges.asked(), "fourth-salt")) == "badge.busy"


def test_a_bad_proof_is_told_why_and_given_no_badge(app):
    client = app.test_client()
    for body in ({"proof": "1.saltsalt.1"}, {"proof": None}, ["proof"], None):
        answer = client.post("/badge", json=body)
        assert answer.status_code == 400 and "Set-Cookie" not in answer.headers
        assert (
            answer.json["ok"] is False and answer.json["code"].startswith("badge.") and answer.json["error"]
        )
    assert client.post("/badge", data="not json").json["code"] == "badge.bad_proof"
    assert client.get("/badge").status_code == 405


def test_a_page_that_earned_its_badge_connects_while_its_address_has_spent_its_handshakes(serve, raw):
    server = serve(SPENT)
    server.app.extensions["knights_tour_badges"].minted = Buckets(0.0001, 0)
    raw(server.url), raw(server.url)
    refused(raw, server.url)
    page = requests.get(server.url + "/", timeout=5)
    assert COOKIE not in page.cookies
    proof = find_proof(limits_of(page)["badgeProof"], "a-browser")
    earned = requests.post(server.url + "/badge", json={"proof": proof}, timeout=5)
    badge = earned.cookies.get(COOKIE)
    assert earned.status_code == 200 and badge
    client = raw(server.url, cookie=f"{COOKIE}={badge}")
    assert client.alive
    started = answer(client, 1, "start", {"rows": 5, "cols": 5, "start": 0, "order": "naive", "speed": 10})
    assert started["ok"], started
    # The same proof earns nothing twice.
    again = requests.post(server.url + "/badge", json={"proof": proof}, timeout=5)
    assert again.status_code == 400 and again.json()["code"] == "badge.spent_proof"
