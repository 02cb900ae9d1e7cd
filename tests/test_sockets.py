"""The Socket.IO protocol through the Flask-SocketIO test client: requests, answers, errors."""

import re

import pytest

from server.engine.graph import knight_graph
from server.player import WINDOW
from server.engine.search import knight_tour
from server.wire import encode

from .conftest import wait_for

GOOD = {"rows": 5, "cols": 5, "start": 0, "order": "naive", "speed": 0}


def received(client, name):
    return [packet["args"][0] for packet in client.get_received() if packet["name"] == name]


def test_page_is_served_with_its_controls(app):
    page = app.test_client().get("/")
    assert page.status_code == 200
    for label in (b'for="rows"', b'for="cols"', b'for="order"', b'for="speed"', b'role="status"'):
        assert label in page.data


def test_socket_io_client_is_served_locally(app):
    response = app.test_client().get("/vendor/socket.io/socket.io.esm.min.js")
    assert response.status_code == 200
    assert b"io" in response.data and len(response.data) > 10_000


def test_start_is_acknowledged_and_announced_then_streams(client):
    answer = client.emit("start", GOOD, callback=True)
    assert answer["ok"] is True and answer["run"] >= 1
    packets = []
    assert wait_for(
        lambda: (
            packets.extend(client.get_received())
            or [p["name"] for p in packets] == ["started"] + ["events"] * WINDOW
        )
    )
    assert packets[0]["args"][0] == {
        "run": answer["run"],
        **GOOD,
        "paused": False,
        "closed": False,
        "all_tours": False,
        "seed": 0,
        "budget": None,
        "graph": "knight",
    }
    batches = [p["args"][0] for p in packets[1:]]
    expected = encode(list(knight_tour(knight_graph(5, 5), 0)))
    sent = [code for batch in batches for code in batch["events"]]
    assert sent == expected[: len(sent)]
    assert all(batch["run"] == answer["run"] for batch in batches)


def test_a_client_that_never_acknowledges_gets_no_more_than_the_window(client):
    client.emit("start", {**GOOD, "rows": 6, "cols": 6}, callback=True)
    batches = []
    assert wait_for(lambda: batches.extend(received(client, "events")) or len(batches) >= WINDOW)
    assert not wait_for(
        lambda: batches.extend(received(client, "events")) or len(batches) > WINDOW, timeout=0.5
    )


def test_encoding_is_compact_and_reversible():
    events = list(knight_tour(knight_graph(3, 4), 0))
    codes = encode(events)
    assert codes[:2] == [0, 6] and codes[-1] == "found"
    assert all(isinstance(c, int) for c in codes[:-1])
    assert encode([("backtrack", 0, 0), ("backtrack", 11, 3)]) == [-1, -12]


BAD_STARTS = [
    (None, "needs an object"),
    ([5, 5, 0], "needs an object"),
    ({k: v for k, v in GOOD.items() if k != "rows"}, "missing rows"),
    ({k: v for k, v in GOOD.items() if k not in ("order", "speed")}, "missing order, speed"),
    ({**GOOD, "rows": "5"}, "rows must be a whole number from 1 to 32, not '5'"),
    ({**GOOD, "cols": 5.5}, "cols must be a whole number from 1 to 32, not 5.5"),
    ({**GOOD, "rows": 0}, "rows must be a whole number from 1 to 32, not 0"),
    ({**GOOD, "rows": 10**9}, "rows must be a whole number from 1 to 32, not 1000000000"),
    ({**GOOD, "rows": True}, "rows must be a whole number"),
    ({**GOOD, "start": 25}, "start square 25 is off the 5x5 board"),
    ({**GOOD, "start": -1}, "start square -1 is off"),
    ({**GOOD, "start": None}, "start square None is off"),
    ({**GOOD, "order": "alphabetical"}, "unknown order 'alphabetical'"),
    ({**GOOD, "speed": "fast"}, "speed must be a number"),
    ({**GOOD, "speed": -3}, "speed must be a number"),
    ({**GOOD, "paused": "yes"}, "paused must be true or false"),
    ({**GOOD, "closed": "yes"}, "closed must be true or false, not 'yes'"),
    ({**GOOD, "all_tours": 1}, "all_tours must be true or false, not 1"),
    ({**GOOD, "seed": -1}, "seed must be a whole number from 0 to 4294967295, not -1"),
    ({**GOOD, "seed": "7"}, "seed must be a whole number"),
    ({**GOOD, "budget": 0}, "budget must be a whole number from 1 to 1000000000, not 0"),
    ({**GOOD, "budget": 2.5}, "budget must be a whole number"),
]


@pytest.mark.parametrize("payload, message", BAD_STARTS)
def test_bad_start_gets_an_error_and_changes_nothing(client, payload, message):
    client.emit("start", GOOD, callback=True)
    client.get_received()
    answer = client.emit("start", payload, callback=True)
    assert answer["ok"] is False and message in answer["error"]
    errors = received(client, "error")
    assert [e["message"] for e in errors] == [answer["error"]]
    # The run that was going on is still this client's: it can be paused.
    assert client.emit("pause", callback=True) == {"ok": True}


@pytest.mark.parametrize("event", ["pause", "resume", "step", "speed", "skip"])
def test_controls_without_a_run_are_refused(client, event):
    answer = client.emit(event, {"speed": 5}, callback=True)
    assert answer["ok"] is False and "send 'start' first" in answer["error"]


@pytest.mark.parametrize(
    "payload, message",
    [
        (None, "needs an object"),
        ({}, "missing speed"),
        ({"speed": "x"}, "speed must be"),
        ({"speed": 2e6}, "speed must be"),
    ],
)
def test_bad_speed_is_refused(client, payload, message):
    client.emit("start", GOOD, callback=True)
    answer = client.emit("speed", payload, callback=True)
    assert answer["ok"] is False and message in answer["error"]


def test_unknown_event_is_refused(client):
    answer = client.emit("teleport", {"to": 3}, callback=True)
    assert answer == {"ok": False, "error": "unknown event 'teleport'"}
    assert received(client, "error") == [{"message": "unknown event 'teleport'"}]


def test_controls_on_a_run_are_acknowledged(client):
    client.emit("start", {**GOOD, "speed": 5}, callback=True)
    for event, payload in [
        ("pause", None),
        ("step", None),
        ("speed", {"speed": 50}),
        ("resume", None),
        ("stop", None),
    ]:
        assert client.emit(event, payload, callback=True) == {"ok": True}, event
    assert client.emit("stop", callback=True) == {"ok": True}


def test_one_clients_error_does_not_reach_another(app):
    from server import socketio

    good, bad = socketio.test_client(app), socketio.test_client(app)
    good.emit("start", GOOD, callback=True)
    good.get_received()
    bad.emit("start", {"rows": "x"}, callback=True)
    assert received(good, "error") == []
    assert good.emit("pause", callback=True) == {"ok": True}
    good.disconnect()
    bad.disconnect()


def test_a_long_bad_value_is_quoted_briefly(client):
    answer = client.emit("start", {**GOOD, "rows": "9" * 10_000}, callback=True)
    assert answer["ok"] is False and answer["error"].startswith("rows must be a whole number")
    assert len(answer["error"]) < 200


def test_a_request_too_large_is_refused(client):
    answer = client.emit("start", {**GOOD, "rows": "9" * 100_000}, callback=True)
    assert answer["ok"] is False
    assert re.fullmatch(
        r"that request is too large \(100,\d{3} bytes; the limit is 16,384\)", answer["error"]
    )


def test_a_flood_of_requests_is_refused_beyond_the_rate(app):
    from server import socketio

    flooder, calm = socketio.test_client(app), socketio.test_client(app)
    answers = [flooder.emit("stop", callback=True) for _ in range(200)]
    refused = [a for a in answers if not a["ok"]]
    assert 100 < len(refused) < 200 and all("too many requests" in a["error"] for a in refused)
    assert calm.emit("stop", callback=True) == {"ok": True}  # the limit is the flooder's alone
    flooder.disconnect()
    calm.disconnect()
