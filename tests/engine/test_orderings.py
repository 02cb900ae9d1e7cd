"""The engine's orderings against the golden vectors that the page's twin is checked against."""

import itertools
import json

import pytest

from server.engine import Search, example_graph, knight_graph
from server.engine.orderings import KEYS, NAMED, NEVER_TIE, idle_keys, ordering, parse
from tests.support.golden import FIXTURE, vectors


def test_the_golden_vectors_are_the_engines_own():
    # If this fails after a change to the engine, rewrite them: python -m tests.support.golden
    assert json.loads(FIXTURE.read_text(encoding="utf-8")) == vectors()


def test_the_golden_vectors_cover_every_ordering_and_every_board():
    golden = json.loads(FIXTURE.read_text(encoding="utf-8"))
    cases = golden["orderings"]
    assert {case["order"] for case in cases} == {"naive", "warnsdorff", "warnsdorff-roth", "random"}
    boards = {f"{case['rows']}x{case['cols']}" for case in cases}
    assert boards == set(golden["moves"]) and len(boards) >= 5
    assert any(len(case["tries"]) >= 2 and case["tries"] != sorted(case["tries"]) for case in cases)


CASES = json.loads((FIXTURE.parent / "ordering_cases.json").read_text(encoding="utf-8"))


def test_each_key_and_composed_ordering_tries_the_hand_worked_positions_moves_in_their_order():
    for position in CASES["positions"]:
        rows, cols = position["board"]
        graph, path = knight_graph(rows, cols), position["path"]
        square = path[-1]
        assert list(graph.adjacency[square]) == position["moves"]
        visited = bytearray(len(graph))
        for on in path:
            visited[on] = 1
        for order, tries in position["orders"].items():
            got = ordering(order, graph, visited, 0, path[0])(square)
            assert list(got) == tries, f"{order} from {square} on {rows}x{cols} after {path}"


@pytest.mark.parametrize("written", CASES["refused"])
def test_a_written_form_with_an_unknown_repeated_or_surplus_key_is_refused_saying_why(written):
    with pytest.raises(ValueError, match="unknown order|twice|at most 8 keys"):
        parse(written)


def test_every_named_ordering_is_its_written_form_and_searches_as_it():
    # The same search, event for event, whether the ordering is named or written out.
    for name, written in NAMED.items():
        graph = knight_graph(5, 5)
        named = list(itertools.islice(Search(graph, 0, name, seed=3), 20_000))
        assert named == list(itertools.islice(Search(graph, 0, written, seed=3), 20_000)), name


def test_the_random_key_shuffles_each_squares_moves_by_the_seed():
    graph = knight_graph(6, 6)
    visited = bytearray(36)
    orders = [ordering("random", graph, visited, seed)(14) for seed in range(4)]
    assert all(sorted(order) == sorted(graph.adjacency[14]) for order in orders)
    assert len({tuple(order) for order in orders}) > 1, "every seed gave the same order"
    assert list(ordering("-random", graph, visited, 2)(14)) == list(reversed(orders[2]))


def test_a_key_that_reads_a_board_is_refused_on_a_graph_without_one():
    for order in ("centre", "onward,-edge", "warnsdorff-roth"):
        with pytest.raises(ValueError, match="needs a board"):
            Search(example_graph(), 0, order)
    assert list(Search(example_graph(), "A", "pohl,-index", all_tours=True))  # no board needed


def lists(order, graph):
    """Return each square's moves in the order an ordering tries them, with nothing visited."""
    try_from = ordering(order, graph, [False] * len(graph), seed=7, start=0)
    return [try_from(u) for u in range(len(graph))]


@pytest.mark.parametrize("key", KEYS)
def test_a_key_said_never_to_tie_leaves_the_keys_after_it_nothing_to_decide_and_no_other_key_does(key):
    boards = [knight_graph(n, n) for n in (5, 6, 8)]
    decided = {
        other
        for other in KEYS
        if other != key
        for sign in ("", "-")
        for graph in boards
        if lists(f"{key},{sign}{other}", graph) != lists(key, graph)
    }
    if key in NEVER_TIE:
        assert decided == set(), f"{key} is said never to tie, yet {sorted(decided)} decide after it"
        assert idle_keys(f"onward,{key},-centre,edge") == [("centre", True), ("edge", False)]
    else:
        assert decided, f"no key decides anything after {key}: it belongs in NEVER_TIE"
        assert idle_keys(f"{key},moves") == []
