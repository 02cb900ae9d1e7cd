"""Connections that never become pages: silent or slow sockets, stalled WebSockets, long polling, a
flood of handshakes, an oversized body, a large file never read; each let go, the worker back where it was."""

import json
import re
import socket
import time

from server.__main__ import KEEPALIVE
from server.edge.guard import HANDSHAKE_BURST, WRITE_TIMEOUT
from server.runs.player import FIRST_BATCH, WINDOW
from tests.support.hostile import (
    GOOD,
    PING_INTERVAL,
    PING_TIMEOUT,
    Streaming,
    Watch,
    a_badge,
    carrying,
    finished,
    gone,
    lifetimes,
)
from tests.support.waiting import wait_for
from tests.support.wire import POLLING, Wire, answers, closed_after, http_status, tcp


def test_a_connection_that_sends_no_request_is_closed_within_the_keep_alive(site, connect, opened):
    watch = Watch(site)
    good = Streaming(connect(site.url))
    start = time.monotonic()
    silent = [opened(tcp(site.port)) for _ in range(20)]
    half = opened(tcp(site.port))
    half.sendall(b"GET /socket.io/?EIO=4&transport=websocket HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    trickler = opened(tcp(site.port))  # a slow loris: a byte of headers every half second
    trickler.sendall(b"GET / HTTP/1.1\r\nX-Slow: ")
    everyone = [*silent, half, trickler]
    assert wait_for(lambda: site.worker.sockets() == 2 + len(everyone)), "the worker took the connections"
    closed = closed_after(everyone, KEEPALIVE + 5, start, trickle=[trickler])
    events, _ = finished(good, watch)
    times = sorted(closed.values())
    print(f"  {len(everyone)} connections closed after {times[0]:.2f} to {times[-1]:.2f} s,")
    print(f"  the slow loris after {closed.get(trickler, float('nan')):.2f} s (keep-alive {KEEPALIVE} s)")
    print(f"  the good client got {events:,} exact events meanwhile")
    assert len(closed) == len(everyone), "a connection that sent no whole request is still open"
    assert KEEPALIVE - 0.5 <= times[0] and times[-1] <= KEEPALIVE + 1.5


def test_a_silent_or_stalled_websocket_is_closed_within_ping_interval_plus_timeout(site, connect, opened):
    watch = Watch(site)
    good = Streaming(connect(site.url))
    # Each reads nothing more after its handshake and sends nothing more after what is listed.
    silent = opened(Wire(site.port))  # Engine.IO's open, never answered
    connected = opened(Wire(site.port))
    connected.send_text("40")  # a Socket.IO session
    stalled = opened(Wire(site.port))
    stalled.send_text("40")
    stalled.send_text(
        '421["start",' + json.dumps({**GOOD, "rows": 8, "cols": 8}) + "]"
    )  # a run it never reads
    wires = {"silent": silent, "connected": connected, "stalled": stalled}
    took = lifetimes(site.worker, wires, PING_INTERVAL + PING_TIMEOUT + 5)
    # The server closed them: each reads what was sent to it, then the end of the connection.
    for wire in wires.values():
        wire.rest()
    events, _ = finished(good, watch)
    print("  closed after " + ", ".join(f"{name} {seconds:.2f} s" for name, seconds in took.items()))
    print(f"  the good client got {events:,} exact events meanwhile")
    limit = PING_INTERVAL + PING_TIMEOUT
    assert all(limit - 0.1 <= seconds <= limit + 1.0 for seconds in took.values()), took
    batches = [text for text in stalled.seen if re.match(r'42\d+\["events"', text)]
    assert len(batches) == WINDOW, "the stalled client was sent the batches it may leave unacknowledged"
    sizes = [len(json.loads(text[text.index("[") :])[1]["events"]) for text in batches]
    assert sizes == [FIRST_BATCH] * WINDOW, "a client that never acknowledged holds the first small batches"


def test_long_polling_is_refused_at_once_and_a_burst_of_it_leaves_nothing(site, connect, opened):
    watch = Watch(site)
    good = Streaming(connect(site.url))
    # From an address of its own: its handshakes (a polling request counts as one) are its own.
    source = "127.0.0.3"
    one = opened(tcp(site.port, source))
    one.sendall(POLLING)
    (first,) = answers([one], 5).values()
    status, seconds = first.status, first.seconds
    assert status == 400 and seconds < 1
    one.close()
    burst = []
    for _ in range(2000):
        sock = opened(tcp(site.port, source))
        sock.sendall(POLLING)
        burst.append(sock)
    got = answers(burst, 15)
    for sock in burst:
        sock.close()
    statuses = [answer.status for answer in got.values()]
    slowest = max(answer.seconds for answer in got.values())
    gone_after = time.monotonic()
    assert wait_for(lambda: site.worker.sockets() == 2, 10), "the worker still holds polling connections"
    gone_after = time.monotonic() - gone_after
    events, _ = finished(good, watch)
    counts = {status: statuses.count(status) for status in set(statuses)}
    print(f"  a polling request: {status} after {seconds * 1000:.0f} ms; a burst of {len(burst)}: {counts},")
    print(f"  the last answered {slowest:.2f} s after the burst was sent, all gone {gone_after:.2f} s after")
    print(f"  the good client got {events:,} exact events meanwhile")
    assert len(got) == len(burst), "some polling requests were not answered"
    # Refused as a transport not offered, or, past the address's burst of handshakes, as too many.
    assert set(statuses) <= {400, 429} and statuses.count(400) >= 500


def test_a_flood_of_handshakes_is_refused_at_the_door_and_leaves_its_address_open_to_pages(site, opened):
    # Behind a school's NAT: a script opens connections flat out, far past the address's burst.
    source = "127.0.0.6"
    badge, flood = a_badge(site), []
    for _ in range(3 * HANDSHAKE_BURST):
        sock = opened(tcp(site.port, source))
        sock.sendall(POLLING)  # a handshake like any other to the address's bucket
        flood.append(sock)
    # A student's page, with its badge, connects while the flood's handshakes are refused.
    page = opened(Wire(site.port, source=source, headers=carrying(badge)))
    got = answers(flood, 15).values()
    assert len(got) == len(flood), "some handshakes of the flood were not answered"
    for sock in flood:
        sock.close()
    statuses = [answer.status for answer in got]
    assert statuses.count(429) >= HANDSHAKE_BURST, "the flood went past the address's burst"
    assert page.status == 101, "a page with its badge was refused during the flood"
    # Most were refused at the worker's door, before gunicorn read them (server/edge/door.py):
    # gunicorn names itself in every answer it writes, the door's canned answer does not.
    refused = [answer.head for answer in got if answer.status == 429]
    at_the_door = [head for head in refused if b"\r\nServer:" not in head]
    through_gunicorn = [answer.head for answer in got if answer.status == 400]
    assert through_gunicorn and all(b"\r\nServer: gunicorn" in head for head in through_gunicorn)
    assert len(at_the_door) > len(refused) / 2, f"{len(at_the_door)} of {len(refused)} refused at the door"
    # Its refused handshakes cost the address nothing: a page from there gets in as soon as one
    # token has come back (1 / HANDSHAKE_RATE: the flood's accepted handshakes took each token
    # as it came), where a refused handshake's cost once locked the address for 20 s. A page
    # tries again when refused; so does this one, sooner.
    ended, tried = time.monotonic(), []

    def gets_in():
        tried.append(opened(Wire(site.port, source=source)).status)
        return tried[-1] == 101

    got_in = wait_for(gets_in, 1, interval=0.005)
    waited = time.monotonic() - ended
    assert got_in, f"a page was refused for 1 s after the flood: {tried}"
    print(f"  {len(refused)} of {len(statuses)} refused, {len(at_the_door)} at the door;")
    print(f"  a page with its badge got in meanwhile, one without {waited * 1000:.0f} ms after")


def test_an_oversized_body_is_refused_at_once_and_its_connection_closed(site, connect, opened):
    watch = Watch(site)
    good = Streaming(connect(site.url))
    requests = {
        "polling": b"POST /socket.io/?EIO=4&transport=polling&sid=x HTTP/1.1\r\n",
        "page": b"POST / HTTP/1.1\r\n",
    }
    took = {}
    for name, line in requests.items():
        sock = opened(tcp(site.port))
        start = time.monotonic()
        # 10 MB announced; not a byte of it sent.
        sock.sendall(line + b"Host: 127.0.0.1\r\nContent-Length: 10485760\r\n\r\n")
        sock.settimeout(KEEPALIVE + 2)
        response = b""
        while chunk := sock.recv(4096):
            response += chunk
            took.setdefault(name, time.monotonic() - start)
        closed = time.monotonic() - start
        assert http_status(response) == 413, response
        assert b"requests carry at most 65,536 bytes" in response
        assert closed < 1, f"the connection was closed {closed:.1f} s after the refusal, not at once"
        took[name] = (took[name], closed)
        sock.close()
    assert wait_for(lambda: site.worker.sockets() == 2, 5)
    events, _ = finished(good, watch)
    for name, (answered, closed) in took.items():
        print(f"  {name}: 413 after {answered * 1000:.1f} ms, closed after {closed * 1000:.1f} ms")
    print(f"  the good client got {events:,} exact events meanwhile")


def test_a_connection_that_asks_for_a_large_file_over_and_over_and_reads_nothing_is_let_go(
    site, connect, opened
):
    watch = Watch(site)
    good = Streaming(connect(site.url))
    # Eight requests for the page's largest file at once on one connection, never read: the
    # answers fill the socket's buffers, and the worker's write waits for a reader.
    sock = opened(tcp(site.port, "127.0.0.10"))
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.sendall(b"GET /vendor/mediabunny/mediabunny.min.mjs HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" * 8)
    address = sock.getsockname()
    assert wait_for(lambda: address in site.worker.peers(), 5), "the connection never reached the worker"
    took = gone(site.worker, address, WRITE_TIMEOUT + 15)
    events, _ = finished(good, watch)
    assert "Traceback" not in "".join(site.log()[watch.log_from :]), "the timed-out write was logged"
    print(f"  let go {took:.1f} s after it stopped reading (at most {WRITE_TIMEOUT} s a write);")
    print(f"  the good client got {events:,} events meanwhile")
