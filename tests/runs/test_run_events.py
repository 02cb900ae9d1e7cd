"""The run handlers through the Flask-SocketIO test client: requests, answers and errors."""

import itertools

import pytest

from server.engine.graph import knight_graph
from server.engine.search import knight_tour
from server.runs.player import WINDOW
from server.wire import encode
from tests.support.clients import sent, sent_to
from tests.support.waiting import wait_for

GOOD = {"rows": 5, "cols": 5, "start": 0, "order": "naive", "speed": 0}


def test_start_is_acknowledged_and_announced_then_streams(client):
    # 6x6: a search longer than the batches the server sends before an acknowledgement.
    board = {**GOOD, "rows": 6, "cols": 6}
    answer = client.emit("start", board, callback=True)
    assert answer["ok"] is True and answer["run"] >= 1
    assert wait_for(lambda: [event for event, _ in sent(client)] == ["started"] + ["events"] * WINDOW)
    assert sent_to(client, "started") == [
        {
            "run": answer["run"],
            **board,
            "paused": False,
            "closed": False,
            "all_tours": False,
            "seed": 0,
            "budget": None,
            "graph": "knight",
            "resume_at": 0,
        }
    ]
    batches = sent_to(client, "events")
    expected = encode(list(knight_tour(knight_graph(6, 6), 0)))
    streamed = [code for batch in batches for code in batch["events"]]
    assert streamed == expected[: len(streamed)]
    assert all(batch["run"] == answer["run"] for batch in batches)


def test_a_written_form_streams_the_search_its_keys_compose(client):
    # Roth's tie-break written out runs as its name; a composition no name has runs as the engine's.
    for order in ("onward,-centre", "-edge,pohl,random"):
        board = {**GOOD, "rows": 6, "cols": 6, "order": order, "seed": 5}
        answer = client.emit("start", board, callback=True)
        assert answer["ok"] is True, answer
        run = answer["run"]
        assert wait_for(lambda run=run: any(b["run"] == run for b in sent_to(client, "events")))
        streamed = [c for b in sent_to(client, "events") if b["run"] == run for c in b["events"]]
        # The search's first events only: the whole of some of these orderings' 6x6 runs to millions.
        searched = knight_tour(knight_graph(6, 6), 0, order, seed=5)
        assert streamed == encode(list(itertools.islice(searched, len(streamed))))
        assert sent_to(client, "started")[-1]["order"] == order


def test_a_client_that_never_acknowledges_gets_no_more_than_the_window(client):
    client.emit("start", {**GOOD, "rows": 6, "cols": 6}, callback=True)
    assert wait_for(lambda: len(sent_to(client, "events")) >= WINDOW)
    assert not wait_for(lambda: len(sent_to(client, "events")) > WINDOW, timeout=0.5)


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
    ({**GOOD, "order": 7}, "an order is a text, not 7"),
    ({**GOOD, "order": "onward,-onward"}, "names onward twice"),
    ({**GOOD, "order": ",".join(["index"] * 9)}, "at most 8 keys, not 9"),
    ({**GOOD, "order": "onward," * 2_000}, "at most 8 keys, not 2001"),
    ({**GOOD, "order": "onward,__import__('os')"}, "is none of naive"),
    ({"graph": "example", "start": 0, "order": "onward,-centre", "speed": 0}, "the example graph has none"),
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
    # Paused, so that it is still going on however fast the machine: a 5x5 run ends in milliseconds.
    assert client.emit("start", {**GOOD, "paused": True}, callback=True)["ok"] is True
    answer = client.emit("start", payload, callback=True)
    assert answer["ok"] is False and message in answer["error"]
    assert [e["message"] for e in sent_to(client, "error")] == [answer["error"]]
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


def test_one_clients_error_does_not_reach_another(clients):
    good, bad = clients(), clients()
    good.emit("start", {**GOOD, "speed": 10}, callback=True)  # paced: still running when paused
    bad.emit("start", {"rows": "x"}, callback=True)
    assert sent_to(good, "error") == []
    assert good.emit("pause", callback=True) == {"ok": True}
