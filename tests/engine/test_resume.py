"""A search resumed from where it was left (its path, its last event, its counts) goes on exactly
as the search itself would have: what lets another process search on for it."""

import pickle

import pytest

from server.engine import legs, survey
from server.engine.graph import example_graph, knight_graph
from server.engine.search import BACKTRACK, FOUND, Search

CASES = [
    # (graph, start, order, options): boards with and without tours, every ordering, tours
    # closed and all of them, a one-square board.
    (knight_graph(3, 4), 0, "naive", {}),
    (knight_graph(3, 4), 5, "warnsdorff", {"all_tours": True}),
    (knight_graph(4, 4), 0, "naive", {}),
    (knight_graph(5, 5), 0, "warnsdorff", {}),
    (knight_graph(3, 4), 1, "warnsdorff-roth", {"all_tours": True}),
    (knight_graph(3, 4), 0, "random", {"seed": 7, "all_tours": True}),
    (knight_graph(3, 4), 0, "naive", {"closed": True, "all_tours": True}),
    (knight_graph(1, 1), 0, "naive", {"all_tours": True}),
    (knight_graph(1, 1), 0, "naive", {}),
    (example_graph(), "A", "naive", {"all_tours": True}),
]


def states(graph, start, order, options):
    """Yield (events so far, the event, path, counts) after each of a search's events."""
    search = Search(graph, start, order, **options)
    for n, event in enumerate(search, 1):
        backtracks = (n - search.tours - len(search.path)) // 2
        yield n, event, list(search.path), backtracks, search.tours, search.last_tour


def case_id(case):
    """Name a case by its board (or graph), start, ordering and options: the same in every process."""
    graph, start, order, options = case
    board = "x".join(map(str, graph.shape)) if graph.shape else "example"
    return f"{board}-{start}-{order}-{'-'.join(sorted(options)) or 'plain'}"


@pytest.mark.parametrize("case", CASES, ids=case_id)
@pytest.mark.slow
def test_a_search_resumed_after_any_event_makes_the_same_events_after_it(case):
    graph, start, order, options = case
    whole = list(Search(graph, start, order, **options))
    checked = 0
    for n, event, path, backtracks, tours, last_tour in states(graph, start, order, options):
        # The state as it crosses a pipe: copies, the kind no longer the engine's own string.
        event = pickle.loads(pickle.dumps(event))
        assert event[0] is not whole[n - 1][0] or len(event[0]) < 2
        search = Search(graph, start, order, **options)
        rest = list(search.resume(path, event, backtracks, tours, last_tour))
        assert rest == whole[n : n + len(rest)] and n + len(rest) == len(whole), f"after event {n}: {event}"
        assert search.ended and search.events_at_end() == len(whole)
        checked += 1
    assert checked == len(whole)


def test_a_resumed_search_reports_its_tours_as_the_whole_one_does():
    graph = knight_graph(5, 5)
    whole = Search(graph, 0, "naive", all_tours=False)
    events = list(whole)
    found = next(i for i, e in enumerate(events) if e[0] is FOUND)
    # Resumed one event before the tour: its tour is the whole search's.
    n = found - 1
    path = [e for e in _path_after(events[:n])]
    backtracks = (n - len(path)) // 2
    search = Search(graph, 0, "naive")
    rest = list(search.resume(path, events[n - 1], backtracks))
    assert rest[-1][0] is FOUND and search.tours == 1 and search.last_tour == whole.last_tour


def test_a_search_closed_early_does_not_claim_to_have_ended():
    search = Search(knight_graph(5, 5), 0, "naive")
    events = iter(search)
    next(events)
    events.close()
    assert not search.ended and search.backtracks is None


def _path_after(events):
    """Return the path a list of events from the start leaves."""
    path = []
    for kind, vertex, _ in events:
        if kind is BACKTRACK:
            path.pop()
        elif kind is not FOUND:
            path.append(vertex)
    return path


def test_a_boards_legs_end_as_its_whole_search_whether_it_goes_on_kept_or_from_its_state():
    board = (8, 8, 0, "-onward,random", 7, 3_000)
    whole = survey.cell(*board)
    for keep in (True, False):
        boards, answer = {}, {"state": None}
        while "state" in answer:
            answer = legs.cell_leg(boards, board, answer["state"], 0.0)  # a slice each
            if not keep:
                boards.clear()  # as another helper takes the next leg up from its state
        assert answer == {"end": whole}
