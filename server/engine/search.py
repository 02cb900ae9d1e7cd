"""Depth-first search for a knight's tour, as a lazy generator of visit/backtrack events."""

from reprlib import repr as shown

from .orderings import needs_board, ordering

VISIT = "visit"
BACKTRACK = "backtrack"
FOUND = "found"
_KINDS = {kind: kind for kind in (VISIT, BACKTRACK, FOUND)}


def canonical(event):
    """Return an event whose kind is this module's own string (one that crossed a pipe is a copy)."""
    kind, vertex, depth = event
    return (_KINDS[kind], vertex, depth)


def compact(events):
    """Return events written compactly, as the wire sends them: visit v as v, backtrack v as
    -v-1, a tour found as "found"."""
    return [v if kind is VISIT else -v - 1 if kind is BACKTRACK else kind for kind, v, _ in events]


class Compact(list):
    """Events already written compactly (see compact): a leg a helper searched and kept; its
    outline, the outline of their tree if it was asked for (see outline.py), else None."""

    outline = None


def check_flag(name, value):
    """Return value if it is a bool, else raise ValueError naming it."""
    if type(value) is not bool:
        raise ValueError(f"{name} must be true or false, not {shown(value)}")
    return value


class Search:
    """A tour search whose events come from iterating it; path and tours stay readable.

    order is an ordering's name or written form (orderings.py); closed accepts only tours whose
    last square is a move from the start; all_tours keeps searching after each tour until the
    whole search space is exhausted; seed fixes the "random" key.
    """

    def __init__(self, graph, start, order="naive", *, closed=False, all_tours=False, seed=0):
        if needs_board(order) and graph.shape is None:
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
        return self._walk(*self._expander())

    def resume(self, path, last, backtracks, tours=0, last_tour=None):
        """Return the events after `last`, the search having left `path` with `backtracks` and
        `tours` so far: the search goes on from there without making its earlier events again.

        A search's state is its path alone (each square's moves are ordered by the squares
        visited before it), so another process can search on and hand back where it got to.
        """
        self.path[:] = path
        self.tours, self.last_tour = tours, last_tour
        self.backtracks, self.ended = None, False
        return self._walk(*self._expander(), at=(canonical(last), backtracks))

    def skim(self, last, backtracks, nodes):
        """Return a generator that searches on after `last` (the search having left its path with
        `backtracks`, as resume does) without making each event, summing up each piece instead:
        primed with next() and sent how many events to search next, it yields (events searched,
        the shallowest and the deepest visit's depth among them (a deepest of -1: no visit), the
        last event). self.nodes_at[d] numbers the visit of the path's square at depth d, counting
        visits from `nodes` (None for the squares it had before), and self.tour_nodes gains the
        visit that ends each tour. The path must not be full: a full path's events (a tour
        reported, the backtrack out of it) are resume's to make.
        """
        if self.is_last(canonical(last)):
            raise ValueError("the search has ended: there is nothing to skim")
        if len(self.path) == len(self.graph):
            raise ValueError("a full path's events are resume's to make")
        self.backtracks, self.ended = None, False
        expand, visited = self._expander()
        tries = self._tries(expand, visited, canonical(last))
        return self._skim(expand, visited, tries, backtracks, nodes)

    def _expander(self):
        """Return the ordering of moves over a fresh set of visited squares, and that set."""
        visited = bytearray(len(self.graph))
        return ordering(self.order, self.graph, visited, self.seed, self.start), visited

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

    def _end(self, backtracks):
        # Published when the search ends, so that a reader who skipped its events (not counting
        # them, for speed) can still count them: each visit not backtracked is on the path, so
        # events = 2 * backtracks + len(path) + tours. A generator closed early publishes nothing.
        self.backtracks = backtracks
        self.ended = True

    def _tries(self, expand, visited, last):
        """Mark the path visited and return each of its squares' moves, as the search left them
        after the event last: each past the square it went on to (or came back from)."""
        path = self.path
        kind, vertex, _ = last
        # A full path's last square lists no moves: the search reports or backs out of it.
        listed = len(path) - (len(path) == len(visited))
        tries = []
        for i, u in enumerate(path):
            visited[u] = 1
            if i < listed:
                moves = iter(expand(u))
                after = path[i + 1] if i + 1 < len(path) else vertex if kind is BACKTRACK else None
                if after is not None:
                    next(w for w in moves if w == after)
                tries.append(moves)
        return tries

    def _walk(self, expand, visited, at=None):
        """Yield the events of the depth-first search (after at's (event, backtracks) if given);
        the hot loop of the engine."""
        adjacency, start, every, path = self.graph.adjacency, self.start, self.all_tours, self.path
        last = len(adjacency) - 1
        closing = set(adjacency[start]) if self.closed else None
        extend, retract = path.append, path.pop
        if at is None:
            backtracks = 0
            extend(start)
            visited[start] = 1
            yield (VISIT, start, 0)
            tries = [iter(expand(start))] if last else []
            depth = 0
            full = not last
        else:
            event, backtracks = at
            if self.is_last(event):
                self._end(backtracks)
                return
            tries = self._tries(expand, visited, event)
            depth = len(path) - 1
            full = len(path) == len(adjacency) and event[0] is not BACKTRACK
            if full and event[0] is FOUND:
                full = False  # reported: the search backs out of it below
                retract()
                visited[event[1]] = 0
                backtracks += 1
                yield (BACKTRACK, event[1], depth)
                depth -= 1
        # The path just reached every square: a tour, or a dead end. (The loop below has these
        # lines too, inline: a call for them would cost the engine's hot loop.)
        if full:
            v = path[-1]
            if closing is None or v in closing:
                self._found()
                yield (FOUND, v, depth)
                if not every:
                    self._end(backtracks)
                    return
            retract()
            visited[v] = 0
            backtracks += 1
            yield (BACKTRACK, v, depth)
            depth -= 1
        push, pop = tries.append, tries.pop
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
                        self._end(backtracks)
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
        self._end(backtracks)

    def _skim(self, expand, visited, tries, backtracks, nodes):
        """Search as _walk's loop does, counting events instead of making them (see skim)."""
        adjacency, start, every, path = self.graph.adjacency, self.start, self.all_tours, self.path
        last = len(adjacency) - 1
        closing = set(adjacency[start]) if self.closed else None
        extend, retract, push, pop = path.append, path.pop, tries.append, tries.pop
        self.nodes_at, self.tour_nodes = nodes_at, tour_nodes = [None] * len(adjacency), []
        depth, visits = len(path) - 1, nodes
        # Each event counts down what is left of the piece; at 0 the piece is summed up and the
        # next one is asked for. (The lines are inline, as in _walk: a call would cost the loop.)
        taken = left = yield
        low, high = len(adjacency), -1
        while tries:
            for v in tries[-1]:
                if visited[v]:
                    continue
                visited[v] = 1
                extend(v)
                depth += 1
                nodes_at[depth] = visits
                visits += 1
                if depth > high:
                    high = depth
                if depth < low:
                    low = depth
                left -= 1
                if not left:
                    taken = left = yield (taken, low, high, (VISIT, v, depth))
                    low, high = len(adjacency), -1
                if depth < last:
                    push(iter(expand(v)))
                    break
                if closing is None or v in closing:
                    self._found()
                    tour_nodes.append(visits - 1)
                    left -= 1
                    if not every:
                        self._end(backtracks)
                        yield (taken - left, low, high, (FOUND, v, depth))
                        return
                    if not left:
                        taken = left = yield (taken, low, high, (FOUND, v, depth))
                        low, high = len(adjacency), -1
                retract()
                visited[v] = 0
                backtracks += 1
                left -= 1
                if not left:
                    taken = left = yield (taken, low, high, (BACKTRACK, v, depth))
                    low, high = len(adjacency), -1
                depth -= 1
            else:
                pop()
                u = retract()
                visited[u] = 0
                backtracks += 1
                left -= 1
                if not left:
                    taken = left = yield (taken, low, high, (BACKTRACK, u, depth))
                    low, high = len(adjacency), -1
                depth -= 1
        self._end(backtracks)
        yield (taken - left, low, high, (BACKTRACK, start, 0))


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
