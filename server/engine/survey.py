"""An ordering tried on many boards: how each search of a strip of boards ends, board by board.

Each board's search runs until it finds a tour, runs out of moves (the board has no tour from
that start), or has backtracked `budget` times. What a board's cell tells: solved with no backtrack
("clean"), solved after some ("backtracked"), stopped at the budget ("stopped"), or searched
through with no tour ("none").
"""

from .graph import knight_graph
from .search import BACKTRACK, FOUND, Search

CLEAN, BACKTRACKED, STOPPED, NONE = "clean", "backtracked", "stopped", "none"
LOST = "lost"  # the process searching the board ended first (the server's to say, not the search's)


def cell(rows, cols, start, order, seed, budget):
    """Search one board from start with an ordering, up to budget backtracks; return how it
    ended: {outcome, backtracks, events}."""
    backtracks = events = 0
    outcome = NONE
    for kind, _, _ in Search(knight_graph(rows, cols), start, order, seed=seed):
        events += 1
        if kind == FOUND:
            outcome = BACKTRACKED if backtracks else CLEAN
            break
        if kind == BACKTRACK:
            backtracks += 1
            if backtracks == budget:
                outcome = STOPPED
                break
    return {"outcome": outcome, "backtracks": backtracks, "events": events}
