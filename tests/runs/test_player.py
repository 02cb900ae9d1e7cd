"""The player: batching, the acknowledgement window, pause, step, speed and stop."""

import itertools
import threading

import pytest

from server.engine.graph import knight_graph
from server.engine.search import Search, knight_tour
from server.runs.player import FIRST_BATCH, GROWTH, LATE, MAX_BATCH, STALL, WINDOW, Player
from tests.support.players import SKIPS, Receiver, skipped_to_end
from tests.support.replay import path_of
from tests.support.waiting import wait_for


@pytest.fixture
def play():
    """Return play(receiver, size=5, order="naive", search_options=None, **options): a started Player."""
    started = []

    def start_thread(fn):
        started.append(threading.Thread(target=fn, name="player"))
        started[-1].start()

    players = []

    def play(receiver, size=5, order="naive", search_options=None, **options):
        search = Search(knight_graph(size, size), 0, order, **(search_options or {}))
        players.append(Player(search, receiver.send, receiver.report, receiver.finish, **options))
        players[-1].start(start_thread)
        return players[-1]

    play.threads = started  # the players' threads, in the order they started
    yield play
    # Stopped and ended here, so that no player outlives its test, even a failed one.
    for player in players:
        player.stop()
    for thread in started:
        thread.join(5)


def test_full_speed_delivers_every_event_in_order_then_the_summary(play):
    receiver = Receiver()
    play(receiver)
    assert receiver.done.wait(10)
    expected = list(knight_tour(knight_graph(5, 5), 0))
    assert receiver.events == expected
    assert all(len(batch) <= MAX_BATCH for batch in receiver.batches)
    summary = receiver.summary
    assert (summary["found"], summary["tours"], summary["stopped"]) == (True, 1, None)
    assert (summary["visits"], summary["backtracks"], summary["events"]) == (5010, 4985, 9996)
    assert summary["path"] == summary["tour"] == path_of(expected)


def test_full_speed_sends_full_batches_taken_a_slice_at_a_time(play):
    receiver = Receiver()
    play(receiver, size=6)  # 367,235 events: 26 batches
    assert receiver.done.wait(20)
    sizes = [len(batch) for batch in receiver.batches]
    assert sum(sizes) == receiver.summary["events"] == 367_235
    # Each batch acknowledged at once lets the next hold GROWTH times as many, up to the largest.
    growing = [
        *itertools.takewhile(lambda n: n < MAX_BATCH, (FIRST_BATCH * GROWTH**k for k in itertools.count()))
    ]
    growing.append(MAX_BATCH)
    assert sizes[: len(growing)] == growing
    assert set(sizes[len(growing) : -1]) == {MAX_BATCH} and 0 < sizes[-1] <= MAX_BATCH


@pytest.mark.parametrize("speed", [0, 100_000])
def test_a_receiver_that_never_acknowledges_holds_only_the_first_small_batches(play, speed):
    receiver = Receiver(hold=True)
    play(receiver, size=8, speed=speed)  # 100,000 events a second: 10,000 a tick
    assert wait_for(lambda: len(receiver.batches) == WINDOW)
    assert not wait_for(lambda: len(receiver.batches) > WINDOW, timeout=0.3)
    assert [len(batch) for batch in receiver.batches] == [FIRST_BATCH] * WINDOW


def test_batches_grow_with_acknowledgements_in_time_and_shrink_with_late_ones(play):
    receiver = Receiver(hold=True)
    now = [0.0]
    play(receiver, size=8, clock=lambda: now[0])
    assert wait_for(lambda: len(receiver.batches) == WINDOW)
    # The clock moves past LATE (short of a stall) before the third and the fourth
    # acknowledgements: those come late, and so does the fifth, of a batch sent before it moved.
    for n, moves in enumerate((False, False, True, True, False, False), start=WINDOW + 1):
        now[0] += (LATE + STALL) / 2 if moves else 0
        receiver.acknowledge_first()
        assert wait_for(lambda n=n: len(receiver.batches) == n)
    sizes = [len(batch) // FIRST_BATCH for batch in receiver.batches]
    grown = GROWTH * GROWTH  # after the first two acknowledgements
    assert sizes == [1, 1, GROWTH, grown, grown // 2, grown // 4, grown // 8, grown // 8 * GROWTH]


def test_paused_player_sends_one_event_per_step(play):
    receiver = Receiver()
    player = play(receiver, paused=True)
    assert not wait_for(lambda: receiver.batches, timeout=0.2)
    for count in (1, 2, 3):
        player.step()
        assert wait_for(lambda n=count: receiver.count() == n)
    assert receiver.events == list(knight_tour(knight_graph(5, 5), 0))[:3]
    assert all(len(batch) == 1 for batch in receiver.batches)


def test_a_paused_player_is_settled_once_its_steps_are_taken_and_acknowledged(play):
    receiver = Receiver(hold=True)
    player = play(receiver, paused=True)
    assert wait_for(player.settled), "paused, with nothing asked of it"
    player.step()
    assert not player.settled(), "a step still to take"
    assert wait_for(lambda: receiver.count() == 1)
    assert not player.settled(), "its batch is not acknowledged yet"
    receiver.acknowledge_first()
    assert wait_for(player.settled) and player.events == 1
    player.resume()
    assert not player.settled(), "playing"


def test_pause_holds_and_resume_goes_on(play):
    receiver = Receiver()
    player = play(receiver, speed=200)
    assert wait_for(lambda: receiver.count() >= 5)
    player.pause()
    held = receiver.count()
    assert not wait_for(lambda: receiver.count() > held + MAX_BATCH, timeout=0.1)
    held = receiver.count()
    assert not wait_for(lambda: receiver.count() > held, timeout=0.3)
    player.resume()
    assert wait_for(lambda: receiver.count() > held)


@pytest.mark.parametrize("speed", [5, 40, 500])
def test_speed_paces_the_events(play, speed):
    receiver = Receiver()
    player = play(receiver, size=6, speed=speed)
    # Unpaced, the search would produce hundreds of thousands of events in this second.
    assert not wait_for(lambda: receiver.count() > 2 * speed + 2, timeout=1.0)
    player.stop()
    sent = receiver.count()
    assert 0.1 * speed <= sent <= 2 * speed + 2


def test_the_first_move_goes_at_once_even_at_the_slowest_speed(play):
    receiver = Receiver()
    # Time stands still for this player: only the credit it starts (and resumes) with counts.
    player = play(receiver, speed=1, clock=lambda: 0.0)
    assert wait_for(lambda: receiver.count() == 1)
    player.pause()
    player.resume()
    assert wait_for(lambda: receiver.count() == 2)
    assert not wait_for(lambda: receiver.count() > 2, timeout=0.3)


def test_speed_change_takes_effect(play):
    receiver = Receiver()
    player = play(receiver, size=6, speed=2)
    assert wait_for(lambda: receiver.batches)
    player.set_speed(0)
    assert wait_for(lambda: receiver.count() > 10_000)


def test_stop_ends_the_thread(play):
    receiver = Receiver(hold=True)
    player = play(receiver, size=6)
    assert wait_for(lambda: len(receiver.batches) == WINDOW)
    player.stop()
    play.threads[0].join(2)
    assert not play.threads[0].is_alive()
    assert receiver.summary is None


def test_budget_stops_the_run_after_that_many_events(play):
    receiver = Receiver()
    play(receiver, budget=1000)
    assert receiver.done.wait(10)
    expected = list(knight_tour(knight_graph(5, 5), 0))[:1000]
    assert receiver.events == expected
    summary = receiver.summary
    assert (summary["stopped"], summary["found"], summary["events"]) == ("budget", False, 1000)
    assert summary["path"] == path_of(expected)
    assert summary["visits"] + summary["backtracks"] == 1000


def test_budget_that_outlasts_the_search_is_not_reported_as_hit(play):
    receiver = Receiver()
    play(receiver, budget=9996)  # exactly the events of the 5x5 search
    assert receiver.done.wait(10)
    assert receiver.summary["stopped"] is None and receiver.summary["found"] is True


@pytest.mark.parametrize("size, visits, backtracks", SKIPS)
def test_skip_searches_to_the_end_without_sending_events(play, size, visits, backtracks):
    receiver = Receiver()
    skipped_to_end(play(receiver, size=size, speed=10), receiver, size, visits, backtracks)


def test_pause_cancels_a_skip_and_the_run_goes_on_from_there(play):
    receiver = Receiver()
    player = play(receiver, size=8, paused=True)  # 35 million events: still going when paused
    player.skip()
    assert wait_for(lambda: player.snapshot()["events"] > 500_000)
    player.pause()
    assert wait_for(lambda: receiver.reports and not receiver.reports[-1]["skipping"])
    cancelled = receiver.reports[-1]
    expected = list(itertools.islice(knight_tour(knight_graph(8, 8), 0), cancelled["events"] + 1))
    assert cancelled["path"] == path_of(expected[: cancelled["events"]])
    player.step()
    assert wait_for(lambda: receiver.batches)
    assert receiver.events == [expected[cancelled["events"]]]


def test_all_tours_counts_every_tour_and_keeps_the_last(play):
    receiver = Receiver()
    play(receiver, size=5, search_options={"all_tours": True})
    assert receiver.done.wait(30)
    summary = receiver.summary
    assert summary["found"] is True and summary["tours"] == 304
    assert summary["path"] == [] and len(summary["tour"]) == 25
