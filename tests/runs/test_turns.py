"""Turns at searching: one at a time, round robin by address, then by run."""

import threading
from contextlib import contextmanager

from server.engine.graph import knight_graph
from server.engine.search import Search
from server.runs.player import FIRST_BATCH, GROWTH, MAX_BATCH, SKIP_SLICE, Player
from server.runs.turns import Turns
from tests.support.clock import Clock
from tests.support.waiting import wait_for


def queue_up(turns, addresses):
    """Start a thread per address in addresses, each waiting for a turn of its address's and then
    noting it; return the list the turns are noted in and the threads, in the order they queued."""
    order, threads = [], []
    for n, address in enumerate(addresses):

        def take(address=address, n=n):
            with turns.turn(address):
                order.append((address, n))

        thread = threading.Thread(target=take, name=f"turn-{n}")
        thread.start()
        threads.append(thread)
        assert wait_for(lambda n=n: turns.waiting() == n + 1), "each waits in line, in order"
    return order, threads


def test_turns_go_round_the_addresses_then_round_each_addresss_runs():
    turns = Turns()
    turns.acquire("held")  # taken: everyone else waits
    # A prankster's address queues five runs before two students' queue one each.
    order, threads = queue_up(turns, ["prankster"] * 5 + ["student a", "student b"])
    turns.release()
    for thread in threads:
        thread.join(5)
    assert order == [
        ("prankster", 0),
        ("student a", 5),
        ("student b", 6),
        ("prankster", 1),
        ("prankster", 2),
        ("prankster", 3),
        ("prankster", 4),
    ]
    assert turns.waiting() == 0


def test_a_turn_not_wanted_by_anyone_is_free_at_once_and_gives_way_every_so_often():
    gave_way, clock = [], Clock()
    turns = Turns(give_way=lambda: gave_way.append(clock()), every=0.005, clock=clock)
    for _ in range(3):
        with turns.turn("alone"):
            assert turns.waiting() == 0
    assert gave_way == [], "searching back to back for less than 5 ms"
    clock.advance(0.006)
    for _ in range(3):
        with turns.turn("alone"):
            pass
    assert gave_way == [1000.006], "then a turn gives way to the rest of the worker's work, once"
    taken = threading.Event()
    thread = threading.Thread(target=lambda: (turns.acquire("other"), taken.set(), turns.release()))
    thread.start()
    assert taken.wait(5), "a turn released is there for the next to take"
    thread.join(5)


def test_a_player_searching_flat_out_takes_a_turn_for_each_slice():
    turns, held = Turns(), []

    @contextmanager
    def turn():
        with turns.turn("me"):
            held.append(True)
            yield

    finished = threading.Event()
    sent = []
    search = Search(knight_graph(5, 5), 0)
    player = Player(
        search,
        lambda batch, on_ack: (sent.append(len(batch)), on_ack()),
        lambda snapshot, on_ack: on_ack(),
        lambda summary: finished.set(),
        speed=0,
        turn=turn,
    )
    player.start(lambda fn: threading.Thread(target=fn, daemon=True).start())
    assert finished.wait(30)
    # Each batch was acknowledged at once, so each could hold GROWTH times the one before. Those
    # that could hold a slice or more were taken in turns, a slice (or what was left of the run)
    # at a time; the first, smaller ones at once, as a paced run's are.
    sliced = [size for n, size in enumerate(sent) if min(MAX_BATCH, FIRST_BATCH * GROWTH**n) >= SKIP_SLICE]
    assert sum(sent) == 9996 and sliced and all(sent)
    assert len(held) == sum(-(-size // SKIP_SLICE) for size in sliced)
