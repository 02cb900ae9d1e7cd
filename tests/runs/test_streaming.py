"""A run streamed over a real server to real Socket.IO clients over WebSocket."""

import math

import pytest

from server.engine.graph import knight_graph
from server.engine.search import knight_tour
from server.runs.player import FIRST_BATCH, GROWTH, MAX_BATCH, WINDOW
from server.runs.registry import runs
from server.wire import encode
from tests.support.replay import path_of
from tests.support.waiting import wait_for

GOOD = {"rows": 5, "cols": 5, "start": 0, "order": "naive", "speed": 0}


@pytest.fixture
def watcher(live_server, connect):
    """Return watcher(): a new RecordingClient of the live server."""
    return lambda: connect(live_server.url)


def caught_up(server, client):
    """Tell whether client has received every event its run's player has taken."""
    player = runs(server.app).get(client.sid)
    return player is not None and client.count() == player.snapshot()["events"]


def test_full_run_delivers_exactly_the_engines_events(watcher):
    client = watcher()
    answer = client.call("start", GOOD)
    assert answer["ok"] is True
    assert client.finished.wait(20)
    events = list(knight_tour(knight_graph(5, 5), 0))
    assert client.events == encode(events)
    result = client.result
    assert (result["found"], result["visits"], result["backtracks"]) == (True, 5010, 4985)
    assert result["path"] == path_of(events) and result["run"] == answer["run"]
    assert client.errors == []


def test_finished_reports_no_tour(watcher):
    client = watcher()
    client.call("start", {**GOOD, "rows": 3, "cols": 3})
    assert client.finished.wait(10)
    assert client.result["found"] is False and client.result["path"] == []
    assert client.events[-1] == -1  # the last event backtracks out of square 0


def test_pause_then_step_sends_exactly_the_next_event(watcher, live_server):
    client = watcher()
    client.call("start", {**GOOD, "speed": 50})
    assert wait_for(lambda: client.count() >= 3)
    assert client.call("pause") == {"ok": True}
    # A batch taken just before the pause may still be on its way.
    assert wait_for(lambda: caught_up(live_server, client))
    held = client.count()
    assert not wait_for(lambda: client.count() > held, timeout=0.5)
    expected = encode(list(knight_tour(knight_graph(5, 5), 0)))
    for _ in range(3):
        assert client.call("step") == {"ok": True}
        assert wait_for(lambda n=held + 1: client.count() == n)
        held += 1
        assert client.events == expected[:held]
    assert client.call("resume") == {"ok": True}
    assert wait_for(lambda: client.count() > held + 10)


def test_speed_paces_and_can_change(watcher):
    client = watcher()
    client.call("start", {**GOOD, "rows": 6, "cols": 6, "speed": 10})
    assert not wait_for(lambda: client.count() > 25, timeout=1.0)
    slow = client.count()
    assert 3 <= slow <= 25  # paced: unpaced, this would be thousands
    assert client.call("speed", {"speed": 0}) == {"ok": True}
    assert wait_for(lambda: client.count() > 10_000)


def test_start_replaces_the_clients_run(watcher, live_server):
    client = watcher()
    first = client.call("start", {**GOOD, "rows": 6, "cols": 6, "speed": 5})["run"]
    second = client.call("start", {**GOOD, "order": "warnsdorff"})["run"]
    assert client.finished.wait(10)
    assert client.result["run"] == second != first
    assert [s["run"] for s in client.started] == [first, second]
    assert live_server.active_runs() == 0


def test_bad_requests_do_not_disturb_another_client(watcher):
    good, bad = watcher(), watcher()
    good.call("start", {**GOOD, "rows": 6, "cols": 6})
    for payload in [None, {"rows": "x"}, {**GOOD, "start": 99}, {**GOOD, "order": "zig"}]:
        assert bad.call("start", payload)["ok"] is False
    assert bad.call("teleport", 1)["ok"] is False
    assert good.finished.wait(20)
    assert good.errors == [] and good.result["visits"] == 183_635
    assert len(bad.errors) == 5


def sizes(client):
    """Return the events in each batch a raw client was sent, in order."""
    return [len(payload["events"]) for _, payload, _ in client.events("events")]


def test_a_client_that_stops_acknowledging_is_not_flooded(live_server, raw):
    client = raw(live_server.url, ack_batches=False)
    client.emit(1, "start", {**GOOD, "rows": 8, "cols": 8})
    assert wait_for(lambda: len(client.events("events")) >= WINDOW)
    # Nothing more while it does not acknowledge, and what it was sent is the first small batches.
    assert not wait_for(lambda: len(client.events("events")) > WINDOW, timeout=1.0)
    assert sizes(client) == [FIRST_BATCH] * WINDOW
    # Acknowledging one batch releases exactly one more: no larger, the acknowledgement came late.
    _, _, ack_id = client.events("events")[0]
    client.ack(ack_id)
    assert wait_for(lambda: len(client.events("events")) == WINDOW + 1)
    assert not wait_for(lambda: len(client.events("events")) > WINDOW + 1, timeout=0.5)
    assert sizes(client) == [FIRST_BATCH] * (WINDOW + 1)
    client.close()
    assert wait_for(lambda: live_server.active_runs() == 0, 5)


def test_a_clients_batches_grow_to_the_largest_as_it_acknowledges_them(live_server, raw):
    client = raw(live_server.url)  # acknowledges each batch as it arrives, as the page does
    client.emit(1, "start", {**GOOD, "rows": 6, "cols": 6})  # 367,235 events
    assert wait_for(lambda: client.events("finished"), 30)
    got = sizes(client)
    assert sum(got) == 367_235 and got[0] == FIRST_BATCH and max(got) == MAX_BATCH
    # Grown at most once for each acknowledgement before it: at most one for each batch before it.
    assert all(size <= FIRST_BATCH * GROWTH**n for n, size in enumerate(got))
    # Full from the few round trips it took to grow on (a loaded machine may slow one down).
    ramp = math.ceil(math.log(MAX_BATCH / FIRST_BATCH, GROWTH))
    assert got.index(MAX_BATCH) <= 2 * ramp and len(got) <= 367_235 // MAX_BATCH + 2 * ramp


def test_skip_reports_progress_then_the_final_board(watcher):
    client = watcher()
    client.call("start", {**GOOD, "rows": 7, "cols": 7, "paused": True})
    assert client.call("skip") == {"ok": True}
    assert client.finished.wait(30)
    result = client.result
    assert (result["visits"], result["backtracks"], result["found"]) == (137_459, 137_410, True)
    assert result["path"] == path_of(knight_tour(knight_graph(7, 7), 0))
    assert client.events == []  # nothing was streamed
    assert all(p["skipping"] and p["run"] == result["run"] for p in client.named("progress"))


def test_budget_ends_the_run_with_its_own_result(watcher):
    client = watcher()
    client.call("start", {**GOOD, "rows": 6, "cols": 6, "budget": 5000})
    assert client.finished.wait(10)
    assert client.count() == 5000
    assert (client.result["stopped"], client.result["found"]) == ("budget", False)


def test_all_tours_over_the_socket(watcher):
    client = watcher()
    client.call("start", {**GOOD, "rows": 3, "cols": 4, "all_tours": True})
    assert client.finished.wait(10)
    assert client.events.count("found") == client.result["tours"] == 2
