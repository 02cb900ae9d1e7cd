"""The event a search makes next, worked out from its path alone, without running it."""

from .orderings import ordering
from .search import BACKTRACK, FOUND, VISIT


def _closes(search, vertex):
    """Tell whether a full path ending at vertex is a tour the search reports."""
    return not search.closed or vertex in search.graph.adjacency[search.start]


def _next_move(search, after):
    """Return the next move from the knight's square off the path, after the move `after`."""
    path = search.path
    visited = bytearray(len(search.graph))
    for vertex in path:
        visited[vertex] = 1
    # The path is the visited set the square was reached with, so the ordering gives the
    # same order now as it gave then (Warnsdorff's counts depend on it).
    order = ordering(search.order, search.graph, visited, search.seed, search.start)(path[-1])
    start = 0 if after is None else order.index(after) + 1
    return next((v for v in order[start:] if not visited[v]), None)


def upcoming(search, last):
    """Return the (kind, vertex, depth) event a search yields after `last`, or None at its end.

    `last` is the search's latest event (None before the first); search.path must be the
    path it left. Reads the search's settings and path only: the running generator is
    never touched.
    """
    path = search.path
    if last is None:
        return (VISIT, search.start, 0)
    kind, vertex, _ = last
    if kind == FOUND:
        return (BACKTRACK, path[-1], len(path) - 1) if search.all_tours else None
    if not path:
        return None
    depth = len(path) - 1
    if kind == VISIT and len(path) == len(search.graph):
        return (FOUND if _closes(search, vertex) else BACKTRACK, vertex, depth)
    move = _next_move(search, vertex if kind == BACKTRACK else None)
    if move is None:
        return (BACKTRACK, path[-1], depth)
    return (VISIT, move, depth + 1)
