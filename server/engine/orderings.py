"""The orders in which the search tries a square's moves: a small table of functions.

Each ordering takes (graph, visited, seed) and returns a function from a vertex to the
neighbours to try from it, in order.
"""

from reprlib import repr as shown


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
