"""The door: an address's surplus handshakes are refused before gunicorn reads them, and nothing else is."""

import contextlib
import socket
import time
from types import SimpleNamespace

import pytest

from server.edge import door
from server.edge.badges import COOKIE, Badges
from server.edge.guard import HANDSHAKE_REFUSED, Guard
from server.edge.limits import Buckets

ADDRESS = "10.1.2.3"
WEBSOCKET = "/socket.io/?EIO=4&transport=websocket"
WAIT = 0.2  # seconds the door waits for a request's head (gunicorn's keep-alive in production)


def head(path=WEBSOCKET, *lines):
    """Return the bytes of a GET request's head with these header lines."""
    return "\r\n".join([f"GET {path} HTTP/1.1", "Host: class.example", *lines, "", ""]).encode()


@pytest.fixture
def guard():
    """Return a guard whose address ADDRESS has spent its handshakes (its clock stands still)."""
    badges = Badges(b"secret")
    guard = Guard(None, handshakes=Buckets(1.0, 1, clock=lambda: 0.0), badges=badges)
    guard.handshakes.take(ADDRESS)
    return guard


@contextlib.contextmanager
def connected():
    """Yield (the server's end, the client's end) of a connected pair of sockets."""
    server, client = socket.socketpair()
    try:
        yield server, client
    finally:
        server.close()
        client.close()


@pytest.fixture
def pair():
    """Return (the server's end, the client's end) of a connected pair of sockets."""
    with connected() as ends:
        yield ends


def at_the_door(guard, pair, data, address=ADDRESS):
    """Send data from the client's end; return whether the door refused it, and what is left to read."""
    server, client = pair
    client.sendall(data)
    refused = door.refused(guard, server, address, WAIT)
    server.setblocking(False)
    try:
        left = server.recv(1 << 16)
    except BlockingIOError:
        left = b""
    return refused, left


def answer(client):
    """Return everything the server's end sent before it shut the connection."""
    client.settimeout(5)
    data = b""
    while chunk := client.recv(4096):
        data += chunk
    return data


def test_a_spent_address_is_answered_429_at_the_door_and_its_connection_ended(guard, pair):
    refused, left = at_the_door(guard, pair, head())
    assert refused and left == b"", "the refused request was left in the socket"
    data = answer(pair[1])
    assert data.startswith(b"HTTP/1.1 429 Too Many Requests\r\n")
    assert data.endswith(b"\r\n\r\n" + HANDSHAKE_REFUSED.encode())
    # A long-polling handshake, and a made-up badge, are refused the same way.
    for extra in ([], [f"Cookie: theme=dark; {COOKIE}=abc.def"]):
        with connected() as ends:
            assert at_the_door(guard, ends, head("/socket.io/?EIO=4&transport=polling", *extra))[0]


def test_what_the_guard_would_let_in_or_cannot_judge_goes_on_unread(guard, pair):
    badge = guard.badges.issue({}, ADDRESS)
    cases = {
        "a badge with handshakes left": head(WEBSOCKET, f"Cookie: {COOKIE}={badge}"),
        "the page, not a handshake": head("/"),
        "a head not yet whole": head()[:40],
        "two cookie lines": head("/socket.io/", "Cookie: a=b", f"Cookie: {COOKIE}={badge}"),
    }
    for case, data in cases.items():
        with connected() as ends:
            refused, left = at_the_door(guard, ends, data)
        assert not refused and left == data, f"{case}: refused, or read"


def test_an_open_address_is_not_even_read(guard, pair):
    # Nothing is sent: the door must not wait for it, since the address has handshakes left.
    assert door.refused(guard, pair[0], "10.9.9.9", WAIT) is False


def test_a_silent_connection_from_a_spent_address_is_ended_after_the_keep_alive(guard, pair):
    # As gunicorn ends any connection that sends no request within its keep-alive: unanswered.
    began = time.monotonic()
    assert door.refused(guard, pair[0], ADDRESS, WAIT) is True
    assert WAIT <= time.monotonic() - began < WAIT + 1


def test_the_door_is_put_in_front_of_a_worker_only_where_the_peer_is_the_client():
    def handle(listener, client, address):
        handled.append(address)

    for proxies, installed in ((0, True), (1, False)):
        handled = []
        app = SimpleNamespace(extensions={door.GUARD: Guard(None)}, config={"PROXIES": proxies})
        worker = SimpleNamespace(wsgi=app, handle=handle, cfg=SimpleNamespace(keepalive=WAIT))
        door.install(worker)
        assert (worker.handle is not handle) == installed
        with connected() as (server, _):
            worker.handle(None, server, ("10.0.0.1", 5000))  # an open address goes on at once
        assert handled == [("10.0.0.1", 5000)]
