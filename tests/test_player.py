"""The player: batching, the acknowledgement window, pause, step, speed and stop."""

import itertools
import threading

import pytest

from server.engine.graph import knight_graph
from server.player import MAX_BATCH, WINDOW, Player
from server.engine.search import Search, knight_tour

from .conftest import path_of, wait_for


def start_thread(fn):
    thread = threading.Thread(target=fn, daemon=True)
    thread.start()
    return thread


class Receiver:
    """Collects batches; acknowledges each one at once unless told to hold them."""

    def __init__(self, hold=False):
        self.batches, self.pending, self.reports, self.summary = [], [], [], None
        self.hold = hold
        self.done = threading.Event()

    def send(self, batch, on_ack):
        self.batches.append(batch)
        if self.hold:
            self.pending.append(on_ack)
        else:
            on_ack()

    def report(self, snapshot, on_ack):
        self.reports.append(snapshot)
        on_ack()

    def finish(self, summary):
        self.summary = summary
        self.done.set()

    @property
    def events(self):
        return [event for batch in self.batches for event in batch]


def play(receiver, size=5, order="naive", search_options=None, **options):
    search = Search(knight_graph(size, size), 0, order, **(search_options or {}))
    player = Player(search, receiver.send, receiver.report, receiver.finish, **options)
    player.start(start_thread)
    return player


def test_full_speed_delivers_every_event_in_order_then_the_summary():
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


def test_no_more_than_the_window_is_sent_without_acknowledgement():
    receiver = Receiver(hold=True)
    player = play(receiver, size=6)
    assert wait_for(lambda: len(receiver.batches) == WINDOW)
    assert not wait_for(lambda: len(receiver.batches) > WINDOW, timeout=0.3)
    receiver.pending.pop(0)()
    assert wait_for(lambda: len(receiver.batches) == WINDOW + 1)
    assert not wait_for(lambda: len(receiver.batches) > WINDOW + 1, timeout=0.3)
    player.stop()


def test_paused_player_sends_one_event_per_step():
    receiver = Receiver()
    player = play(receiver, paused=True)
    assert not wait_for(lambda: receiver.batches, timeout=0.2)
    for count in (1, 2, 3):
        player.step()
        assert wait_for(lambda: len(receiver.events) == count)
    assert receiver.events == list(knight_tour(knight_graph(5, 5), 0))[:3]
    assert all(len(batch) == 1 for batch in receiver.batches)
    player.stop()


def test_pause_holds_and_resume_goes_on():
    receiver = Receiver()
    player = play(receiver, speed=200)
    assert wait_for(lambda: len(receiver.events) >= 5)
    player.pause()
    held = len(receiver.events)
    assert not wait_for(lambda: len(receiver.events) > held + MAX_BATCH, timeout=0.1)
    held = len(receiver.events)
    assert not wait_for(lambda: len(receiver.events) > held, timeout=0.3)
    player.resume()
    assert wait_for(lambda: len(receiver.events) > held)
    player.stop()


@pytest.mark.parametrize("speed", [5, 40, 500])
def test_speed_paces_the_events(speed):
    receiver = Receiver()
    player = play(receiver, size=6, speed=speed)
    threading.Event().wait(1.0)
    player.stop()
    sent = len(receiver.events)
    # Unpaced, the search would have produced hundreds of thousands of events by now.
    assert 0.1 * speed <= sent <= 2 * speed + 2


def test_speed_change_takes_effect():
    receiver = Receiver()
    player = play(receiver, size=6, speed=2)
    assert wait_for(lambda: receiver.events)
    player.set_speed(0)
    assert wait_for(lambda: len(receiver.events) > 10_000)
    player.stop()


def test_stop_ends_the_thread():
    receiver = Receiver(hold=True)
    threads = []
    search = Search(knight_graph(6, 6), 0)
    player = Player(search, receiver.send, receiver.report, receiver.finish)
    player.start(lambda fn: threads.append(start_thread(fn)))
    assert wait_for(lambda: len(receiver.batches) == WINDOW)
    player.stop()
    threads[0].join(2)
    assert not threads[0].is_alive()
    assert receiver.summary is None


def test_budget_stops_the_run_after_that_many_events():
    receiver = Receiver()
    play(receiver, budget=1000)
    assert receiver.done.wait(10)
    expected = list(knight_tour(knight_graph(5, 5), 0))[:1000]
    assert receiver.events == expected
    summary = receiver.summary
    assert (summary["stopped"], summary["found"], summary["events"]) == ("budget", False, 1000)
    assert summary["path"] == path_of(expected)
    assert summary["visits"] + summary["backtracks"] == 1000


def test_budget_that_outlasts_the_search_is_not_reported_as_hit():
    receiver = Receiver()
    play(receiver, budget=9996)  # exactly the events of the 5x5 search
    assert receiver.done.wait(10)
    assert receiver.summary["stopped"] is None and receiver.summary["found"] is True


@pytest.mark.parametrize("size, visits, backtracks", [(5, 5010, 4985), (6, 183_635, 183_599)])
def test_skip_searches_to_the_end_without_sending_events(size, visits, backtracks):
    receiver = Receiver()
    player = play(receiver, size=size, speed=10)
    assert wait_for(lambda: receiver.events)
    player.skip()
    assert receiver.done.wait(20)
    summary = receiver.summary
    assert (summary["visits"], summary["backtracks"], summary["found"]) == (visits, backtracks, True)
    assert summary["path"] == path_of(knight_tour(knight_graph(size, size), 0))
    assert len(receiver.events) < 10  # the skipped events were never sent
    for report in receiver.reports:
        assert report["skipping"] and report["visits"] - report["backtracks"] == len(report["path"])


def test_pause_cancels_a_skip_and_the_run_goes_on_from_there():
    receiver = Receiver()
    player = play(receiver, size=8, paused=True)  # 35 million events: still going when paused
    player.skip()
    assert wait_for(lambda: player.events > 500_000)
    player.pause()
    assert wait_for(lambda: receiver.reports and not receiver.reports[-1]["skipping"])
    cancelled = receiver.reports[-1]
    expected = list(itertools.islice(knight_tour(knight_graph(8, 8), 0), cancelled["events"] + 1))
    assert cancelled["path"] == path_of(expected[: cancelled["events"]])
    player.step()
    assert wait_for(lambda: receiver.events)
    assert receiver.events == [expected[cancelled["events"]]]
    player.stop()


def test_all_tours_counts_every_tour_and_keeps_the_last():
    receiver = Receiver()
    play(receiver, size=5, search_options={"all_tours": True})
    assert receiver.done.wait(30)
    summary = receiver.summary
    assert summary["found"] is True and summary["tours"] == 304
    assert summary["path"] == [] and len(summary["tour"]) == 25
