"""The door: an address's surplus handshakes are refused before gunicorn reads them, as the guard
would refuse them, and nothing else is."""

import contextlib
import gc
import logging
import runpy
import socket
import threading
import time
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import unquote

import gevent
import pytest

from server.edge import GUARD, door
from server.edge.badges import COOKIE, Badges
from server.edge.guard import HANDSHAKE_REFUSED, Guard
from server.edge.limits import Buckets
from server.edge.pacing import BUSY, Pacing
from tests.support.clock import Clock

ADDRESS = "10.1.2.3"
WEBSOCKET = "/socket.io/?EIO=4&transport=websocket"
NAMED = "v=0123456789ab"  # the query of the page's app.js named by its content, to the paced guard
WAIT = 0.3  # seconds the door waits for a request's head (gunicorn's keep-alive in production)


def head(path=WEBSOCKET, *lines, method="GET"):
    """Return the bytes of a request's head with these header lines."""
    return "\r\n".join([f"{method} {path} HTTP/1.1", "Host: class.example", *lines, "", ""]).encode()


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def guard(clock):
    """Return a guard whose address ADDRESS has spent its handshakes (one a second, by clock)."""
    guard = Guard(
        lambda environ, start_response: [], handshakes=Buckets(1.0, 1, clock=clock), badges=Badges(b"s")
    )
    guard.handshakes.take(ADDRESS)
    return guard


@pytest.fixture
def paced(clock):
    """Return a guard whose address ADDRESS has filled its queue of requests (one at once, one a
    second, a wait of two at most), with two handshakes left."""
    badges = Badges(b"s")
    pacing = Pacing(
        badges,
        addresses=Buckets(1.0, 1, clock=clock),
        named=lambda environ: (
            environ.get("PATH_INFO") == "/static/js/app.js" and environ.get("QUERY_STRING") == NAMED
        ),
        max_wait=2.0,
    )
    guard = Guard(lambda environ, start_response: [], handshakes=Buckets(1.0, 2, clock=clock), badges=badges)
    guard.pacing = pacing
    while pacing.wait({}, ADDRESS) is not None:
        pass
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


def at_the_door(guard, ends, data):
    """Send data from the client's end; return whether the door refused it, and what is left to read."""
    server, client = ends
    client.sendall(data)
    refused = door.refused(guard, server, ADDRESS, WAIT)
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


def guard_status(guard, data):
    """Return the status the guard itself answers a request's head with (its buckets as they are)."""
    line, *fields = data.decode("latin-1").removeprefix("\r\n").split("\r\n")[:-2]
    # gunicorn decodes the path it gives the app.
    path, _, query = line.split()[1].partition("?")
    environ = {"PATH_INFO": unquote(path), "QUERY_STRING": query, "REMOTE_ADDR": ADDRESS}
    cookies = [value.strip() for name, value in (f.split(":", 1) for f in fields) if name.lower() == "cookie"]
    if cookies:
        environ["HTTP_COOKIE"] = ",".join(cookies)  # as gunicorn joins repeated headers
    statuses = []
    guard(environ, lambda status, headers: statuses.append(status))
    return statuses[0] if statuses else "let in"


def refused_at_the_door(guard, heads):
    """Return {case: what the door answered} for heads the door must refuse, each taken from its socket."""
    sent = {}
    for case, data in heads.items():
        with connected() as ends:
            refused, left = at_the_door(guard, ends, data)
            assert refused and left == b"", f"{case}: not refused, or left in the socket"
            sent[case] = answer(ends[1])
    return sent


def let_in_unread(guard, heads):
    """Check that the door lets each of heads go on unread, and that the guard would let it in."""
    for case, data in heads.items():
        with connected() as ends:
            refused, left = at_the_door(guard, ends, data)
        assert not refused and left == data, f"{case}: refused, or read"
        assert not guard_status(guard, data).startswith(("429", "503")), f"{case}: the guard refuses it"


def test_a_spent_address_is_answered_429_at_the_door_as_the_guard_would(guard):
    badge = guard.badges.issue({}, ADDRESS)
    heads = {
        "a WebSocket handshake": head(),
        "a long-polling one": head("/socket.io/?EIO=4&transport=polling"),
        "a made-up badge": head(WEBSOCKET, f"Cookie: theme=dark; {COOKIE}=abc.def"),
        "a badge in a second Cookie line": head(WEBSOCKET, "Cookie: a=b", f"Cookie: {COOKIE}={badge}"),
        "another method, after an empty line": b"\r\n" + head(method="POST"),
        "an encoded path, decoded as gunicorn decodes it": head("/%73ocket.io/?EIO=4&transport=websocket"),
        "an encoded query": head(WEBSOCKET + "&t=%41%42"),
        "a head of 60 KB": head(WEBSOCKET, *(f"X-Padding-{n}: {'x' * 4000}" for n in range(15))),
    }
    for case, sent in refused_at_the_door(guard, heads).items():
        assert sent.startswith(b"HTTP/1.1 429 Too Many Requests\r\n"), case
        assert sent.endswith(b"\r\n\r\n" + HANDSHAKE_REFUSED.encode()), case
        assert guard_status(guard, heads[case]).startswith("429"), f"{case}: the guard would not refuse it"


def test_what_the_guard_would_let_in_goes_on_unread(guard):
    badge = guard.badges.issue({}, ADDRESS)
    let_in_unread(
        guard,
        {
            "a badge with handshakes left": head(WEBSOCKET, f"Cookie: {COOKIE}={badge}"),
            "the page, not a handshake": head("/"),
        },
    )


def test_an_address_whose_queue_is_full_is_answered_503_at_the_door_as_the_guard_would(paced):
    heads = {
        "the page": head("/"),
        "one of its files, by a name of other content": head("/static/js/app.js?v=000000000000"),
        "the embed, after an empty line": b"\r\n" + head("/embed?controls=full"),
        "a made-up badge": head("/", f"Cookie: {COOKIE}=abc.def"),
    }
    for case, sent in refused_at_the_door(paced, heads).items():
        assert sent.startswith(b"HTTP/1.1 503 Service Unavailable\r\n"), case
        assert b"\r\nRetry-After: 5\r\n" in sent and sent.endswith(BUSY.encode()), case
        assert guard_status(paced, heads[case]).startswith("503"), f"{case}: the guard would not refuse it"


def test_with_its_queue_full_an_address_still_gets_its_badges_pages_and_its_handshakes(paced):
    badge = paced.badges.issue({}, ADDRESS)
    let_in_unread(
        paced,
        {
            "a page with a badge that has requests left": head("/", f"Cookie: {COOKIE}={badge}"),
            "a handshake, which has its own budget": head(),
            "one of the page's files by its content's name, which has its own": head(
                f"/static/js/app.js?{NAMED}"
            ),
        },
    )


def test_a_refusal_waits_in_the_tarpit_while_it_has_room_and_is_sent_at_once_past_it(guard, monkeypatch):
    slept = []
    monkeypatch.setattr(door.time, "sleep", slept.append)
    tarpit = door.Tarpit(seconds=1.0, per_address=2, in_all=3)

    def refused_with(waiting):
        tarpit.waiting.update(waiting)
        slept.clear()
        with connected() as ends:
            ends[1].sendall(head())
            assert door.refused(guard, ends[0], ADDRESS, WAIT, tarpit) is True
            assert answer(ends[1]).startswith(b"HTTP/1.1 429 ")
        tarpit.waiting.subtract(waiting)
        return slept == [1.0]

    assert refused_with({}), "a refusal was sent at once while the tarpit was empty"
    assert not tarpit.waiting, "a refusal sent is still counted as waiting"
    assert refused_with({ADDRESS: 1, "10.9.9.9": 1})
    assert not refused_with({ADDRESS: 2}), "an address held more refusals than its share"
    assert not refused_with({"10.9.9.9": 3}), "more refusals were held than the tarpit's room"


def test_a_head_arriving_in_pieces_is_judged_once_whole(guard):
    with connected() as (server, client):
        data = head()
        client.sendall(data[:20])
        rest = threading.Timer(0.05, client.sendall, (data[20:],))
        rest.start()
        try:
            assert door.refused(guard, server, ADDRESS, WAIT) is True
        finally:
            rest.join()
        assert answer(client).startswith(b"HTTP/1.1 429 ")


def test_a_connection_that_sends_no_whole_head_is_ended_after_the_keep_alive(guard):
    # As gunicorn ends a connection that sends no whole request within its keep-alive: unanswered.
    for sent in (b"", head()[:20]):
        with connected() as (server, client):
            client.sendall(sent)
            began = time.monotonic()
            assert door.refused(guard, server, ADDRESS, WAIT) is True
            waited = time.monotonic() - began
            server.shutdown(socket.SHUT_RDWR)
            assert answer(client) == b""
        assert WAIT - 0.05 <= waited < WAIT + 1, f"waited {waited:.2f} s for {sent!r}"


def test_an_address_whose_handshake_came_back_meanwhile_is_let_in(guard, clock):
    # Spent when the connection came, a handshake back by the time its head has: the guard's.
    with connected() as (server, client):
        data = head()
        client.sendall(data[:20])
        clock.advance(1.0)  # the bucket's one a second

        def rest():
            client.sendall(data[20:])

        later = threading.Timer(0.05, rest)
        later.start()
        try:
            assert door.refused(guard, server, ADDRESS, WAIT) is False
        finally:
            later.join()
        server.setblocking(False)
        assert server.recv(1 << 16) == data, "the head was read from the socket"


def test_an_open_address_is_not_even_read(guard):
    with connected() as (server, _):
        # Nothing is sent: the door must not wait for it, since the address has handshakes left.
        assert door.refused(guard, server, "10.9.9.9", WAIT) is False


def fake_worker(app, handle, ssl=False):
    """Return a stand-in for a gunicorn worker with app loaded, handling connections with handle."""
    return SimpleNamespace(
        wsgi=app,
        handle=handle,
        handle_error=lambda req, client, address, exc: None,
        cfg=SimpleNamespace(keepalive=WAIT, is_ssl=ssl),
        log=SimpleNamespace(error_log=logging.getLogger("tests.door")),
    )


def test_the_door_is_put_in_front_of_a_worker_only_where_the_peer_is_the_client_in_the_clear():
    def handle(listener, client, address):
        handled.append(address)

    for proxies, ssl, installed in ((0, False, True), (1, False, False), (0, True, False)):
        handled = []
        app = SimpleNamespace(extensions={GUARD: Guard(None)}, config={"PROXIES": proxies})
        worker = fake_worker(app, handle, ssl)
        plain = worker.handle_error
        door.install(worker)
        assert (worker.handle_error is not plain) == installed
        with connected() as (server, _):
            worker.handle(None, server, ("10.0.0.1", 5000))  # an open address goes on at once
        assert handled == [("10.0.0.1", 5000)]


def test_an_address_holding_a_halls_connections_is_told_at_once_that_its_network_is_busy():
    app = SimpleNamespace(extensions={GUARD: Guard(None, max_connections=1)}, config={"PROXIES": 0})
    held, told = [], []

    def handle(listener, client, address):
        # Each connection stays open while the next one comes: three at once, the most for a
        # hall of one WebSocket (OPEN_PER_ADDRESS), then a fourth.
        held.append(address)
        depth = len(held)
        if depth > door.OPEN_PER_ADDRESS:
            return
        with connected() as (server, client_end):
            worker.handle(None, server, ("10.0.0.1", depth + 1))
            if depth == door.OPEN_PER_ADDRESS:
                told.append(answer(client_end))

    worker = fake_worker(app, handle)
    door.install(worker)
    with connected() as (server, _):
        worker.handle(None, server, ("10.0.0.1", 1))
    assert len(held) == door.OPEN_PER_ADDRESS and told[0].startswith(b"HTTP/1.1 503 Service Unavailable\r\n")
    with connected() as (server, _):
        worker.handle(None, server, ("10.0.0.1", 9))  # all closed again: room
    assert len(held) == door.OPEN_PER_ADDRESS + 1


def test_a_request_gunicorn_refuses_itself_takes_its_addresss_turn(clock):
    pacing = Pacing(addresses=Buckets(1.0, 2, clock=clock), max_wait=1.0)
    app = SimpleNamespace(extensions={GUARD: Guard(None, pacing=pacing)}, config={"PROXIES": 0})
    worker = fake_worker(app, lambda listener, client, address: None)
    door.install(worker)
    for _ in range(5):  # two at once and a second's wait: the rest find the queue full
        worker.handle_error(None, None, (ADDRESS, 5000), ValueError("a head gunicorn cannot read"))
    assert not pacing.open_to(ADDRESS) and pacing.open_to("10.9.9.9")


def test_an_answer_that_timed_out_on_a_peer_that_did_not_read_is_not_logged():
    def record(exc):
        return logging.LogRecord(
            "gunicorn.error", logging.ERROR, "", 0, "Socket error", (), (type(exc), exc, None)
        )

    assert not door.no_write_timeouts(record(TimeoutError("timed out")))
    assert door.no_write_timeouts(record(OSError("another")))


def test_the_workers_hook_puts_the_door_up_and_keeps_the_collectors_full_passes_short(monkeypatch):
    hooks = runpy.run_path(str(Path(door.__file__).parents[1] / "gunicorn.conf.py"))
    installed = []
    monkeypatch.setattr(door, "install", installed.append)
    monkeypatch.setattr(gevent.config, "track_greenlet_tree", True)
    loaded = [[]]  # a thing the app holds from its start, walked by every full pass until frozen
    assert any(thing is loaded for thing in gc.get_objects())
    worker = SimpleNamespace(wsgi=SimpleNamespace(extensions={}))  # an app without a guard: no heap watch
    try:
        hooks["post_worker_init"](worker)
        assert installed == [worker]
        assert gc.get_freeze_count() > 0 and not any(thing is loaded for thing in gc.get_objects())
        # A greenlet spawned from now on keeps no frames of the stack it was spawned from.
        assert gevent.spawn(lambda: None).spawning_stack is None
    finally:
        gc.unfreeze()


def test_a_head_over_64_kb_is_left_to_gunicorn_unread_though_the_guard_would_refuse_it(guard):
    data = head(WEBSOCKET, *(f"X-Padding-{n}: {'x' * 8000}" for n in range(9)))
    assert len(data) > door.HEAD_BYTES
    with connected() as ends:
        refused, left = at_the_door(guard, ends, data)
    assert not refused and left[: len(data) // 2] == data[: len(data) // 2], "refused, or read"
    assert guard_status(guard, data).startswith("429"), "the guard refuses it, once gunicorn has read it"
