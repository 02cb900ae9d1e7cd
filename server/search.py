"""Depth-first search for a knight's tour, as a lazy generator of visit/backtrack events."""

from .messages import shown

VISIT = "visit"
BACKTRACK = "backtrack"
FOUND = "found"


def _free_moves(adjacency, visited, vertex):
    """Count the unvisited neighbours of a vertex."""
    return sum(1 for w in adjacency[vertex] if not visited[w])


def naive(graph, visited, seed):
    """Try neighbours by ascending vertex number (the textbook's Listing 3)."""
    return [tuple(sorted(moves)) for moves in graph.adjacency].__getitem__


def warnsdorff(graph, visited, seed):
    """Try the unvisited neighbours with the fewest onward moves first (orderByAvail)."""
    adjacency = graph.adjacency

    def order(u):
        free = [w for w in adjacency[u] if not visited[w]]
        # list.sort is stable, so ties keep the textbook's neighbour order.
        free.sort(key=lambda w: _free_moves(adjacency, visited, w))
        return free

    return order


def warnsdorff_roth(graph, visited, seed):
    """Warnsdorff, with ties broken toward the square furthest from the centre."""
    adjacency = graph.adjacency
    rows, cols = graph.shape
    mid_r, mid_c = (rows - 1) / 2, (cols - 1) / 2
    nearness = [-((r - mid_r) ** 2 + (c - mid_c) ** 2) for r in range(rows) for c in range(cols)]

    def order(u):
        free = [w for w in adjacency[u] if not visited[w]]
        free.sort(key=lambda w: (_free_moves(adjacency, visited, w), nearness[w]))
        return free

    return order


def mix32(x):
    """Scramble a 32-bit number (the lowbias32 integer hash; the page has its twin)."""
    x ^= x >> 16
    x = (x * 0x7FEB352D) & 0xFFFFFFFF
    x ^= x >> 15
    x = (x * 0x846CA68B) & 0xFFFFFFFF
    return x ^ (x >> 16)


def shuffled(graph, visited, seed):
    """Try each square's neighbours in an order shuffled by the seed and the square."""
    adjacency = graph.adjacency

    def order(u):
        # Seeded by (seed, square) alone, so the page can rebuild the order from the path.
        moves = list(adjacency[u])
        h = mix32(seed ^ mix32(u + 1))
        for i in range(len(moves) - 1, 0, -1):
            h = mix32(h + i)
            j = h % (i + 1)
            moves[i], moves[j] = moves[j], moves[i]
        return moves

    return order


ORDERINGS = {
    "naive": naive,
    "warnsdorff": warnsdorff,
    "warnsdorff-roth": warnsdorff_roth,
    "random": shuffled,
}
NEEDS_BOARD = {"warnsdorff-roth"}


def check_order(order):
    """Return order if it names an ordering, else raise ValueError."""
    if not isinstance(order, str) or order not in ORDERINGS:
        raise ValueError(f"unknown order {shown(order)}; choose one of {', '.join(ORDERINGS)}")
    return order


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
