"""Golden vectors of the engine's orderings, which the page's twin (static/js/orderings.js) must match.

`python -m tests.support.golden` writes them to tests/fixtures/orderings.json; a Python test
checks the file still matches the engine, and a JavaScript test checks the page against it.
"""

import itertools
import json
from pathlib import Path

from server.engine import VISIT, Search, knight_graph
from server.engine.orderings import ORDERINGS

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "orderings.json"
BOARDS = [(1, 1), (3, 4), (5, 5), (6, 6), (4, 7), (8, 8), (9, 6)]
SEEDS = {"random": [0, 7, 4294967295]}
POSITIONS = 12  # positions taken from each search, spread over its first events
EVENTS = 3000


def positions(graph, order, seed):
    """Yield (path, square) at visits spread over a real search's first events."""
    search = Search(graph, 0, order, seed=seed)
    visits = [list(search.path) for kind, _, _ in itertools.islice(search, EVENTS) if kind == VISIT]
    step = max(1, len(visits) // POSITIONS)
    yield from ((path, path[-1]) for path in visits[::step][:POSITIONS])


def vectors():
    """Return the cases: each board's moves, and the order of tries from sampled positions."""
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
    return {"moves": boards, "orderings": cases}


if __name__ == "__main__":
    FIXTURE.write_text(json.dumps(vectors(), separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"wrote {FIXTURE}")
