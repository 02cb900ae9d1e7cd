"""The wire format: events encoded compactly, and bad values quoted briefly in errors."""

import math

import pytest

from server.engine.graph import knight_graph
from server.engine.search import knight_tour
from server.wire import MAX_SPEED, MIN_SPEED, SPEED_STEPS, encode, parse_speed, parse_start
from tests.support.clients import sent_to
from tests.support.replies import refused
from tests.support.waiting import wait_for

GOOD = {"rows": 5, "cols": 5, "start": 0, "order": "naive", "speed": 0}


def test_encoding_is_compact_and_reversible():
    events = list(knight_tour(knight_graph(3, 4), 0))
    codes = encode(events)
    assert codes[:2] == [0, 6] and codes[-1] == "found"
    assert all(isinstance(c, int) for c in codes[:-1])
    assert encode([("backtrack", 0, 0), ("backtrack", 11, 3)]) == [-1, -12]


def test_a_long_bad_value_is_quoted_briefly(client):
    answer = client.emit("start", {**GOOD, "rows": "9" * 10_000}, callback=True)
    assert answer["ok"] is False and answer["error"].startswith("rows must be a whole number")
    assert len(answer["error"]) < 200


@pytest.mark.parametrize("speed", [0, 0.0, MIN_SPEED, 0.5, *SPEED_STEPS, MAX_SPEED])
def test_speeds_from_the_minimum_to_the_maximum_and_zero_are_taken(speed):
    assert parse_speed({"speed": speed}) == speed
    assert parse_start({**GOOD, "speed": speed}).speed == speed


@pytest.mark.parametrize(
    "speed", [1e-10, 5e-324, 0.09, -0.1, -1, MAX_SPEED + 1, 10**400, math.inf, -math.inf, math.nan, True, "1"]
)
def test_speeds_too_slow_too_fast_or_not_finite_are_refused(speed):
    message = (
        r"speed must be a number of events per second from 0\.1 to 1000000, or 0 \(fastest\), not .{1,45}"
    )
    with pytest.raises(ValueError, match=message):
        parse_speed({"speed": speed})
    with pytest.raises(ValueError, match=message):
        parse_start({**GOOD, "speed": speed})


def test_the_minimum_speed_is_below_the_sliders_slowest_step():
    assert 0 < MIN_SPEED <= min(step for step in SPEED_STEPS if step)


@pytest.mark.parametrize("event", ["start", "speed"])
def test_a_speed_too_slow_is_refused_over_the_wire_and_the_run_goes_on(client, event):
    assert client.emit("start", {**GOOD, "speed": 1, "paused": True}, callback=True)["ok"] is True
    payload = {**GOOD, "speed": 1e-10} if event == "start" else {"speed": 1e-10}
    answer = client.emit(event, payload, callback=True)
    assert answer == refused("request.invalid", sent_to(client, "error")[-1]["message"])
    assert answer["error"].startswith("speed must be a number of events per second from 0.1")
    # At the slowest speed the run's player is alive, and steps on request.
    assert client.emit("speed", {"speed": MIN_SPEED}, callback=True) == {"ok": True}
    assert client.emit("step", callback=True) == {"ok": True}
    assert wait_for(lambda: sent_to(client, "events"))
    assert [batch["events"] for batch in sent_to(client, "events")] == [[0]]
    assert client.emit("stop", callback=True) == {"ok": True}
