"""The search engine: the textbook's traces, legal tours, and refusals of bad arguments."""

import inspect
import itertools
import sys
import tracemalloc
from collections import Counter, deque
from pathlib import Path

import pytest

import server.engine
from server.engine.graph import example_graph, knight_graph
from server.engine.search import BACKTRACK, FOUND, VISIT, Search, knight_tour
from tests import textbook
from tests.support.replay import path_of

ENGINE = Path(server.engine.__file__).parent


def run(rows, cols, start=0, order="naive"):
    """Return the events of the search on a rows x cols board."""
    return list(knight_tour(knight_graph(rows, cols), start, order))


def assert_tour(rows, cols, path):
    """Assert that path visits every square once, each step a knight's move."""
    assert sorted(path) == list(range(rows * cols)), "a tour visits every square exactly once"
    for a, b in itertools.pairwise(path):
        (ra, ca), (rb, cb) = divmod(a, cols), divmod(b, cols)
        assert {abs(ra - rb), abs(ca - cb)} == {1, 2}, f"{a} -> {b} is not a knight's move"


def test_example_graph_follows_the_textbooks_walkthrough():
    assert list(knight_tour(example_graph(), "A")) == [
        (VISIT, "A", 0),
        (VISIT, "B", 1),
        (VISIT, "C", 2),
        (BACKTRACK, "C", 2),
        (VISIT, "D", 2),
        (VISIT, "E", 3),
        (VISIT, "F", 4),
        (VISIT, "C", 5),
        (FOUND, "C", 5),
    ]


@pytest.mark.parametrize(
    "size, visits, backtracks",
    [(5, 5_010, 4_985), (6, 183_635, 183_599), (7, 137_459, 137_410)],
)
def test_naive_counts_match_the_textbooks_code(size, visits, backtracks):
    counts = Counter(kind for kind, _, _ in run(size, size))
    assert counts == {VISIT: visits, BACKTRACK: backtracks, FOUND: 1}


@pytest.mark.parametrize(
    "rows, cols, start, order",
    [
        (5, 5, 0, "naive"),
        (5, 5, 12, "naive"),
        (5, 5, 1, "naive"),
        (3, 4, 0, "naive"),
        (4, 4, 0, "naive"),
        (3, 3, 0, "naive"),
        (4, 5, 7, "naive"),
        (1, 1, 0, "naive"),
        (5, 5, 0, "warnsdorff"),
        (6, 6, 0, "warnsdorff"),
        (8, 8, 0, "warnsdorff"),
        (7, 7, 24, "warnsdorff"),
        (3, 4, 0, "warnsdorff"),
        (4, 4, 5, "warnsdorff"),
        (6, 5, 3, "warnsdorff"),
    ],
)
@pytest.mark.slow
def test_trace_is_the_textbooks_event_for_event(rows, cols, start, order):
    expected, expected_path = textbook.trace(rows, cols, start, order)
    events = run(rows, cols, start, order)
    assert events == expected
    assert (path_of(events) if events[-1][0] == FOUND else None) == expected_path


@pytest.mark.parametrize("size", [5, 6, 8])
def test_warnsdorff_finds_a_tour_without_backtracking(size):
    events = run(size, size, 0, "warnsdorff")
    assert Counter(kind for kind, _, _ in events) == {VISIT: size * size, FOUND: 1}
    assert_tour(size, size, path_of(events))


@pytest.mark.parametrize(
    "rows, cols, start, order",
    [
        (5, 5, 0, "naive"),
        (5, 5, 24, "naive"),
        (3, 4, 0, "naive"),
        (6, 6, 0, "naive"),
        (3, 7, 0, "warnsdorff"),
        (5, 5, 0, "warnsdorff"),
        (8, 8, 27, "warnsdorff"),
    ],
)
def test_a_found_tour_is_a_legal_knights_path_over_every_square(rows, cols, start, order):
    events = run(rows, cols, start, order)
    assert events[-1][0] == FOUND
    path = path_of(events)
    assert path[0] == start and events[-1][1:] == (path[-1], rows * cols - 1)
    assert_tour(rows, cols, path)


@pytest.mark.parametrize("size", [2, 3, 4])
def test_no_tour_ends_by_backtracking_out_of_the_start(size):
    events = run(size, size)
    assert FOUND not in {kind for kind, _, _ in events}
    assert events[-1] == (BACKTRACK, 0, 0)
    assert path_of(events) == []


@pytest.mark.slow
def test_odd_square_on_five_by_five_has_no_tour():
    # Colour parity: on 5x5 a tour starts on a square with row + col even.
    events = run(5, 5, 1)
    assert events[-1] == (BACKTRACK, 1, 0)


def test_search_is_lazy_and_iterative():
    graph = knight_graph(40, 40)
    events = knight_tour(graph, 0, "warnsdorff")
    assert inspect.isgenerator(events)
    assert next(events) == (VISIT, 0, 0)
    deepest = max(depth for _, _, depth in itertools.islice(events, 1500))
    assert deepest > sys.getrecursionlimit()  # deeper than any recursive search could go


@pytest.mark.parametrize(
    "graph, start, order, named",
    [
        (knight_graph(5, 5), 25, "naive", "25"),
        (knight_graph(5, 5), -1, "naive", "-1"),
        (knight_graph(5, 5), "0", "naive", "'0'"),
        (knight_graph(5, 5), 0, "alphabetical", "'alphabetical'"),
        (example_graph(), "Z", "naive", "'Z'"),
    ],
)
def test_bad_arguments_raise_value_error_naming_the_value(graph, start, order, named):
    with pytest.raises(ValueError, match=named):
        knight_tour(graph, start, order)


# Every ordering, boards from 1x1 to 8x8 and rectangular ones, within a budget of events.
ORDERS = ["naive", "warnsdorff", "warnsdorff-roth", "random"]
BOARDS = [(r, c) for r in range(1, 9) for c in range(r, 9)] + [(3, 10), (5, 9), (7, 4)]
BUDGET = 60_000


def tours_within(rows, cols, start=0, order="naive", budget=BUDGET, **options):
    """Return the paths of the tours a search reports within a budget of events."""
    search = Search(knight_graph(rows, cols), start, order, **options)
    tours, path = [], []
    # The path is rebuilt here from the events alone, not read from the search.
    for kind, vertex, depth in itertools.islice(search, budget):
        if kind == VISIT:
            assert depth == len(path)
            path.append(vertex)
        elif kind == BACKTRACK:
            assert path.pop() == vertex
        else:
            tours.append(list(path))
    return tours


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("rows, cols", BOARDS)
def test_every_reported_tour_is_a_legal_path_over_every_square(order, rows, cols):
    for path in tours_within(rows, cols, 0, order, all_tours=True):
        assert path[0] == 0
        assert_tour(rows, cols, path)


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("rows, cols, start, budget", [(3, 10, 0, None), (6, 8, 3, 300_000)])
@pytest.mark.slow
def test_closed_tours_close(order, rows, cols, start, budget):
    tours = tours_within(rows, cols, start, order, budget=budget, closed=True, all_tours=True)
    if budget is None:
        # The 3x10 board has 16 closed tours (OEIS A070030), so 32 directed ones through a square.
        assert len(tours) == 32, "every ordering finds all 32 closed tours through a square"
    for path in tours:
        assert_tour(rows, cols, path)
        (r0, c0), (r1, c1) = divmod(path[0], cols), divmod(path[-1], cols)
        assert {abs(r0 - r1), abs(c0 - c1)} == {1, 2}, "the last square is a move from the first"


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.slow
def test_the_number_of_tours_does_not_depend_on_the_ordering(order):
    tours = tours_within(5, 5, 0, order, budget=None, all_tours=True)
    # 304 of the 5x5 board's 1,728 directed open tours start in a corner (OEIS A165134).
    assert len(tours) == len({tuple(path) for path in tours}) == 304


@pytest.mark.parametrize(
    "rows, cols, start, closed",
    [
        (3, 4, 0, False),
        (3, 4, 1, False),
        (3, 4, 5, False),
        (4, 5, 0, False),
        (4, 5, 6, False),
        (3, 7, 0, False),
        (3, 8, 0, False),
        (5, 5, 0, False),
        (5, 5, 12, False),
        (3, 10, 0, True),
        (3, 10, 1, True),
        (4, 5, 0, True),
        (5, 5, 0, True),
        (4, 6, 0, True),
    ],
)
@pytest.mark.slow
def test_all_tours_counts_match_an_independent_exhaustive_count(rows, cols, start, closed):
    search = Search(knight_graph(rows, cols), start, "naive", all_tours=True, closed=closed)
    counts = Counter(kind for kind, _, _ in search)
    assert counts[FOUND] == search.tours == textbook.count_tours(rows, cols, start, closed)
    assert counts[VISIT] == counts[BACKTRACK], "the search backs all the way out"


@pytest.mark.parametrize("size", [26, 27])
def test_roths_tie_break_keeps_warnsdorff_from_stalling(size):
    graph = knight_graph(size, size)
    plain = Counter(kind for kind, _, _ in itertools.islice(Search(graph, 0, "warnsdorff"), 100_000))
    roth = Counter(kind for kind, _, _ in Search(graph, 0, "warnsdorff-roth"))
    assert plain[FOUND] == 0 and plain[BACKTRACK] > 10_000
    assert roth == {VISIT: size * size, FOUND: 1}


def test_random_order_repeats_with_its_seed_and_varies_with_another():
    def run_seeded(seed):
        return list(itertools.islice(Search(knight_graph(6, 6), 0, "random", seed=seed), 5_000))

    assert run_seeded(7) == run_seeded(7)
    assert run_seeded(7) != run_seeded(8)


@pytest.mark.slow
def test_a_runs_memory_depends_on_the_board_not_the_events():
    search = iter(Search(knight_graph(8, 8), 0))
    deque(itertools.islice(search, 200_000), maxlen=0)
    tracemalloc.start()
    try:
        deque(itertools.islice(search, 1_000_000), maxlen=0)
        snapshot = tracemalloc.take_snapshot()
    finally:
        tracemalloc.stop()
    # Only what the engine's own code allocated and still holds (tracemalloc sees every thread).
    engine = snapshot.filter_traces([tracemalloc.Filter(True, str(ENGINE / "*"))])
    grown = sum(stat.size for stat in engine.statistics("filename"))
    assert grown < 16_000  # bytes: a million events later, nothing has piled up


@pytest.mark.slow
def test_large_board_builds_and_warnsdorff_roth_tours_it():
    graph = knight_graph(200, 150)
    assert len(graph) == 30_000
    search = Search(graph, 0, "warnsdorff-roth")
    counts = Counter(kind for kind, _, _ in search)
    assert counts == {VISIT: 30_000, FOUND: 1}
    assert_tour(200, 150, search.path)


@pytest.mark.parametrize(
    "options, named",
    [
        ({"closed": "yes"}, "closed .* 'yes'"),
        ({"all_tours": 1}, "all_tours .* 1"),
        ({"seed": "7"}, "seed .* '7'"),
        ({"seed": 1.5}, "seed .* 1.5"),
    ],
)
def test_bad_options_raise_value_error_naming_the_value(options, named):
    with pytest.raises(ValueError, match=named):
        Search(knight_graph(5, 5), 0, **options)


def test_roth_needs_a_board():
    with pytest.raises(ValueError, match="warnsdorff-roth"):
        Search(example_graph(), "A", "warnsdorff-roth")


@pytest.mark.parametrize(
    "rows, cols, start, options",
    [
        (1, 1, 0, {}),
        (1, 1, 0, {"closed": True}),
        (3, 3, 0, {}),
        (5, 5, 0, {}),
        (5, 5, 1, {}),
        (3, 4, 0, {"all_tours": True}),
        (3, 10, 0, {"closed": True}),
        (6, 6, 0, {"order": "warnsdorff"}),
    ],
)
@pytest.mark.slow
def test_a_finished_search_knows_how_many_events_it_made(rows, cols, start, options):
    search = Search(knight_graph(rows, cols), start, **options)
    events = list(search)
    assert search.ended and search.events_at_end() == len(events)
    assert search.backtracks == sum(1 for kind, _, _ in events if kind == BACKTRACK)
