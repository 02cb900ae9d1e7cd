"""An ordering tried on many boards: how each search of a strip of boards ends, board by board.

Each board's search runs until it finds a tour, runs out of moves (the board has no tour from
that start), or has backtracked `budget` times. What a board's cell tells: solved with no backtrack
("clean"), solved after some ("backtracked"), stopped at the budget ("stopped"), or searched
through with no tour ("none").
"""

from functools import lru_cache
from itertools import islice

from .graph import knight_graph
from .search import BACKTRACK, FOUND, Search

CLEAN, BACKTRACKED, STOPPED, NONE = "clean", "backtracked", "stopped", "none"
LOST = "lost"  # the process searching the board ended first (the server's to say, not the search's)

# A strip tries its orderings on each board in turn: one graph serves them all. (Building a
# 100x100 board's graph is the costliest step a board's search cannot cut, some 30 ms.)
_graph = lru_cache(maxsize=4)(knight_graph)


class Board:
    """One board's search taken a piece at a time, so that whoever searches it can do something
    else between two pieces: it ends as cell() ends it, however it is cut. Where it got to is
    plain data (state()), from which another process goes on (Board(..., state=...))."""

    def __init__(self, rows, cols, start, order, seed, budget, state=None):
        self._search = Search(_graph(rows, cols), start, order, seed=seed)
        self._budget = budget
        self.backtracks = self.events = 0
        self.end = None  # {outcome, backtracks, events} once the search has ended
        self._last = None  # the last event searched
        if state is None:
            self._events = iter(self._search)
        else:
            self.backtracks, self.events, self._last = state["backtracks"], state["events"], state["last"]
            self._events = self._search.resume(state["path"], self._last, self.backtracks)

    def state(self):
        """Return where the search got to, as plain data (for a board that goes on)."""
        return {
            "path": list(self._search.path),
            "last": self._last,
            "backtracks": self.backtracks,
            "events": self.events,
        }

    def search(self, count=None):
        """Search up to count more events (None: to the end); return how the board ended
        (see cell), or None if it goes on."""
        if self.end is not None:
            return self.end
        backtracks, events, budget = self.backtracks, self.events, self._budget
        outcome, taken, event = None, 0, self._last
        for event in islice(self._events, count):
            taken += 1
            kind = event[0]
            if kind == FOUND:
                outcome = BACKTRACKED if backtracks else CLEAN
                break
            if kind == BACKTRACK:
                backtracks += 1
                if backtracks == budget:
                    outcome = STOPPED
                    break
        else:
            if count is None or taken < count:  # the search made its last event
                outcome = NONE
        self.backtracks, self.events, self._last = backtracks, events + taken, event
        if outcome is not None:
            self.end = {"outcome": outcome, "backtracks": backtracks, "events": self.events}
        return self.end


def cell(rows, cols, start, order, seed, budget):
    """Search one board from start with an ordering, up to budget backtracks; return how it
    ended: {outcome, backtracks, events}."""
    return Board(rows, cols, start, order, seed, budget).search()
