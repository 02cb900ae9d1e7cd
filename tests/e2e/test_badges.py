"""A page's badge: behind a school's NAT, a page comes back on its own budget of handshakes while
a script on the same address has spent the address's."""

import time

import pytest
import websocket
from playwright.sync_api import expect

from server.edge.badges import COOKIE, EARNED
from server.edge.limits import Buckets

BACK = 15_000  # ms for a page to reconnect: Socket.IO waits up to 5 s between tries


@pytest.fixture
def site(serve):
    """Serve an app whose addresses have two handshakes, which do not come back within a test."""
    return serve({"HANDSHAKE_RATE": 0.001, "HANDSHAKE_BURST": 2})


def test_a_page_comes_back_while_a_neighbour_has_spent_its_address(page, site, raw):
    badges = [cookie for cookie in page.context.cookies() if cookie["name"] == COOKIE]
    assert len(badges) == 1 and badges[0]["httpOnly"] and badges[0]["sameSite"] == "Lax"
    # A script on the page's address spends the address's handshakes.
    raw(site.url)
    raw(site.url)
    with pytest.raises(websocket.WebSocketBadStatusException) as refusal:
        raw(site.url)
    assert refusal.value.status_code == 429
    # The page's network drops and comes back: it connects again, on its badge.
    page.context.set_offline(True)
    expect(page.locator("#offline")).to_be_visible()
    page.context.set_offline(False)
    expect(page.locator("#offline")).to_be_hidden(timeout=BACK)
    expect(page.get_by_role("button", name="Play")).to_be_enabled()
    page.get_by_role("button", name="Step", exact=True).click()
    page.wait_for_function("() => knightsTour.model.events === 1")


def test_a_page_whose_address_has_no_badge_left_earns_one_and_connects_on_it(site, open_page, raw):
    # A neighbour's script has taken every badge the address may be given, and spent its
    # handshakes: a browser new to the server finds neither.
    site.app.extensions["knights_tour_badges"].minted = Buckets(0.001, 0)
    raw(site.url)
    raw(site.url)
    with pytest.raises(websocket.WebSocketBadStatusException) as refusal:
        raw(site.url)
    assert refusal.value.status_code == 429, "the address's handshakes were not spent"
    began = time.monotonic()
    page = open_page()
    ready = time.monotonic() - began
    badges = [cookie for cookie in page.context.cookies() if cookie["name"] == COOKIE]
    assert len(badges) == 1 and badges[0]["httpOnly"], "the page earned no badge"
    assert badges[0]["value"].partition(".")[0].endswith(EARNED), "the badge was not an earned one"
    page.get_by_role("button", name="Step", exact=True).click()
    page.wait_for_function("() => knightsTour.model.events === 1")
    print(f"  the page earned its badge and was ready {ready:.2f} s after it was opened")
