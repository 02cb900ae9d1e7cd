"""Pacing: the requests that are not Socket.IO's are served on a browser's badge, else in its
address's turn, first come first served, and refused once the address's queue is full."""

import pytest

from server.edge import GUARD
from server.edge.badges import COOKIE, MINT_BURST, Badges
from server.edge.guard import MAX_CONNECTIONS, Guard
from server.edge.limits import Buckets
from server.edge.pacing import ADDRESS_BURST, BUSY, FILE_BURST, RETRY_AFTER, Pacing
from server.pages import QR_TURNS, turns
from tests.support.clock import Clock

ADDRESS, NEIGHBOUR = "10.1.2.3", "10.9.9.9"
RATE, MAX_WAIT = 2.0, 1.5  # an address's requests a second once its one at once is spent


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def badges():
    return Badges(b"secret")


NAMED = "v=0123456789ab"  # the query of a file named by its content, to this pacing


@pytest.fixture
def pacing(clock, badges):
    """Pacing of one request at once and RATE a second per address, two at once per badge, and
    two at once per address of the files named by their content."""
    return Pacing(
        badges,
        addresses=Buckets(RATE, 1, clock=clock),
        browsers=Buckets(0.1, 2, clock=clock),
        files=Buckets(0.1, 2, clock=clock),
        named=lambda environ: environ.get("QUERY_STRING") == NAMED,
        max_wait=MAX_WAIT,
    )


def carrying(badge):
    return {"HTTP_COOKIE": f"theme=dark; {COOKIE}={badge}"}


def test_reserved_tokens_are_paid_first_come_first_served_and_a_wait_too_long_takes_nothing(clock):
    buckets = Buckets(RATE, 1, clock=clock)
    waits = [buckets.reserve("a", MAX_WAIT) for _ in range(5)]
    # One at once, then one every 1 / RATE seconds, in the order asked; the fifth would wait 2 s.
    assert waits == [0.0, 0.5, 1.0, 1.5, None]
    assert buckets.reserve("b", MAX_WAIT) == 0.0, "another key waits behind nobody"
    clock.advance(0.5)  # the second's turn has come: the queue moved up by one
    assert buckets.reserve("a", MAX_WAIT) == 1.5
    assert buckets.reserve("a", MAX_WAIT) is None, "a refusal took a place in the queue"
    clock.advance(10)  # the queue is served and the bucket fills again, to its burst only
    assert [buckets.reserve("a", MAX_WAIT) for _ in range(2)] == [0.0, 0.5]


def test_an_address_waits_its_turn_and_is_refused_once_its_queue_is_full(pacing):
    assert [pacing.wait({}, ADDRESS) for _ in range(4)] == [0.0, 0.5, 1.0, 1.5]
    assert not pacing.open_to(ADDRESS) and not pacing.admits({}, ADDRESS)
    assert pacing.wait({}, ADDRESS) is None
    assert pacing.open_to(NEIGHBOUR) and pacing.wait({}, NEIGHBOUR) == 0.0, "a neighbour was held up"


def test_a_browser_with_a_badge_is_served_on_it_at_once_then_waits_with_its_address(pacing, badges):
    badge = badges.issue({}, ADDRESS)
    for _ in range(4):
        pacing.wait({}, ADDRESS)  # a script's flood has filled the address's queue
    environ = carrying(badge)
    assert pacing.admits(environ, ADDRESS)
    assert [pacing.wait(environ, ADDRESS) for _ in range(2)] == [0.0, 0.0], "the badge waited"
    # Its own two spent, the badge's next request is its address's: a full queue.
    assert not pacing.admits(environ, ADDRESS) and pacing.wait(environ, ADDRESS) is None


def test_once_every_place_is_taken_only_a_request_that_need_not_wait_is_served(pacing, monkeypatch):
    pacing.max_waiting = 1
    monkeypatch.setattr("server.edge.pacing.time.sleep", lambda seconds: pacing.wait({}, NEIGHBOUR))
    assert pacing.wait({}, ADDRESS) == 0.0
    wait = pacing.wait({}, ADDRESS)
    assert wait == 0.5
    pacing.sleep(wait)  # the neighbour asks while the address's request waits: all it has is at once
    assert pacing.waiting == 0 and pacing.open_to(ADDRESS), "the wait was still counted"
    assert pacing.addresses.level(NEIGHBOUR) == 0, "the neighbour was not served from its burst"
    pacing.waiting = 1
    assert not pacing.open_to(NEIGHBOUR) and pacing.wait({}, NEIGHBOUR) is None
    assert pacing.wait({}, "10.5.5.5") == 0.0, "an address with a request at once was refused"


def test_the_pages_files_named_by_content_have_a_budget_of_their_own(pacing):
    for _ in range(4):
        pacing.wait({}, ADDRESS)  # a flood of the page has filled the address's queue
    named, stale = {"QUERY_STRING": NAMED}, {"QUERY_STRING": "v=000000000000"}
    assert pacing.admits(named, ADDRESS) and not pacing.admits(stale, ADDRESS)
    assert not pacing.open_to(ADDRESS), "an address with a full queue was open"
    assert [pacing.wait(named, ADDRESS) for _ in range(3)] == [0.0, 0.0, None], "its budget is 2 at once"
    assert pacing.wait(stale, ADDRESS) is None


def test_a_forged_or_foreign_badge_is_no_badge(pacing, badges):
    for _ in range(4):
        pacing.wait({}, ADDRESS)
    for cookie in ("abc.def", badges.issue({}, ADDRESS) + "0", Badges(b"other").issue({}, ADDRESS)):
        assert pacing.wait(carrying(cookie), ADDRESS) is None, cookie


def test_the_guard_serves_in_turn_and_answers_a_full_queue_503_with_retry_after(pacing, monkeypatch):
    slept, served, answered = [], [], []
    monkeypatch.setattr("server.edge.pacing.time.sleep", slept.append)
    guard = Guard(lambda environ, start_response: served.append(environ["PATH_INFO"]) or [], pacing=pacing)

    def ask(path):
        environ = {"PATH_INFO": path, "REMOTE_ADDR": ADDRESS}
        body = guard(environ, lambda status, headers: answered.append((status, dict(headers))))
        return b"".join(body)

    for path in ("/", "/static/js/app.js", "/embed", "/class/AB3XZ7K/qr.svg"):
        ask(path)
    assert served == ["/", "/static/js/app.js", "/embed", "/class/AB3XZ7K/qr.svg"]
    assert slept == [0, 0.5, 1.0, 1.5], "the first let the others go first; each after it waited its turn"
    assert ask("/") == BUSY.encode() and served[-1] == "/class/AB3XZ7K/qr.svg"
    status, headers = answered[-1]
    assert status == "503 Service Unavailable" and headers["Retry-After"] == str(RETRY_AFTER)
    # Socket.IO's own requests are not paced here: the handshake budget is theirs.
    ask("/socket.io/")
    assert served[-1] == "/socket.io/"


def test_an_address_given_room_for_a_larger_hall_is_given_as_many_more_badges_and_loads_at_once(configured):
    for per_address, scale in ((MAX_CONNECTIONS, 1), (3 * MAX_CONNECTIONS, 3)):
        app = configured({"MAX_PER_ADDRESS": per_address})
        assert app.extensions["knights_tour_badges"].minted.burst == MINT_BURST * scale
        assert app.extensions[GUARD].pacing.addresses.burst == ADDRESS_BURST * scale
        assert app.extensions[GUARD].pacing.files.burst == FILE_BURST * scale


def test_a_qr_code_takes_as_many_turns_as_eight_pages(clock):
    assert turns({"PATH_INFO": "/class/AB3XZ7K/qr.svg"}) == QR_TURNS == 8
    assert turns({"PATH_INFO": "/"}) == turns({"PATH_INFO": "/class/AB3XZ7K/qr.svg/x"}) == 1
    pacing = Pacing(addresses=Buckets(RATE, 10, clock=clock), cost=turns, max_wait=MAX_WAIT)
    qr = {"PATH_INFO": "/class/AB3XZ7K/qr.svg"}
    assert pacing.wait(qr, ADDRESS) == 0.0
    assert not pacing.admits(qr, ADDRESS) and pacing.wait(qr, ADDRESS) is None, "8 more would wait 3 s"
    assert pacing.admits({"PATH_INFO": "/"}, ADDRESS) and pacing.wait({"PATH_INFO": "/"}, ADDRESS) == 0.0


def test_a_request_answered_without_the_app_takes_its_addresss_turn(pacing):
    guard = Guard(lambda environ, start_response: [], pacing=pacing)
    statuses = []
    for _ in range(6):  # one at once, then three waits: the rest find the queue full
        environ = {"PATH_INFO": "/", "REMOTE_ADDR": ADDRESS, "CONTENT_LENGTH": str(10**9)}
        guard(environ, lambda status, headers: statuses.append(status))
    assert statuses == ["413 Content Too Large"] * 6
    assert not pacing.open_to(ADDRESS) and pacing.wait({}, ADDRESS) is None
