"""The search engine: the textbook's traces, legal tours, and refusals of bad arguments."""

import inspect
import itertools
import sys
from collections import Counter

import pytest

from server.graph import example_graph, knight_graph
from server.search import BACKTRACK, FOUND, VISIT, knight_tour

from . import textbook
from .conftest import path_of


def run(rows, cols, start=0, order="naive"):
    return list(knight_tour(knight_graph(rows, cols), start, order))


def assert_tour(rows, cols, path):
    assert sorted(path) == list(range(rows * cols)), "a tour visits every square exactly once"
    for a, b in itertools.pairwise(path):
        (ra, ca), (rb, cb) = divmod(a, cols), divmod(b, cols)
        assert {abs(ra - rb), abs(ca - cb)} == {1, 2}, f"{a} -> {b} is not a knight's move"


def test_example_graph_follows_the_textbooks_walkthrough():
    assert list(knight_tour(example_graph(), "A")) == [
        (VISIT, "A", 0), (VISIT, "B", 1), (VISIT, "C", 2), (BACKTRACK, "C", 2),
        (VISIT, "D", 2), (VISIT, "E", 3), (VISIT, "F", 4), (VISIT, "C", 5), (FOUND, "C", 5),
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
        (5, 5, 0, "naive"), (5, 5, 12, "naive"), (5, 5, 1, "naive"), (3, 4, 0, "naive"),
        (4, 4, 0, "naive"), (3, 3, 0, "naive"), (4, 5, 7, "naive"), (1, 1, 0, "naive"),
        (5, 5, 0, "warnsdorff"), (6, 6, 0, "warnsdorff"), (8, 8, 0, "warnsdorff"),
        (7, 7, 24, "warnsdorff"), (3, 4, 0, "warnsdorff"), (4, 4, 5, "warnsdorff"),
        (6, 5, 3, "warnsdorff"),
    ],
)
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
    [(5, 5, 0, "naive"), (5, 5, 24, "naive"), (3, 4, 0, "naive"), (6, 6, 0, "naive"),
     (3, 7, 0, "warnsdorff"), (5, 5, 0, "warnsdorff"), (8, 8, 27, "warnsdorff")],
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
