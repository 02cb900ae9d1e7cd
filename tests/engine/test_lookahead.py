"""Predicting the search's next event from its path, against the search itself, at every event."""

import itertools
import threading
from collections import Counter

import pytest

from server.engine import BACKTRACK, FOUND, VISIT, Search, example_graph, knight_graph, upcoming
from server.engine.orderings import ORDERINGS
from server.runs.player import Player
from tests.support.waiting import wait_for

CAP = 5000  # events checked of a long search; the whole search below that
SEEDS = {"random": [0, 7, 4294967295]}
ORDERS = [(order, seed) for order in ORDERINGS for seed in SEEDS.get(order, [0])]
# (rows, cols, start, options, every ordering backtracks on it)
BOARDS = [
    (5, 5, 0, {}, False),  # Warnsdorff finds this tour straight away
    (5, 5, 1, {}, True),  # no tour starts on the minority colour: the search backs up a lot
    (3, 4, 0, {}, False),
    (3, 4, 0, {"closed": True}, True),
    (4, 4, 0, {"all_tours": True}, True),
    (3, 4, 0, {"all_tours": True}, True),
    (5, 5, 0, {"closed": True}, True),
    (6, 6, 0, {}, False),
    (1, 1, 0, {}, False),
    (1, 1, 0, {"closed": True}, False),
    (1, 1, 0, {"all_tours": True}, False),
]


def checked(search, cap=CAP):
    """Check upcoming() against every event of a search; return how often each kind followed each."""
    events = iter(search)
    last, seen = None, Counter()
    for _ in range(cap + 1):
        # Asked before the search moves on: the generator changes the path as it yields.
        expected = upcoming(search, last)
        event = next(events, None)
        assert expected == event, f"after {last}, with path {search.path}"
        if event is None:
            seen["end"] += 1
            break
        seen[(None if last is None else last[0], event[0])] += 1
        last = event
    return seen


@pytest.mark.parametrize(("order", "seed"), ORDERS)
@pytest.mark.parametrize(("rows", "cols", "start", "options", "backs"), BOARDS)
@pytest.mark.slow
def test_the_prediction_is_the_next_event_at_every_event(order, seed, rows, cols, start, options, backs):
    search = Search(knight_graph(rows, cols), start, order, seed=seed, **options)
    seen = checked(search)
    if backs:
        # Each way a backtrack comes about, and what follows one, was predicted.
        for pair in ((VISIT, BACKTRACK), (BACKTRACK, VISIT), (BACKTRACK, BACKTRACK)):
            assert seen[pair] > 0, pair
    if options.get("all_tours") and rows * cols > 1:
        assert seen["end"] == 1


def test_a_naive_search_is_predicted_through_its_thousands_of_backtracks():
    seen = checked(Search(knight_graph(5, 5), 0), 10_000)
    assert seen[(VISIT, FOUND)] == 1 and seen["end"] == 1
    assert seen[(BACKTRACK, VISIT)] > 1000 and seen[(BACKTRACK, BACKTRACK)] > 1000


def test_a_search_with_all_tours_is_predicted_past_each_tour_to_its_end():
    seen = checked(Search(knight_graph(3, 4), 0, all_tours=True))
    assert seen[(VISIT, FOUND)] == seen[(FOUND, BACKTRACK)] == 2 and seen["end"] == 1


def test_a_closed_search_predicts_the_backtrack_from_a_full_path_that_does_not_close():
    search = Search(knight_graph(3, 4), 0, closed=True)
    assert checked(search)["end"] == 1
    assert search.tours == 0 and search.backtracks > 0


def test_a_one_square_board_is_a_tour_unless_it_must_close():
    for closed, expected in ((False, [VISIT, FOUND]), (True, [VISIT, BACKTRACK])):
        search = Search(knight_graph(1, 1), 0, closed=closed)
        assert checked(search)["end"] == 1
        assert [kind for kind, _, _ in search] == expected


@pytest.mark.parametrize("order", ["naive", "warnsdorff", "random"])
def test_the_example_graph_is_predicted_by_vertex_number(order):
    search = Search(example_graph(), "A", order, all_tours=True)
    seen = checked(search)
    assert seen[(BACKTRACK, VISIT)] > 0 and seen["end"] == 1


def test_the_prediction_leaves_the_search_as_it_was():
    search = Search(knight_graph(5, 5), 0)
    events = iter(search)
    for event in itertools.islice(events, 40):
        path = list(search.path)
        upcoming(search, event)
        assert search.path == path
    assert list(itertools.islice(events, 5)) == list(Search(knight_graph(5, 5), 0))[40:45]


@pytest.mark.parametrize("order", ORDERINGS)
@pytest.mark.slow
def test_a_large_board_is_predicted_at_every_event(order):
    search = Search(knight_graph(30, 30), 0, order)
    assert sum(checked(search, 500).values()) == 501, "the search ended before 500 events were checked"


class Receiver:
    """Keep what a player sends, acknowledging each batch and report at once."""

    def __init__(self):
        self.events, self.reports = [], []
        self._lock = threading.Lock()

    def send(self, batch, on_ack):
        """Keep a batch's events and acknowledge it."""
        with self._lock:
            self.events.extend(batch)
        on_ack()

    def report(self, snapshot, on_ack):
        """Keep a progress report and acknowledge it."""
        with self._lock:
            self.reports.append(snapshot)
        on_ack()

    def finish(self, summary):
        """Take no note of the end: these tests stop their players first."""

    def count(self):
        """Return how many events have arrived."""
        with self._lock:
            return len(self.events)


@pytest.fixture
def player():
    """Return player(receiver, size, **options): a started Player of a naive search from a corner."""
    made, threads = [], []

    def start_thread(fn):
        threads.append(threading.Thread(target=fn, name="player"))
        threads[-1].start()

    def player(receiver, size=5, **options):
        search = Search(knight_graph(size, size), 0)
        made.append(Player(search, receiver.send, receiver.report, receiver.finish, **options))
        made[-1].start(start_thread)
        return made[-1]

    yield player
    for each in made:
        each.stop()
    for thread in threads:
        thread.join(5)


def step_and_check(player, receiver, steps):
    """Step a paused player, checking each time that it sends the event it predicted."""
    for _ in range(steps):
        before = receiver.count()
        asked = player.upcoming()
        player.step()
        assert wait_for(lambda n=before: receiver.count() == n + 1)
        assert asked["next"] == receiver.events[-1], f"event {asked['events']}"
        now = player.upcoming()
        assert now["events"] == asked["events"] + 1 and now["last"] == receiver.events[-1]


def test_a_paused_player_predicts_each_event_it_steps_to(player):
    receiver = Receiver()
    run = player(receiver, paused=True)
    assert run.upcoming() == {"events": 0, "path": [], "last": None, "next": (VISIT, 0, 0)}
    assert run.last is None
    step_and_check(run, receiver, 40)  # the naive 5x5 search backs up first at event 13
    assert any(kind == BACKTRACK for kind, _, _ in receiver.events)
    asked = run.upcoming()
    assert asked["path"] == run.search.path and asked["path"] is not run.search.path


def test_a_player_that_caught_up_unsent_predicts_from_there(player):
    receiver = Receiver()
    run = player(receiver, paused=True, resume_at=5000)
    assert wait_for(lambda: run.upcoming()["events"] == 5000)
    assert run.last == list(itertools.islice(Search(knight_graph(5, 5), 0), 5000))[-1]
    step_and_check(run, receiver, 5)


def test_a_player_paused_while_skipping_predicts_from_where_it_stopped(player):
    receiver = Receiver()
    run = player(receiver, size=6, paused=True)
    run.skip()
    assert wait_for(lambda: run.upcoming()["events"] > 20_000)
    run.pause()
    assert wait_for(lambda: receiver.reports and not receiver.reports[-1]["skipping"])
    assert receiver.count() == 0
    step_and_check(run, receiver, 5)
