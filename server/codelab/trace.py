"""A student's search as its events come: each checked against the board, and the whole compared
with the engine's search of the same board, event for event."""

from itertools import islice

from ..engine import Search, knight_graph
from ..engine.search import compact


class Mistake(Exception):
    """An event no search of this board can make: at (its number), code (visit v as v, backtrack
    v as -v-1), why (a sentence's id on the page) and the square it names."""

    def __init__(self, at, code, why):
        super().__init__(why)
        self.at, self.code, self.why = at, code, why


class Trace:
    """The events of a student's search of a rows x cols board from start, checked as they come:
    a visit must be a knight's move from the end of the path onto a square not on it, a backtrack
    must leave the end of the path. A visit that fills the board (closing the tour, if closed) is
    followed by a tour found, as the engine's searches report one."""

    def __init__(self, rows, cols, start, closed=False):
        self.moves = knight_graph(rows, cols).adjacency
        self.squares, self.start, self.closed = rows * cols, start, closed
        self.path = []
        self.on = bytearray(self.squares)
        self.codes = []  # the events not yet handed on
        self.handed = 0  # the events handed on
        self.tours = 0
        self.last_tour = None
        self.batch = 256  # the events a batch holds: full() is called once codes hold as many

    @property
    def events(self):
        return self.handed + len(self.codes)

    def hearer(self, full):
        """Return heard(kind, square), which takes one event ("visit" or "backtrack") and calls
        full() once a batch is due. It runs once an event, in the student's browser: the checks
        are written out in it, with what they read bound to locals, rather than called."""
        path, on, codes, moves = self.path, self.on, self.codes, self.moves
        squares, start, closed = self.squares, self.start, self.closed
        push, pop, code = path.append, path.pop, codes.append

        def heard(kind, v):
            if kind == "visit":
                if type(v) is not int or not 0 <= v < squares:
                    raise Mistake(self.events, v, "lab.offBoard")
                if on[v]:
                    raise Mistake(self.events, v, "lab.onPath")
                if path:
                    if v not in moves[path[-1]]:
                        raise Mistake(self.events, v, "lab.notAMove")
                elif v != start:
                    raise Mistake(self.events, v, "lab.notTheStart")
                on[v] = 1
                push(v)
                code(v)
                if len(path) == squares and (not closed or start in moves[v]):
                    self.tours += 1
                    self.last_tour = list(path)
                    code("found")
            else:
                if not path or path[-1] != v:
                    raise Mistake(self.events, -v - 1 if type(v) is int else v, "lab.notTheEnd")
                pop()
                on[v] = 0
                code(-v - 1)
            if len(codes) >= self.batch:
                full()

        return heard

    def take(self):
        """Return the events not yet handed on, and forget them."""
        taken = self.codes[:]
        self.handed += len(taken)
        self.codes.clear()
        return taken


class Reference:
    """The engine's search of the same board, compared with a student's events batch by batch:
    differs is (event number, the student's code or None, the engine's or None) at the first
    event where they part."""

    def __init__(self, rows, cols, start, order, closed=False, all_tours=False):
        self.order = order
        self.search = Search(knight_graph(rows, cols), start, order, closed=closed, all_tours=all_tours)
        self.events = iter(self.search)
        self.matched = 0
        self.differs = None

    def check(self, codes):
        """Compare the student's next events with the engine's."""
        if self.differs is not None or not codes:
            return
        expected = compact(islice(self.events, len(codes)))
        if expected == codes:
            self.matched += len(codes)
            return
        at = next((i for i, (a, b) in enumerate(zip(codes, expected, strict=False)) if a != b), len(expected))
        theirs = expected[at] if at < len(expected) else None
        self.differs = (self.matched + at, codes[at], theirs)
        self.matched += at

    def finish(self):
        """Compare the end of the student's search with the engine's: did it end where the engine's does?"""
        if self.differs is None:
            more = compact(islice(self.events, 1))
            if more:
                self.differs = (self.matched, None, more[0])
