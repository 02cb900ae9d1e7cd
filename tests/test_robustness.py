"""Bad input over a real socket: cross-origin pages, floods, and thousands of malformed messages."""

import itertools
import json
import random
import threading

import pytest
import websocket

from server import create_app
from server.class_events import classes
from server.engine.graph import knight_graph
from server.limits import limits
from server.engine.search import knight_tour
from server.wire import encode

from .conftest import LiveServer, Watcher, wait_for

GOOD = {"rows": 6, "cols": 6, "start": 0, "order": "naive", "speed": 0}
EVENTS = [
    "start",
    "pause",
    "resume",
    "step",
    "speed",
    "skip",
    "stop",
    "class_open",
    "class_join",
    "class_leave",
    "class_claim",
    "class_end",
    "teleport",
    "",
    "connect",
    "disconnect",
]


def websocket_url(url):
    return url.replace("http", "ws") + "/socket.io/?EIO=4&transport=websocket"


@pytest.mark.parametrize("origin, allowed", [("http://elsewhere.example", False), (None, True)])
def test_cross_origin_pages_are_refused_unless_allowed(origin, allowed):
    server = LiveServer(create_app({"TESTING": True}))
    own = server.url
    try:
        for page_origin, expected in [(origin or own, allowed), ("http://elsewhere.example", False)]:
            if expected:
                websocket.create_connection(websocket_url(server.url), origin=page_origin, timeout=5).close()
            else:
                with pytest.raises(websocket.WebSocketBadStatusException):
                    websocket.create_connection(websocket_url(server.url), origin=page_origin, timeout=5)
    finally:
        server.close()


def test_an_operator_can_allow_another_origin():
    server = LiveServer(create_app({"TESTING": True, "CORS_ORIGINS": ["http://school.example"]}))
    try:
        websocket.create_connection(
            websocket_url(server.url), origin="http://school.example", timeout=5
        ).close()
        with pytest.raises(websocket.WebSocketBadStatusException):
            websocket.create_connection(
                websocket_url(server.url), origin="http://elsewhere.example", timeout=5
            )
    finally:
        server.close()


def nonsense(rng, depth=0):
    """Return a random JSON value, sometimes deep, sometimes long."""
    kind = rng.randrange(9 if depth < 3 else 6)
    return [
        lambda: None,
        lambda: rng.choice([True, False]),
        lambda: rng.randint(-(10**12), 10**12),
        # Long strings only at the top, so that no message outgrows what the transport takes.
        lambda: rng.uniform(-1e9, 1e9),
        lambda: "x" * rng.choice([0, 5, 300, 20_000 if not depth else 30]),
        lambda: rng.choice(["naive", "warnsdorff", "A", "", "📌", "\x00"]),
        lambda: [nonsense(rng, depth + 1) for _ in range(rng.randrange(5))],
        lambda: {
            rng.choice(list(GOOD) + ["code", "token", "paused", "seed"]): nonsense(rng, depth + 1)
            for _ in range(rng.randrange(6))
        },
        lambda: {**GOOD, rng.choice(list(GOOD)): nonsense(rng, depth + 1)},
    ][kind]()


class RawClient:
    """A bare Socket.IO connection, speaking the wire protocol by hand."""

    def __init__(self, url):
        self.ws = websocket.create_connection(websocket_url(url), timeout=5)
        assert self.ws.recv().startswith("0")
        self.ws.send("40")
        assert self.ws.recv().startswith("40")
        self.acks = {}
        self.reader = threading.Thread(target=self.read, daemon=True)
        self.reader.start()

    def read(self):
        while True:
            try:
                data = self.ws.recv()
            except Exception:
                return
            if data == "2":
                self.ws.send("3")
            elif data.startswith("43"):
                ack_id = int(data[2 : data.index("[")])
                self.acks[ack_id] = json.loads(data[data.index("[") :])
            elif data.startswith("42") and data[2:3].isdigit():
                self.ws.send(f"43{data[2 : data.index('[')]}[]")  # acknowledge the server's batches

    def send(self, text):
        """Send a frame; return False if the server has closed this connection."""
        try:
            self.ws.send(text)
            return True
        except (OSError, websocket.WebSocketConnectionClosedException):
            return False

    def close(self):
        self.ws.close(timeout=0)  # not waiting for the server's half of the close handshake


def test_thousands_of_malformed_messages_change_nothing_for_a_good_client():
    app = create_app(
        {
            "TESTING": True,
            "RATE_LIMIT": 10_000,
            "RATE_BURST": 10_000,
            "PING_INTERVAL": 1,
            "CLASS_ORPHAN_SECONDS": 0.5,
            "CLASS_REAP_SECONDS": 0.2,
        }
    )
    server = LiveServer(app)
    rng = random.Random(20261121)
    before = threading.active_count()
    good = Watcher(server.url)
    good.call("start", GOOD)  # 367,235 events, streamed while the fuzzing goes on
    fuzzers = [RawClient(server.url) for _ in range(3)]
    asked = {id(f): [] for f in fuzzers}
    for n in range(3000):
        fuzzer = rng.choice(fuzzers)
        args = [rng.choice(EVENTS)] + [nonsense(rng) for _ in range(rng.randrange(3))]
        fuzzer.send(f"42{n}{json.dumps(args)}")
        if args[0] != "connect":  # a name Socket.IO keeps for itself: ignored, unanswered
            asked[id(fuzzer)].append((n, args[0]))
    # Every message got an answer: ok, or refused with a reason.
    for fuzzer in fuzzers:
        assert fuzzer.reader.is_alive(), "well-formed packets never cost a client its connection"
        assert wait_for(lambda: all(n in fuzzer.acks for n, _ in asked[id(fuzzer)]), 30), "unanswered"
        for n, event in asked[id(fuzzer)]:
            if event == "disconnect":  # handled as the client's leaving: answered with nothing
                assert fuzzer.acks[n] == []
                continue
            (answer,) = fuzzer.acks[n]
            assert answer["ok"] is True or answer["error"], answer
    closed = []
    assert good.finished.wait(60)
    assert good.events == encode(list(knight_tour(knight_graph(6, 6), 0)))
    assert good.errors == []
    for fuzzer in fuzzers + closed:
        fuzzer.close()
    good.close()
    # Nothing is left behind: no run, class, limit bucket or thread.
    assert wait_for(lambda: len(server.app.extensions["knights_tour_runs"]) == 0, 10)
    assert wait_for(lambda: len(classes(app)) == 0, 10)
    assert wait_for(lambda: len(limits(app)) == 0, 10)
    assert wait_for(lambda: threading.active_count() <= before + 1, 15), threading.enumerate()
    server.close()


# python-socketio ends the thread of a connection whose packet is not JSON (closing just that
# connection); pytest reports each such thread's exception, which is expected here.
@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")
def test_garbage_frames_close_only_their_own_connection():
    server = LiveServer(create_app({"TESTING": True}))
    good = Watcher(server.url)
    good.call("start", {**GOOD, "speed": 500})
    for frame in ["42[", "4", "99", "42{}", "42[1,2]", '42["start"', "\x00", "43[]", "2probe"] * 3:
        garbage = RawClient(server.url)
        garbage.send(frame)
        wait_for(lambda: not garbage.reader.is_alive(), timeout=0.05)
        garbage.close()
    assert good.call("pause") == {"ok": True}
    held = len(good.events)
    assert held > 0 and good.errors == []
    expected = encode(list(itertools.islice(knight_tour(knight_graph(6, 6), 0), held)))
    assert good.events == expected
    good.close()
    server.close()


def test_a_message_too_big_for_the_transport_closes_only_that_connection():
    server = LiveServer(create_app({"TESTING": True}))
    good = Watcher(server.url)
    huge = RawClient(server.url)
    huge.send("42" + json.dumps(["start", {"rows": "9" * 200_000}]))
    assert wait_for(lambda: not huge.reader.is_alive(), 10), "the server closes an oversized connection"
    assert good.call("start", {**GOOD, "rows": 5, "cols": 5})["ok"] is True
    assert good.finished.wait(20) and good.result["visits"] == 5010
    good.close()
    server.close()


def test_a_flooding_client_does_not_slow_a_good_one():
    server = LiveServer(create_app({"TESTING": True}))
    flooder = RawClient(server.url)
    good = Watcher(server.url)
    good.call("start", {**GOOD, "speed": 200})
    stop = threading.Event()

    def flood():
        n = 0
        while not stop.is_set() and n < 50_000:
            flooder.send(f"42{n}" + json.dumps(["pause"]))
            n += 1

    thread = threading.Thread(target=flood)
    thread.start()
    wait_for(lambda: False, timeout=2.0)
    stop.set()
    thread.join()
    received = len(good.events)
    assert 200 <= received <= 2 * 200 * 2.5  # kept its pace of 200 a second through the flood
    too_many = [a for a in flooder.acks.values() if "too many requests" in a[0].get("error", "")]
    assert len(too_many) > 100, "the flood beyond the limit was refused"
    flooder.close()
    good.close()
    server.close()
