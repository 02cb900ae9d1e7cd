"""The production server against hostile clients: its worker watched from a test's start to its
end, and a well-behaved client streaming meanwhile, checked event for event against the engine."""

import re
import time

import requests

from server.edge.badges import COOKIE
from server.engine.graph import knight_graph
from server.engine.search import knight_tour
from server.wire import encode
from tests.support.clients import RawClient
from tests.support.process import MB
from tests.support.waiting import wait_for

GOOD = {"rows": 6, "cols": 6, "start": 0, "order": "naive", "speed": 0}
ENGINE = encode(list(knight_tour(knight_graph(6, 6), 0)))  # 367,235 events
PACE = 5000  # events a second of the good client's run while a hostile one does its worst
# Seconds, the shared server's: a silent client goes soon. The timeout is what a good client's
# answer to a ping may take to be read: a worker busy for a second or more with a hostile burst,
# on a loaded machine, reads it late (and the good client, in a test process busy reading a
# flood, sends it late): with 1 s, and with 4 s beside three other workers and a busy core, it
# dropped the good client (production: 20 s).
PING_INTERVAL, PING_TIMEOUT = 0.5, 10.0
RSS_SLACK = 15 * MB  # what the worker's memory may grow by in a test (allocator noise)
TOO_MANY = "disconnected for sending too many requests"


def warm_up(server):
    """Serve one client a whole run, so that what the worker allocates once is allocated."""
    good = RawClient(server.url)
    try:
        good.emit(1, "start", GOOD)
        assert wait_for(lambda: good.events("finished"), 30), "the warm-up run did not finish"
    finally:
        good.close()
    assert wait_for(lambda: server.worker.sockets() == 1, 10), "the warm-up connection stayed open"


class Watch:
    """The worker of a server at a test's start, to compare it with once the test's clients have gone."""

    def __init__(self, server):
        self.server, self.worker = server, server.worker
        assert wait_for(lambda: self.worker.sockets() == 1, 10), (
            f"the worker has connections open before the test: {self.worker.connections()}"
        )
        self.before = self.worker.usage()
        self.log_from = len(server.log())

    def settled(self):
        """Wait until the worker holds no more than before (RSS within RSS_SLACK); return its usage."""
        back = wait_for(lambda: self.worker.usage().within(self.before, RSS_SLACK), 15)
        after = self.worker.usage()
        print(f"\n  worker before: {self.before}\n  worker after:  {after}")
        assert back, f"the worker did not come back: before {self.before}, after {after}"
        assert self.worker.running(), "the worker was replaced: it crashed or hung"
        log = self.server.log()[self.log_from :]
        assert "Traceback" not in log, f"the server logged an error:\n{log}"
        return after


class Streaming:
    """A well-behaved client running a paced 6x6 run while a test goes on."""

    def __init__(self, client, speed=PACE):
        self.client = client
        assert client.call("start", {**GOOD, "speed": speed})["ok"] is True

    def goes_on(self, events=200, timeout=60):
        """Wait until at least events more events have arrived.

        A stall, not a pace: the run's 5,000 a second bring 200 in 0.04 s on a quiet machine, and
        the test asserts only that they come, however busy the machine is (bench/hostile.py
        measures the pace beside a flood)."""
        mark = self.client.count()
        went_on = wait_for(lambda: self.client.count() >= mark + events, timeout)
        last = [event for event, _ in self.client.received()[-3:]]
        assert went_on, (
            f"the good run stalled at {self.client.count():,} events "
            f"(connected: {self.client.sio.connected}; last received: {last})"
        )

    def check(self):
        """Pause the run; what arrived is exactly the engine's first events, with no error."""
        assert self.client.call("pause") == {"ok": True}
        events = self.client.events
        assert len(events) > 0 and self.client.errors == []
        assert events == ENGINE[: len(events)]
        self.client.close()
        return len(events)


def finished(good, watch):
    """Check that the good run went on exactly and the worker came back; return both figures."""
    good.goes_on()
    events = good.check()
    return events, watch.settled()


def gone(worker, address, timeout):
    """Wait until the worker holds no connection from address; return how long that took."""
    start = time.monotonic()
    assert wait_for(lambda: address not in worker.peers(), timeout), f"{address} is still connected"
    return time.monotonic() - start


def lifetimes(worker, wires, timeout):
    """Wait until the worker holds none of wires {name: Wire}; return {name: seconds each was open}."""
    gone_at = {}

    def all_gone():
        peers = worker.peers()
        for name, wire in wires.items():
            if name not in gone_at and wire.address not in peers:
                gone_at[name] = time.monotonic()
        return len(gone_at) == len(wires)

    assert wait_for(all_gone, timeout), f"still connected: {set(wires) - set(gone_at)}"
    return {name: gone_at[name] - wire.opened_at for name, wire in wires.items()}


def a_badge(server):
    """Load the page as a browser does; return the badge it gives the browser."""
    badge = requests.get(server.url + "/", timeout=5).cookies.get(COOKIE)
    assert badge, "the page gave the browser no badge"
    return badge


def carrying(badge):
    """Return the header lines of a WebSocket handshake from a page with badge."""
    return [f"Cookie: {COOKIE}={badge}"]


def instructor(server):
    """Return an HTTP session given the instructor key, which the server printed, in its form."""
    printed = re.search(r"Instructors: .* open (\S+)/instructor once and enter the key (\S+)", server.log())
    assert printed, f"the server printed no instructor's key:\n{server.log()}"
    session = requests.Session()
    assert session.post(server.url + "/instructor", data={"key": printed[2]}, timeout=5).ok
    return session
