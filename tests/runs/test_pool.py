"""Skips searched by helper processes, a leg at a time: the same results as the worker's own
search, a helper lost mid-skip replaced, and the helpers lent in turns."""

import functools
import itertools
import os
import signal
import threading
import time

import psutil
import pytest
import requests

from server.edge.badges import COOKIE
from server.engine import legs
from server.engine.graph import knight_graph
from server.engine.search import Compact, Search, compact, knight_tour
from server.runs import pool as pool_module
from server.runs.player import SKIP_SLICE, Player
from server.runs.pool import Pool, default_size
from server.runs.shares import group
from tests.support.players import SKIPS, Receiver, skipped_to_end
from tests.support.replay import path_nodes, path_of, tree_followed
from tests.support.waiting import wait_for


@pytest.fixture
def pool():
    """Return a pool of two helpers, ended after the test."""
    pool = Pool(2)
    yield pool
    pool.close()


@pytest.fixture
def play(pool):
    """Return play(receiver, size, share="a", search_options=None, **options): a started Player
    whose skips are searched by the pool's helpers."""
    started = []

    def play(receiver, size, share="a", search_options=None, **options):
        search = Search(knight_graph(size, size), 0, "naive", **(search_options or {}))
        options.setdefault("leg", functools.partial(pool.leg, share))
        player = Player(search, receiver.send, receiver.report, receiver.finish, **options)
        player.start(lambda run: started.append((player, threading.Thread(target=run, name="player"))))
        started[-1][1].start()
        return player

    yield play
    for player, thread in started:
        player.stop()
        thread.join(5)


@pytest.mark.parametrize("size, visits, backtracks", SKIPS)
def test_a_skip_searched_by_helpers_ends_where_the_search_does(play, pool, size, visits, backtracks):
    receiver = Receiver()
    skipped_to_end(play(receiver, size, speed=10), receiver, size, visits, backtracks)
    assert pool.pids(), "a helper searched them"


def test_every_tour_counted_by_helpers(play):
    receiver = Receiver()
    player = play(receiver, 5, paused=True, search_options={"all_tours": True})
    player.skip()
    assert receiver.done.wait(60)
    assert receiver.summary["tours"] == 304 and len(receiver.summary["tour"]) == 25


def test_a_budget_ends_a_skip_searched_by_helpers_on_its_last_event(play):
    receiver = Receiver()
    player = play(receiver, 8, paused=True, budget=1_234_567)
    player.skip()
    assert receiver.done.wait(30)
    expected = list(itertools.islice(knight_tour(knight_graph(8, 8), 0), 1_234_567))
    assert receiver.summary["events"] == 1_234_567 and receiver.summary["stopped"] == "budget"
    assert receiver.summary["path"] == path_of(expected)


def pause_and_step(player, receiver):
    """Pause a skip, step once; return the progress report of the pause and the events stepped."""
    player.pause()
    assert wait_for(lambda: receiver.reports and not receiver.reports[-1]["skipping"])
    searched, before = receiver.reports[-1], receiver.count()
    player.step()
    assert wait_for(lambda: receiver.count() > before)
    return searched, receiver.events[before:]


def test_pause_cancels_a_skip_in_a_helper_and_the_run_goes_on_from_there(play):
    receiver = Receiver()
    player = play(receiver, 8, speed=50)  # 35 million events: still going when paused
    assert wait_for(lambda: receiver.batches), "played here first"
    player.skip()
    assert wait_for(lambda: player.snapshot()["events"] > 500_000)
    searched, stepped = pause_and_step(player, receiver)
    expected = list(itertools.islice(knight_tour(knight_graph(8, 8), 0), searched["events"] + 1))
    assert searched["path"] == path_of(expected[:-1])
    assert stepped == [expected[-1]], "the worker's own search goes on from the helper's path"


def test_a_helper_killed_mid_skip_is_replaced_and_the_skip_goes_on(play, pool):
    receiver = Receiver()
    player = play(receiver, 8, paused=True)
    player.skip()
    assert wait_for(lambda: pool.pids() and player.snapshot()["events"] > 200_000)
    killed = pool.pids()[0]
    os.kill(killed, signal.SIGKILL)
    reached = player.snapshot()["events"]
    assert wait_for(lambda: player.snapshot()["events"] > reached + 500_000), "the skip goes on"
    assert wait_for(lambda: pool.pids() and killed not in pool.pids()), "in a new helper"
    searched, stepped = pause_and_step(player, receiver)
    expected = list(itertools.islice(knight_tour(knight_graph(8, 8), 0), searched["events"] + 1))
    assert searched["path"] == path_of(expected[:-1]) and stepped == [expected[-1]]


def test_a_run_resumed_far_into_its_search_is_caught_up_by_helpers(play, pool):
    receiver = Receiver()
    player = play(receiver, 8, paused=True, resume_at=2_000_000)
    # Two million events: a few seconds of a helper, which gives way (nice 10) to a busy machine.
    assert wait_for(lambda: player.snapshot()["events"] == 2_000_000, 90)
    player.step()
    assert wait_for(lambda: receiver.batches)
    expected = list(itertools.islice(knight_tour(knight_graph(8, 8), 0), 2_000_001))
    assert receiver.events == [expected[-1]] and player.snapshot()["path"] == path_of(expected)
    assert pool.pids()


def written(receiver):
    """Return every event a receiver got, written compactly as the wire sends them."""
    return [e for b in receiver.batches for e in (b if isinstance(b, Compact) else compact(b))]


def test_a_run_played_flat_out_sends_batches_its_helpers_searched(play, pool):
    receiver = Receiver()
    play(receiver, 6, speed=0)
    assert receiver.done.wait(60)
    expected = list(knight_tour(knight_graph(6, 6), 0))
    assert written(receiver) == compact(expected) and len(expected) == 367_235
    # A batch of a slice or more is a helper's; the run's first, smaller ones the worker takes at once.
    sliced = [isinstance(batch, Compact) for batch in receiver.batches if len(batch) >= SKIP_SLICE]
    assert sliced and all(sliced), "every batch of a slice or more was a helper's"
    assert receiver.summary["found"] and receiver.summary["path"] == path_of(expected)
    assert pool.pids()


@pytest.mark.parametrize("helped", [True, False])
def test_a_class_run_played_flat_out_sends_each_batch_with_the_outline_of_its_tree(play, pool, helped):
    receiver = Receiver()
    play(receiver, 6, speed=0, outline_batches=True, **({} if helped else {"leg": None}))
    assert receiver.done.wait(60)
    expected = list(knight_tour(knight_graph(6, 6), 0))
    assert written(receiver) == compact(expected)
    # Each batch's outline begins where the one before ended; together they are the whole tree.
    assert all(isinstance(batch, Compact) and batch.outline for batch in receiver.batches)
    outlines = [("snapshot", {"outline": batch.outline}) for batch in receiver.batches]
    assert tree_followed(outlines) == (183_635, path_nodes(expected))


def test_a_run_played_flat_out_paused_and_stepped_goes_on_from_its_helpers_path(play, pool):
    receiver = Receiver()
    player = play(receiver, 8, speed=0)  # 35 million events: still going when paused
    assert wait_for(lambda: receiver.count() > 300_000)
    player.pause()
    assert wait_for(lambda: player.state() == "paused")
    taken = player.snapshot()["events"]
    assert wait_for(lambda: receiver.count() == taken), "the batch taken before the pause never came"
    sent = written(receiver)
    before = len(sent)
    player.step()
    assert wait_for(lambda: receiver.count() > before)
    expected = list(itertools.islice(knight_tour(knight_graph(8, 8), 0), before + 1))
    assert sent == compact(expected[:-1]) and receiver.events[before:] == [expected[-1]]


def test_a_helper_killed_while_a_run_plays_flat_out_loses_no_event(play, pool):
    receiver = Receiver()
    player = play(receiver, 8, speed=0, budget=2_000_000)
    assert wait_for(lambda: pool.pids() and receiver.count() > 300_000)
    for helper in pool.pids():  # the one searching its next batch among them
        os.kill(helper, signal.SIGKILL)
    assert receiver.done.wait(60), "the run went on"
    expected = list(itertools.islice(knight_tour(knight_graph(8, 8), 0), 2_000_000))
    assert written(receiver) == compact(expected) and player.snapshot()["path"] == path_of(expected)


def test_the_helpers_end_with_the_pool():
    pool = Pool(2)
    search = Search(knight_graph(5, 5), 0, "naive")
    reached = pool.leg("a", search, legs.where(search, 0, None), 10).result(10)
    assert reached["events"] == 10 and len(reached["path"]) == 10
    helpers = [psutil.Process(pid) for pid in pool.pids()]
    assert len(helpers) == 1, "a helper starts when first needed"
    pool.close()
    assert pool.pids() == []
    assert all(not h.is_running() or h.status() == psutil.STATUS_ZOMBIE for h in helpers)


def test_a_pool_closed_mid_job_ends_it_at_once_and_fails_its_future():
    pool = Pool(1)
    search = Search(knight_graph(32, 32), 0)
    long = pool.ask("a", legs.job(search, legs.where(search, 0, None), 50_000_000, None))  # seconds of search
    assert wait_for(lambda: long.running() and pool.pids(), 10)
    began = time.monotonic()
    pool.close()
    assert time.monotonic() - began < 2, "the helper was ended, not waited for"
    assert isinstance(long.exception(10), pool_module.HelperLost)


def test_a_machine_of_n_cores_gets_n_minus_one_helpers_and_at_least_one():
    assert [default_size(n) for n in (1, 2, 4, 16)] == [1, 1, 3, 15]


SKIPPED = {"rows": 8, "cols": 8, "start": 0, "order": "naive", "speed": 0, "paused": True}


def progressed(client):
    """Return the events of a client's last progress report, 0 before any."""
    reports = client.named("progress")
    return reports[-1]["events"] if reports else 0


def test_the_production_server_skips_in_a_helper_and_replaces_a_lost_one(production, connect):
    server = production()
    worker = server.worker
    skipper = connect(server.url)
    assert skipper.call("start", SKIPPED)["ok"] is True
    worker_before = worker.cpu_seconds()
    assert skipper.call("skip") == {"ok": True}
    helpers = wait_for(lambda: worker.process.children(), 10)
    assert len(helpers) == 1, f"one helper on this machine's default: {helpers}"
    helper = helpers[0]
    assert wait_for(lambda: helper.nice() == 10), "a helper gives way to the rest of the machine"
    assert wait_for(lambda: progressed(skipper) > 3_000_000, 30)
    searched = helper.cpu_times().user
    served = worker.cpu_seconds() - worker_before
    assert searched > 2 * served, f"the helper searched ({searched:.2f} s), not the worker ({served:.2f} s)"
    # A helper lost (killed, out of memory): the skip goes on in a new one.
    helper.kill()
    reached = progressed(skipper)
    assert wait_for(lambda: progressed(skipper) > reached + 2_000_000, 30), "the skip went on"
    replaced = worker.process.children()
    assert [each.pid for each in replaced] not in ([], [helper.pid])
    assert skipper.call("pause") == {"ok": True}
    assert wait_for(lambda: skipper.named("progress")[-1]["skipping"] is False, 10)
    paused = skipper.named("progress")[-1]
    expected = list(itertools.islice(knight_tour(knight_graph(8, 8), 0), paused["events"]))
    assert paused["path"] == path_of(expected)
    assert "Traceback" not in server.log() and "a search helper ended" in server.log()
    # The helpers go with the server.
    skipper.close()
    server.close()
    assert wait_for(lambda: not any(each.is_running() for each in replaced), 10)


def played_flat_out(server, connect, events):
    """Play a run flat out to a budget of `events` on a server; return (what the client got,
    the worker's CPU seconds meanwhile)."""
    client = connect(server.url)
    before = server.worker.cpu_seconds()
    assert client.call("start", {**SKIPPED, "paused": False, "budget": events})["ok"] is True
    assert wait_for(lambda: client.named("finished"), 60), "the run did not reach its budget"
    served = server.worker.cpu_seconds() - before
    client.close()
    return [event for batch in client.named("events") for event in batch["events"]], served


def test_the_production_server_plays_a_run_flat_out_from_its_helpers_batches(production, connect):
    expected = compact(itertools.islice(knight_tour(knight_graph(8, 8), 0), 1_000_000))
    with production("--search-processes", "0") as alone:
        sent, searched_here = played_flat_out(alone, connect, len(expected))
    assert sent == expected
    with production() as helped:
        sent, served = played_flat_out(helped, connect, len(expected))
        searched = sum(helper.cpu_times().user for helper in helped.worker.process.children())
    assert sent == expected
    # The worker passes the helper's batches on, already written compactly: it searches and
    # encodes nothing (measured: 0.54 to 0.61 of its CPU without helpers); the helper searched.
    assert served < 0.8 * searched_here, f"the worker served {served:.2f} s, alone {searched_here:.2f} s"
    assert searched > (searched_here - served) / 2, f"the helper searched only {searched:.2f} s"
    print(f"  1,000,000 events played flat out: worker {served:.2f} s of CPU (helper {searched:.2f} s);")
    print(f"  without helpers the worker took {searched_here:.2f} s")


def test_a_browser_gets_its_own_turns_at_the_helpers_beside_a_script_on_its_address(serve, connect):
    server = serve({"SEARCH_PROCESSES": 1})
    page = requests.get(server.url, timeout=10)
    badge = page.cookies[COOKIE]
    endless = {**SKIPPED, "rows": 32, "cols": 32}  # a search that never ends
    script = [connect(server.url) for _ in range(8)]  # no badge: one browser, however many
    student = connect(server.url, headers={"Cookie": f"{COOKIE}={badge}"})
    for client in [*script, student]:
        assert client.call("start", endless)["ok"] is True
        assert client.call("skip") == {"ok": True}
    everyone = [*script, student]
    assert wait_for(lambda: all(progressed(client) for client in everyone), 30), "all skipping"
    before = {client: progressed(client) for client in everyone}
    assert wait_for(lambda: progressed(student) > before[student] + 3_000_000, 60)
    mine = progressed(student) - before[student]
    theirs = max(progressed(client) - before[client] for client in script)
    # The helper's turns go round the browsers (the script's connections, the student), then
    # round each one's runs: the student's one run gets half, each of the script's a sixteenth
    # (8 times as much; turns round the runs alone would give each the same). A leg is the
    # helper's unit, so over a few legs a busy machine's timing moves the ratio: it was 2.8 once
    # with four test workers. Twice still tells the browser's own turns from none.
    assert mine > 2 * theirs, f"the student searched {mine:,} events; the script's best {theirs:,}"


def test_a_helper_keeps_itself_for_the_class_run_it_served_before_a_students_strip(monkeypatch):
    monkeypatch.setattr(pool_module, "ANTICIPATE", 5.0)  # far longer than the room takes to ask again
    pool = Pool(1, group)
    search = Search(knight_graph(8, 8), 0)
    batch = functools.partial(legs.job, search, legs.where(search, 0, None), 4096, None)
    strip = functools.partial(legs.cell_job, (20, 20, 0, "naive", 0, 100_000), None, 0.05)
    done = []
    try:
        pool.ask("10.0.0.9", strip()).result(30)  # a student's board has had a leg
        pool.ask("class:ABCD", batch()).result(30)  # the room a batch: a 38th of its seconds, owed more
        legs_asked = [pool.ask("10.0.0.9", strip()) for _ in range(2)]
        for future in legs_asked:
            future.add_done_callback(lambda _: done.append("strip"))
        # The helper is free, and yet no leg of the strip begins: it waits for the room.
        assert not wait_for(lambda: any(future.running() for future in legs_asked), 1.0)
        second = pool.ask("class:ABCD", batch())
        second.add_done_callback(lambda _: done.append("room"))
        second.result(30)
        for future in legs_asked:
            future.result(30)
        assert done == ["room", "strip", "strip"]
    finally:
        pool.close()
