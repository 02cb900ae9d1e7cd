"""Golden vectors of the engine's orderings, which the page's twin must match
(static/js/orderings/orderings.js).

`python -m tests.support.golden` writes them to tests/fixtures/orderings.json; a Python test
checks the file still matches the engine, and JavaScript tests check the page against it: the
orderings, and the events of whole searches (traces) that the page's foresight must predict, under
the server's limits on an ordering (its keys, its name's letters) that the page is given.
"""

import itertools
import json
from pathlib import Path

from server.classes.tournament.checks import MAX_NAME
from server.engine import VISIT, Search, example_graph, knight_graph
from server.engine.orderings import MAX_KEYS, ORDERINGS, needs_board
from server.wire import encode

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "orderings.json"
BOARDS = [(1, 1), (3, 4), (5, 5), (6, 6), (4, 7), (8, 8), (9, 6)]
SEEDS = {"random": [0, 7, 4294967295]}
POSITIONS = 12  # positions taken from each search, spread over its first events
EVENTS = 3000
# Searches traced for each ordering, as (rows, cols, start, options): dead ends, tours (closed or
# not, one or all) and the one-square board; the long ones are cut after TRACE_EVENTS events.
TRACED = [
    (3, 4, 0, {"all_tours": True}),
    (3, 4, 0, {"closed": True}),
    (5, 5, 1, {}),
    (4, 4, 0, {"all_tours": True}),
    (6, 6, 0, {}),
    (1, 1, 0, {}),
    (1, 1, 0, {"closed": True}),
]
TRACE_EVENTS = 400


def positions(graph, order, seed):
    """Yield (path, square) at visits spread over a real search's first events."""
    search = Search(graph, 0, order, seed=seed)
    visits = [list(search.path) for kind, _, _ in itertools.islice(search, EVENTS) if kind == VISIT]
    step = max(1, len(visits) // POSITIONS)
    yield from ((path, path[-1]) for path in visits[::step][:POSITIONS])


def trace(graph, start, order, seed, options):
    """Return a search's settings and its first TRACE_EVENTS events, as the wire sends them."""
    events = iter(Search(graph, graph.vertices()[start], order, seed=seed, **options))
    codes = encode(itertools.islice(events, TRACE_EVENTS))
    rows, cols = graph.shape or (1, len(graph))
    return {
        "graph": "knight" if graph.shape else "example",
        "rows": rows,
        "cols": cols,
        "start": start,
        "order": order,
        "seed": seed,
        "closed": options.get("closed", False),
        "all_tours": options.get("all_tours", False),
        "ended": next(events, None) is None,  # else cut short: more events follow the last
        "events": codes,
        **({} if graph.shape else {"moves": [list(m) for m in graph.adjacency]}),
    }


def traces():
    """Return the traces of the TRACED searches, and of the example graph, for every ordering."""
    cases = []
    for order in ORDERINGS:
        for seed in SEEDS.get(order, [0]):
            for rows, cols, start, options in TRACED:
                cases.append(trace(knight_graph(rows, cols), start, order, seed, options))
            if not needs_board(order):
                cases.append(trace(example_graph(), 0, order, seed, {"all_tours": True}))
    return cases


def vectors():
    """Return the cases: each board's moves, the order of tries from sampled positions, traces."""
    cases = []
    for rows, cols in BOARDS:
        graph = knight_graph(rows, cols)
        for order in ORDERINGS:
            for seed in SEEDS.get(order, [0]):
                for path, square in positions(graph, order, seed):
                    visited = bytearray(len(graph))
                    for on in path:
                        visited[on] = 1
                    tries = ORDERINGS[order](graph, visited, seed)(square)
                    cases.append(
                        {
                            "rows": rows,
                            "cols": cols,
                            "order": order,
                            "seed": seed,
                            "path": path,
                            "square": square,
                            "tries": list(tries),
                        }
                    )
    boards = {
        f"{rows}x{cols}": [list(m) for m in knight_graph(rows, cols).adjacency] for rows, cols in BOARDS
    }
    limits = {"maxKeys": MAX_KEYS, "maxOrderName": MAX_NAME}  # as the page's limits name them
    return {"moves": boards, "orderings": cases, "traces": traces(), "limits": limits}


if __name__ == "__main__":
    FIXTURE.write_text(json.dumps(vectors(), separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"wrote {FIXTURE}")
