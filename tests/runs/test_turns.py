"""Turns at searching: one at a time, fair by cost between groups of shares, then between the
shares of a group, then by run."""

import threading
from contextlib import contextmanager

from server.engine.graph import knight_graph
from server.engine.search import Search
from server.runs.player import FIRST_BATCH, GROWTH, MAX_BATCH, SKIP_SLICE, Player
from server.runs.shares import NEW_FOR, ROOM, group
from server.runs.turns import KEPT, Lines, Turns
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


def test_turns_of_equal_cost_go_round_the_addresses_then_round_each_addresss_runs():
    turns = Turns(clock=Clock())  # no turn takes any time
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


def serve(lines, cost, turns):
    """Serve turns turns of lines, each charged cost(share) and its run joining again at once;
    return the seconds each share had."""
    had = {}
    for _ in range(turns):
        share, run = lines.next()
        lines.charge(share, cost(share))
        had[share] = had.get(share, 0) + cost(share)
        lines.join(share, run)
    return had


def test_a_share_whose_turns_cost_twenty_times_as_much_has_as_many_seconds_not_as_many_turns():
    lines = Lines()
    lines.join("strip", "a board")
    lines.join("skip", "a leg")
    had = serve(lines, lambda share: 2.0 if share == "strip" else 0.1, 420)
    # 20 legs for each board: the same seconds each, within one board's.
    assert abs(had["strip"] - had["skip"]) <= 2.0, had


def test_the_groups_share_by_their_weights_and_each_groups_shares_alike():
    now = 10_000_000.0
    known, new = f"10.0.0.1 {int(now - NEW_FOR):08x}{'0' * 20}", f"10.0.0.1 {int(now):08x}{'0' * 20}"
    assert group(known, lambda: now) == ("known", 1) and group(new, lambda: now) == ("new", 1)
    assert group("class:ABCD") == ("room", ROOM)
    assert group(("strip", "class:ABCD")) == ("known", 1), "the instructor's strip is no class run"
    assert group("10.0.0.1") == ("new", 1), "no badge: a script's, or a newcomer's"
    lines = Lines(lambda share: group(share, lambda: now))
    # The class's run, a known student, and forty badges minted by a script.
    flood = [f"10.0.0.1 {int(now):08x}{n:020x}" for n in range(40)]
    for share in ["class:ABCD", known, *flood]:
        lines.join(share, share)
    had = serve(lines, lambda share: 0.1, 4000)
    total = sum(had.values())
    assert had["class:ABCD"] / total >= ROOM / (ROOM + 2) - 0.01, "the room: its weight's part"
    flooded = sum(had.get(share, 0) for share in flood)
    assert abs(flooded - had[known]) <= 0.2, "forty new badges have no more than one known student"


def test_a_share_that_comes_back_keeps_its_place_but_saves_up_no_claim_by_going_quiet():
    lines = Lines(grace=0.5)
    lines.join("busy", "its run")
    serve(lines, lambda share: 0.1, 100)  # 10 s alone
    lines.join("back", "a leg")
    had = serve(lines, lambda share: 0.1, 20)
    # Back 10 s behind, it has at most its grace (0.5 s: five legs) and a turn more than the busy one.
    assert had["back"] - had["busy"] <= 0.5 + 0.1 + 1e-9 and had["busy"] > 0, had


def test_the_lines_keep_the_seconds_of_a_bounded_number_of_shares():
    lines = Lines()
    for n in range(3 * KEPT):
        lines.join(n, n)
        share, _ = lines.next()
        lines.charge(share, 0.001)
    assert len(lines._had) <= KEPT, "shares gone quiet are forgotten, down to half"
    assert not lines


def test_a_share_just_served_is_favoured_only_while_it_has_had_no_more_than_those_waiting():
    lines = Lines(group)
    lines.join("class:ABCD", "batch")
    lines.join("10.0.0.1", "leg")
    assert lines.next()[0] == "class:ABCD"
    lines.charge("class:ABCD", 0.02)
    assert not lines.favours("class:ABCD"), "the other group has had nothing yet"
    assert lines.next()[0] == "10.0.0.1"
    lines.charge("10.0.0.1", 0.1)
    lines.join("10.0.0.1", "leg")
    # The room's batch costs it a 38th of its seconds: 190 batches of 20 ms for that 0.1 s leg.
    batches = 0
    while lines.favours("class:ABCD"):
        lines.join("class:ABCD", "batch")
        assert lines.next()[0] == "class:ABCD"
        lines.charge("class:ABCD", 0.02)
        batches += 1
    assert 189 <= batches <= 191, batches
    assert lines.next()[0] == "10.0.0.1"
