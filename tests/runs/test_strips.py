"""Strips: orderings tried on many boards, each board's end as the engine gives it one board at a
time, searched by helpers or by the worker, one strip a page, ended by a new one, a stop or a
leaving, and refused saying why when the request is bad."""

import time

import pytest
import requests

from server import socketio
from server.edge.badges import COOKIE
from server.engine.graph import knight_graph
from server.engine.legs import cell_job
from server.engine.search import BACKTRACK, FOUND, Search
from server.engine.survey import Board, cell
from server.runs.pool import Pool
from server.runs.strips import MAX_HERE
from server.wire import MAX_STRIP_BUDGET, parse_strip
from tests.support.clients import sent_to
from tests.support.waiting import wait_for


def one_board(rows, cols, start, order, budget):
    """Return how the engine's search of one board ends, counted here on its own."""
    backtracks = 0
    for events, (kind, _, _) in enumerate(Search(knight_graph(rows, cols), start, order), 1):
        if kind == FOUND:
            return ("backtracked" if backtracks else "clean", backtracks, events)
        if kind == BACKTRACK:
            backtracks += 1
            if backtracks == budget:
                return ("stopped", backtracks, events)
    return ("none", backtracks, events)


@pytest.mark.parametrize("order", ["naive", "warnsdorff", "warnsdorff-roth", "onward,-corner,pohl"])
def test_each_board_ends_as_the_engine_ends_it_one_board_at_a_time(order):
    for n in range(1, 13):
        got = cell(n, n, 0, order, 0, 2_000)
        assert (got["outcome"], got["backtracks"], got["events"]) == one_board(n, n, 0, order, 2_000), (
            order,
            n,
        )


@pytest.mark.parametrize("piece", [1, 7, 128])
@pytest.mark.parametrize("order", ["naive", "warnsdorff", "onward,-corner,pohl"])
def test_a_board_searched_a_piece_at_a_time_ends_as_it_does_searched_whole(order, piece):
    for n in range(1, 11):
        board, pieces = Board(n, n, 0, order, 0, 1_500), 0
        while (end := board.search(piece)) is None:
            pieces += 1
        assert end == cell(n, n, 0, order, 0, 1_500), (order, n)
        assert pieces >= (end["events"] - 1) // piece, "a piece searched more than it was asked"
        assert board.search(piece) == end, "a board that has ended stays ended"


def test_what_the_strip_shows_for_warnsdorff_from_a_corner():
    # The facts docs/orderings.md publishes: plain Warnsdorff from a corner backtracks on 7x7 and
    # is stopped on some boards; Roth's tie-break stalls only on 7x7 of boards 5 to 20.
    plain = {n: cell(n, n, 0, "warnsdorff", 0, 10_000)["outcome"] for n in range(5, 21)}
    roth = {n: cell(n, n, 0, "warnsdorff-roth", 0, 10_000)["outcome"] for n in range(5, 21)}
    assert plain[7] == "backtracked" and plain[5] == plain[6] == plain[8] == "clean"
    assert [n for n, outcome in roth.items() if outcome != "clean"] == [7]


BAD = [
    (None, "needs an object"),
    ({"sides": [5, 8]}, "orders must be a list of 1 to 4"),
    ({"orders": [], "sides": [5, 8]}, "orders must be a list of 1 to 4"),
    ({"orders": ["naive"] * 5, "sides": [5, 8]}, "orders must be a list of 1 to 4"),
    ({"orders": ["naive", "naive"], "sides": [5, 8]}, "names an ordering twice"),
    ({"orders": ["onward,onward"], "sides": [5, 8]}, "names onward twice"),
    ({"orders": ["eval('1')"], "sides": [5, 8]}, "unknown order"),
    ({"orders": ["naive"], "sides": [8, 5]}, "the largest side must be a whole number from 8 to 100"),
    ({"orders": ["naive"], "sides": [5, 101]}, "from 5 to 100, not 101"),
    ({"orders": ["naive"], "sides": [0, 5]}, "the smallest side must be a whole number from 1 to 100"),
    ({"orders": ["naive"], "sides": "5-100"}, "sides must be [smallest, largest]"),
    ({"orders": ["naive"]}, "missing rows, cols"),
    ({"orders": ["naive"], "rows": 33, "cols": 5}, "rows must be a whole number from 1 to 32"),
    ({"orders": ["naive"], "sides": [5, 6], "budget": MAX_STRIP_BUDGET + 1}, "budget must be a whole number"),
    ({"orders": ["naive"], "sides": [5, 6], "seed": -1}, "seed must be a whole number"),
]


@pytest.mark.parametrize("payload, message", BAD)
def test_a_bad_strip_is_refused_saying_why(client, payload, message):
    answer = client.emit("strip", payload, callback=True)
    assert answer["ok"] is False and message in answer["error"], answer
    assert [e["message"] for e in sent_to(client, "error")] == [answer["error"]]


def test_a_strip_counts_its_boards_each_ordering_side_by_side():
    wanted = parse_strip({"orders": ["naive", "pohl"], "sides": [5, 7]})
    assert wanted.count == 6
    assert wanted.boards()[:3] == [("naive", 5, 5, 0), ("pohl", 5, 5, 0), ("naive", 6, 6, 0)]
    every = parse_strip({"orders": ["warnsdorff"], "rows": 3, "cols": 4})
    assert [start for _, _, _, start in every.boards()] == list(range(12))


def received(client, strip):
    """Return the boards of a strip the client has received, by index."""
    return {b["index"]: b for b in sent_to(client, "strip_board") if b["strip"] == strip}


def check_strip(client, orders, sides, budget=3_000):
    answer = client.emit("strip", {"orders": orders, "sides": sides, "budget": budget}, callback=True)
    assert answer["ok"] is True, answer
    boards = (sides[1] - sides[0] + 1) * len(orders)
    assert answer["boards"] == boards
    assert wait_for(
        lambda: any(d["strip"] == answer["strip"] for d in sent_to(client, "strip_done")), timeout=60
    )
    got = received(client, answer["strip"])
    assert sorted(got) == list(range(boards))
    for each in got.values():
        expected = one_board(each["rows"], each["cols"], 0, each["order"], budget)
        assert (each["outcome"], each["backtracks"], each["events"]) == expected, each
    return got


def test_a_strip_searched_by_the_worker_sends_every_board_then_says_it_is_done(client):
    check_strip(client, ["warnsdorff", "naive"], [5, 9])


def test_a_strip_searched_by_helpers_sends_what_the_engine_gives(configured):
    app = configured({"SEARCH_PROCESSES": 2})
    client = socketio.test_client(app)
    try:
        check_strip(client, ["warnsdorff-roth", "onward,-corner", "pohl,centre"], [5, 16])
        # At most two boards of a strip wait at the helpers at once: a long strip queues no more.
        pool = app.extensions["knights_tour_runs"].pool
        client.emit("strip", {"orders": ["naive"], "sides": [5, 100], "budget": 100_000}, callback=True)
        assert wait_for(lambda: sent_to(client, "strip_board")[-1]["rows"] >= 6)
        assert len(pool._asked) <= 2
        # Stopped, no board of it comes after the stop's answer and those already on their way.
        assert client.emit("strip_stop", callback=True) == {"ok": True}
        assert wait_for(lambda: len(pool._asked) == 0)
        count = len(sent_to(client, "strip_board"))
        assert not wait_for(lambda: len(sent_to(client, "strip_board")) > count + 2, timeout=1)
    finally:
        client.disconnect()
        app.extensions["knights_tour_runs"].close()


def test_a_new_strip_ends_the_last_and_a_leaving_page_ends_its_own(client, app):
    strips = app.extensions["knights_tour_runs"].strips
    first = client.emit("strip", {"orders": ["naive"], "sides": [20, 100], "budget": 40_000}, callback=True)
    second = client.emit("strip", {"orders": ["warnsdorff"], "sides": [5, 6]}, callback=True)
    assert wait_for(lambda: any(d["strip"] == second["strip"] for d in sent_to(client, "strip_done")))
    assert len(received(client, first["strip"])) <= 2, "the first strip went on past its end"
    assert len(strips) == 0, "a strip that is done is forgotten"
    again = client.emit("strip", {"orders": ["naive"], "sides": [30, 100], "budget": 40_000}, callback=True)
    assert again["ok"] is True, again
    assert len(strips) == 1
    client.disconnect()
    assert wait_for(lambda: len(strips) == 0)


def test_a_flood_of_strips_from_one_page_holds_one_at_a_time(client, app):
    strips = app.extensions["knights_tour_runs"].strips
    for _ in range(40):
        client.emit("strip", {"orders": ["naive", "pohl"], "sides": [40, 100], "budget": 30_000})
    assert len(strips) == 1
    assert client.emit("strip_stop", callback=True) == {"ok": True}
    assert len(strips) == 0


def test_a_strip_too_costly_for_a_worker_without_helpers_is_refused_saying_so(client):
    orders = ["naive", "random", "pohl", "-onward"]
    costliest = {"orders": orders, "sides": [5, 100], "budget": MAX_STRIP_BUDGET}
    answer = client.emit("strip", costliest, callback=True)
    asked = 4 * 96 * MAX_STRIP_BUDGET
    assert answer["ok"] is False and answer["code"] == "strip.too_large_here", answer
    assert answer["values"] == {"most": MAX_HERE, "asked": asked}
    assert f"{MAX_HERE:,} backtracks" in answer["error"] and f"{asked:,}" in answer["error"]
    assert [e["code"] for e in sent_to(client, "error")] == ["strip.too_large_here"]
    # Just within the bound it is taken (a server with helpers takes the costliest: see above).
    within = {"orders": ["naive"], "sides": [5, 44], "budget": MAX_HERE // 40}
    assert client.emit("strip", within, callback=True)["ok"] is True
    assert client.emit("strip_stop", callback=True) == {"ok": True}


def test_strip_pool_ask_runs_a_cell_in_a_helper_whole_or_a_leg_at_a_time():
    pool = Pool(1)
    board = (6, 6, 0, "naive", 0, 20_000)
    try:
        assert pool.ask("a", cell_job(board)).result(30) == {"end": cell(*board)}
        # Legs of a millisecond: the board goes on in the helper from where each left it.
        answer, legs = pool.ask("a", cell_job(board, None, 0.001)).result(30), 1
        while "state" in answer:
            assert 0 < answer["state"]["events"] < cell(*board)["events"]
            answer = pool.ask("a", cell_job(board, answer["state"], 0.001)).result(30)
            legs += 1
        assert answer == {"end": cell(*board)}
        assert legs > 2, "a board of 40,000 events is more than two legs of a millisecond"
    finally:
        pool.close()


def test_the_production_server_searches_strips_in_its_helper_and_a_flood_keeps_nobody_waiting(
    production, connect, raw
):
    costliest = {
        "orders": ["naive", "random", "pohl", "-onward"],
        "sides": [5, 100],
        "budget": MAX_STRIP_BUDGET,
    }
    with production() as server:
        badge = requests.get(server.url, timeout=10).cookies[COOKIE]
        before = server.worker.cpu_seconds()
        # A script on the class's address asks for the costliest strip from 20 connections, again and again
        # (bare sockets, which close at once however much the server is sending them).
        script = [raw(server.url) for _ in range(20)]
        for ack_id in range(3):
            for client in script:
                assert client.emit(ack_id, "strip", costliest)
        assert wait_for(lambda: all(len(client.answers()) == 3 for client in script), 30)
        assert all(answer[0]["ok"] for client in script for answer in client.answers().values())
        # A student's strip beside it: its boards come in the helper's turns, and all of them.
        student = connect(server.url, headers={"Cookie": f"{COOKIE}={badge}"})
        assert (
            student.call("strip", {"orders": ["warnsdorff", "onward,-start"], "sides": [5, 14]})["ok"] is True
        )
        assert wait_for(lambda: student.named("strip_done"), 60), "the student's strip never ended"
        boards = student.named("strip_board")
        assert len(boards) == 20
        for board in boards:
            expected = cell(board["rows"], board["cols"], 0, board["order"], 0, 10_000)
            assert {k: board[k] for k in expected} == expected

        # The script's strips go on in the helper, not in the worker that serves the sockets.
        def searched():
            return sum(helper.cpu_times().user for helper in server.worker.process.children())

        assert wait_for(lambda: searched() > 3, 60), "the helper is not searching the script's strips"
        served = server.worker.cpu_seconds() - before
        assert searched() > 2 * served, (
            f"the helper searched {searched():.2f} s, the worker served {served:.2f} s"
        )
        for client in [*script, student]:
            client.close()  # before their server closes: its goodbye would find them still there


def test_a_strip_on_a_production_server_without_helpers_holds_no_stream_back(production, connect):
    # A strip searched by the worker itself, board after board, beside a class of one: a run
    # played at 200 moves a second, ten batches a second. Searched whole, each large board held
    # the worker, and every stream, for as long as it took: 8 s for 6 boards.
    strip = {"orders": ["naive", "random"], "sides": [95, 100], "budget": 100_000}
    with production("--search-processes", "0") as server:
        good = connect(server.url)
        assert good.call("start", {"rows": 8, "cols": 8, "start": 0, "order": "naive", "speed": 200})["ok"]
        assert wait_for(lambda: len(good.named("events")) >= 3, 30), "the paced run never began"
        asker = connect(server.url)
        began = time.monotonic()
        answer = asker.call("strip", strip, timeout=60)
        assert answer["ok"] is True, answer
        assert wait_for(lambda: asker.named("strip_done"), 240), "the strip never ended"
        ended = time.monotonic()
        batches = [at for at, event, _ in good.stamped() if event == "events" and began <= at <= ended]
        gaps = [b - a for a, b in zip([began, *batches], [*batches, ended], strict=True)]
        took, longest = ended - began, max(gaps)
        # Generous: the run's batches come every 0.1 s, and stopped for all of the search when its
        # boards were searched whole; on a machine so loaded that the search takes over 6 s, a third of it.
        bound = max(2.0, took / 3)
        assert longest < bound, f"the run's stream stalled {longest:.2f} s during a strip of {took:.1f} s"
        print(f"  a strip of 12 boards here took {took:.1f} s; the run's longest gap {longest * 1000:.0f} ms")
        boards = asker.named("strip_board")
        assert len(boards) == 12
        for board in boards:
            expected = cell(board["rows"], board["cols"], 0, board["order"], 0, strip["budget"])
            assert {k: board[k] for k in expected} == expected
        for client in (good, asker):
            client.close()
