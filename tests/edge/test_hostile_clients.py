"""Hostile clients over a real socket: cross-origin pages and thousands of malformed messages."""

import itertools
import json
import random

import pytest
import websocket

from server.classes.registry import classes
from server.edge import app_limits as limits
from server.engine.graph import knight_graph
from server.engine.search import knight_tour
from server.wire import encode
from tests.support.leaks import threads, threads_since
from tests.support.waiting import wait_for

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


@pytest.mark.parametrize("origin, allowed", [("http://elsewhere.example", False), (None, True)])
def test_cross_origin_pages_are_refused_unless_allowed(live_server, raw, origin, allowed):
    for page_origin, expected in [(origin or live_server.url, allowed), ("http://elsewhere.example", False)]:
        if expected:
            assert raw(live_server.url, origin=page_origin).alive
        else:
            with pytest.raises(websocket.WebSocketBadStatusException):
                raw(live_server.url, origin=page_origin)


def test_an_operator_can_allow_another_origin(serve, raw):
    server = serve({"CORS_ORIGINS": ["http://school.example"]})
    assert raw(server.url, origin="http://school.example").alive
    with pytest.raises(websocket.WebSocketBadStatusException):
        raw(server.url, origin="http://elsewhere.example")


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


def test_thousands_of_malformed_messages_change_nothing_for_a_good_client(serve, connect, raw):
    server = serve(
        {"RATE_LIMIT": 10_000, "RATE_BURST": 10_000, "CLASS_ORPHAN_SECONDS": 0.5, "CLASS_REAP_SECONDS": 0.2}
    )
    rng = random.Random(20261121)
    before = threads()
    good = connect(server.url)
    good.call("start", GOOD)  # 367,235 events, streamed while the fuzzing goes on
    fuzzers = [raw(server.url) for _ in range(3)]
    asked = {fuzzer: [] for fuzzer in fuzzers}
    for n in range(3000):
        fuzzer = rng.choice(fuzzers)
        args = [rng.choice(EVENTS)] + [nonsense(rng) for _ in range(rng.randrange(3))]
        fuzzer.send(f"42{n}{json.dumps(args)}")
        asked[fuzzer].append((n, args[0]))
    # Every message got an answer: ok, or refused with a reason.
    for fuzzer, requests in asked.items():
        assert fuzzer.alive, "well-formed packets never cost a client its connection"
        assert wait_for(lambda f=fuzzer, r=requests: all(n in f.answers() for n, _ in r), 30), "unanswered"
        answers = fuzzer.answers()
        for n, event in requests:
            (answer,) = answers[n]
            if event in ("connect", "disconnect"):  # the server's own names: never a request
                assert answer["ok"] is False, answer
            assert answer["ok"] is True or answer["error"], answer
    assert good.finished.wait(60)
    assert good.events == encode(list(knight_tour(knight_graph(6, 6), 0)))
    assert good.errors == []
    for fuzzer in fuzzers:
        fuzzer.close()
    good.close()
    # Nothing is left behind: no run, class, limit bucket or thread.
    assert wait_for(lambda: server.active_runs() == 0, 10)
    assert wait_for(lambda: len(classes(server.app)) == 0, 10)
    assert wait_for(lambda: len(limits(server.app)) == 0, 10)
    # Engine.IO's service thread, started by the server's first connection, stays until it closes.
    assert wait_for(lambda: len(threads_since(before)) <= 1, 15), threads_since(before)


def test_garbage_frames_close_only_their_own_connection(live_server, connect, raw):
    good = connect(live_server.url)
    good.call("start", {**GOOD, "speed": 500})
    for frame in ["42[", "4", "99", "42{}", "42[1,2]", '42["start"', "\x00", "43[]", "2probe"] * 3:
        garbage = raw(live_server.url)
        garbage.send(frame)
        # The server has dealt with the frame once it answers the request after it, or hangs up.
        garbage.emit(1, "stop")
        assert wait_for(lambda g=garbage: not g.alive or 1 in g.answers())
        garbage.close()
    assert good.call("pause") == {"ok": True}
    events = good.events
    assert len(events) > 0 and good.errors == []
    assert events == encode(list(itertools.islice(knight_tour(knight_graph(6, 6), 0), len(events))))
