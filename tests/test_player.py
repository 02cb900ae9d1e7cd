"""The player: batching, the acknowledgement window, pause, step, speed and stop."""

import threading

import pytest

from server.graph import knight_graph
from server.player import MAX_BATCH, WINDOW, Player
from server.search import knight_tour

from .conftest import wait_for


def start_thread(fn):
    thread = threading.Thread(target=fn, daemon=True)
    thread.start()
    return thread


class Receiver:
    """Collects batches; acknowledges each one at once unless told to hold them."""

    def __init__(self, hold=False):
        self.batches, self.pending, self.summary = [], [], None
        self.hold = hold
        self.done = threading.Event()

    def send(self, batch, on_ack):
        self.batches.append(batch)
        if self.hold:
            self.pending.append(on_ack)
        else:
            on_ack()

    def finish(self, summary):
        self.summary = summary
        self.done.set()

    @property
    def events(self):
        return [event for batch in self.batches for event in batch]


def play(receiver, size=5, order="naive", **options):
    events = knight_tour(knight_graph(size, size), 0, order)
    player = Player(events, receiver.send, receiver.finish, **options)
    player.start(start_thread)
    return player


def test_full_speed_delivers_every_event_in_order_then_the_summary():
    receiver = Receiver()
    play(receiver)
    assert receiver.done.wait(10)
    expected = list(knight_tour(knight_graph(5, 5), 0))
    assert receiver.events == expected
    assert all(len(batch) <= MAX_BATCH for batch in receiver.batches)
    assert receiver.summary["found"] is True
    assert (receiver.summary["visits"], receiver.summary["backtracks"]) == (5010, 4985)
    assert len(receiver.summary["path"]) == 25


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
    assert 0.3 * speed <= sent <= 2 * speed + 2


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
    events = knight_tour(knight_graph(6, 6), 0)
    player = Player(events, receiver.send, receiver.finish)
    player.start(lambda fn: threads.append(start_thread(fn)))
    assert wait_for(lambda: len(receiver.batches) == WINDOW)
    player.stop()
    threads[0].join(2)
    assert not threads[0].is_alive()
    assert receiver.summary is None
