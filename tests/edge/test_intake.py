"""Packets a client sends, checked before any handler: each bad one is answered, and only it."""

import itertools

import pytest

from server.engine.graph import knight_graph
from server.engine.search import knight_tour
from server.wire import encode
from tests.support.replies import refused
from tests.support.waiting import wait_for

GOOD = {"rows": 6, "cols": 6, "start": 0, "order": "naive", "speed": 500}
BIG = "1" * 120


@pytest.mark.parametrize(
    "frame, error, answered",
    [
        ("427[{}]", "a request is a list: the event's name, then its data", True),
        ("427[]", "a request is a list: the event's name, then its data", True),
        ('427["start",', "that request is not valid JSON: Expecting value: line 1 column 10 (char 9)", True),
        ('427["speed",{"speed":' + BIG + "}]", f"the number '{BIG[:17]}...{BIG[-18:]}' is too large", True),
        ('427["speed",{"speed":1e999}]', "the number '1e999' is too large", True),
        ('427["speed",NaN]', "NaN is not a number this server takes", True),
        ('427["disconnect"]', "unknown event 'disconnect'", True),
        ('427["connect"]', "unknown event 'connect'", True),
        ('427["teleport"]', "unknown event 'teleport'", True),
        ("4" + "2" + "9" * 16 + '["stop"]', "an acknowledgement id has at most 15 digits", False),
        ('451-["start",{"_placeholder":true,"num":0}]', "binary packets are not accepted", False),
        ('45999999-["start",{"_placeholder":true,"num":0}]', "binary packets are not accepted", False),
        ('4/admin,7["stop"]', "that is not a Socket.IO packet", False),
        ('42/admin,7["stop"]', "unknown namespace '/admin'; this server has only /", True),
        ("497[]", "unexpected packet of type 9", True),
        ("4hello", "that is not a Socket.IO packet", False),
        ("43999[]", "no call of the server's awaits acknowledgement 999", False),
    ],
)
def test_a_bad_packet_is_answered_and_changes_nothing(live_server, connect, raw, frame, error, answered):
    good = connect(live_server.url)
    good.call("start", GOOD)
    bad = raw(live_server.url)
    bad.send(frame)
    # The connection stays open and serves the next request; the server answers in order, so
    # by then its answer to the bad packet has come.
    assert bad.emit(8, "stop") and wait_for(lambda: 8 in bad.answers())
    assert [payload for _, payload, _ in bad.events("error")] == [
        {"code": "request.invalid", "message": error}
    ]
    answers = bad.answers()
    assert answers.pop(8) == [{"ok": True}] and bad.alive
    assert answers == ({7: [refused("request.invalid", error)]} if answered else {})
    assert wait_for(lambda: good.count() > 0)
    assert good.call("pause") == {"ok": True}
    events = good.events
    assert good.errors == []
    assert events == encode(list(itertools.islice(knight_tour(knight_graph(6, 6), 0), len(events))))


def test_disconnect_sent_as_an_event_does_not_refill_the_rate_limit(live_server, raw):
    flooder = raw(live_server.url)
    for n in range(200):
        flooder.emit(n, "disconnect" if n % 2 else "stop")
    assert wait_for(lambda: not flooder.alive, 10), "a flooder is disconnected, whatever it sends"
    errors = [payload["message"] for _, payload, _ in flooder.events("error")]
    assert errors[-1] == "disconnected for sending too many requests"
    assert "too many requests: at most 30 a second; wait a moment" in errors
