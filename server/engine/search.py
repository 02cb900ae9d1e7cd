"""Depth-first search for a knight's tour, as a lazy generator of visit/backtrack events."""

from reprlib import repr as shown

from .orderings import NEEDS_BOARD, ORDERINGS, check_order

VISIT = "visit"
BACKTRACK = "backtrack"
FOUND = "found"


def check_flag(name, value):
    """Return value if it is a bool, else raise ValueError naming it."""
    if type(value) is not bool:
        raise ValueError(f"{name} must be true or false, not {shown(value)}")
    return value


class Search:
    """A tour search whose events come from iterating it; path and tours stay readable.

    closed accepts only tours whose last square is a move from the start; all_tours keeps
    searching after each tour until the whole search space is exhausted; seed fixes the
    "random" ordering.
    """

    def __init__(self, graph, start, order="naive", *, closed=False, all_tours=False, seed=0):
        check_order(order)
        if order in NEEDS_BOARD and graph.shape is None:
            raise ValueError(f"order {shown(order)} needs a board, not a general graph")
        if type(seed) is not int:
            raise ValueError(f"seed must be an integer, not {shown(seed)}")
        self.graph = graph
        self.start = graph.index(start)
        self.order = order
        self.closed = check_flag("closed", closed)
        self.all_tours = check_flag("all_tours", all_tours)
        self.seed = seed
        self.path = []  # the current path, as vertex numbers, kept by the search itself
        self.tours = 0
        self.last_tour = None
        self.backtracks = None  # known once the search has ended
        self.ended = False

    def __iter__(self):
        visited = bytearray(len(self.graph))
        expand = ORDERINGS[self.order](self.graph, visited, self.seed)
        return self._walk(expand, visited)

    def _found(self):
        self.tours += 1
        self.last_tour = list(self.path)

    def events_at_end(self):
        """Return how many events the search made in all, once it has ended."""
        return 2 * self.backtracks + len(self.path) + self.tours

    def is_last(self, event):
        """Tell whether an event is the search's last: nothing can follow it."""
        kind, _, depth = event
        return (kind is FOUND and not self.all_tours) or (kind is BACKTRACK and depth == 0)

    def _walk(self, expand, visited):
        """Yield the events of the depth-first search; the hot loop of the engine."""
        backtracks = 0
        try:
            adjacency, start, every, path = self.graph.adjacency, self.start, self.all_tours, self.path
            last = len(adjacency) - 1
            closing = set(adjacency[start]) if self.closed else None
            path.append(start)
            visited[start] = 1
            yield (VISIT, start, 0)
            if last == 0:
                if closing is None or start in closing:
                    self._found()
                    yield (FOUND, start, 0)
                    if not every:
                        return
                path.pop()
                visited[start] = 0
                backtracks += 1
                yield (BACKTRACK, start, 0)
                return
            tries = [iter(expand(start))]
            push, pop = tries.append, tries.pop
            extend, retract = path.append, path.pop
            depth = 0
            while tries:
                for v in tries[-1]:
                    if visited[v]:
                        continue
                    visited[v] = 1
                    extend(v)
                    depth += 1
                    yield (VISIT, v, depth)
                    if depth < last:
                        push(iter(expand(v)))
                        break
                    if closing is None or v in closing:
                        self._found()
                        yield (FOUND, v, depth)
                        if not every:
                            return
                    # A full path that is not wanted (or already reported) is a dead end.
                    retract()
                    visited[v] = 0
                    backtracks += 1
                    yield (BACKTRACK, v, depth)
                    depth -= 1
                else:
                    pop()
                    u = retract()
                    visited[u] = 0
                    backtracks += 1
                    yield (BACKTRACK, u, depth)
                    depth -= 1
        finally:
            # Published when the search ends, so that a reader who skipped its events (not
            # counting them, for speed) can still count them: each visit not backtracked is
            # on the path, so events = 2 * backtracks + len(path) + tours.
            self.backtracks = backtracks
            self.ended = True


def knight_tour(graph, start, order="naive", **options):
    """Return a generator of (kind, vertex, depth) events of a tour search from start.

    The options are those of Search: closed, all_tours and seed.
    """
    search = Search(graph, start, order, **options)
    events = iter(search)
    if graph.names is None:
        return events
    names = graph.names
    return ((kind, names[v], depth) for kind, v, depth in events)
