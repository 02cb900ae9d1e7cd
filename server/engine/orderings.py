"""The orders in which the search tries a square's moves, composed from named keys.

An ordering is a list of keys, each deciding between the moves the keys before it tie on; the
moves still tied after the last keep the textbook's move order. Its written form names the keys,
comma-separated, a "-" before one sorting it the other way: `onward,-centre` tries the move with
the fewest onward moves first (Warnsdorff's rule), and of those tied, the square furthest from
the centre (Roth's tie-break). The four orderings the page names are four such forms.

Each ordering, made for (graph, visited, seed, start), is a function from a vertex to the
neighbours to try from it, in order. One whose keys never read the path lists every neighbour,
worked out once for each square (the search passes over those visited); one with a key that
reads the path (onward, pohl) lists the neighbours not visited, worked out at each visit.
"""

import functools
from reprlib import repr as shown

MAX_KEYS = 8  # keys in one ordering; a longer written form is refused
# The orderings the page names, and their written forms.
NAMED = {
    "naive": "index",
    "warnsdorff": "onward",
    "warnsdorff-roth": "onward,-centre",
    "random": "random",
}


def _free_moves(adjacency, visited, vertex):
    """Count the unvisited neighbours of a vertex."""
    return sum(1 for w in adjacency[vertex] if not visited[w])


def mix32(x):
    """Scramble a 32-bit number (the lowbias32 integer hash; the page has its twin)."""
    x ^= x >> 16
    x = (x * 0x7FEB352D) & 0xFFFFFFFF
    x ^= x >> 15
    x = (x * 0x846CA68B) & 0xFFFFFFFF
    return x ^ (x >> 16)


def shuffle(moves, seed, u):
    """Return u's moves in an order shuffled by the seed and the square alone (Fisher-Yates)."""
    moves = list(moves)
    h = mix32(seed ^ mix32(u + 1))
    for i in range(len(moves) - 1, 0, -1):
        h = mix32(h + i)
        j = h % (i + 1)
        moves[i], moves[j] = moves[j], moves[i]
    return moves


# Keys of a square alone: (graph, start) -> a value for each square, lower tried first.
def _index(graph, start):
    return range(len(graph))


def _board(graph):
    rows, cols = graph.shape
    return rows, cols, [divmod(w, cols) for w in range(rows * cols)]


def _centre(graph, start):
    rows, cols, squares = _board(graph)
    mid_r, mid_c = (rows - 1) / 2, (cols - 1) / 2
    return [(r - mid_r) ** 2 + (c - mid_c) ** 2 for r, c in squares]


def _from_start(graph, start):
    _, _, squares = _board(graph)
    r0, c0 = squares[start]
    return [(r - r0) ** 2 + (c - c0) ** 2 for r, c in squares]


def _edge(graph, start):
    rows, cols, squares = _board(graph)
    return [min(r, c, rows - 1 - r, cols - 1 - c) for r, c in squares]


def _corner(graph, start):
    rows, cols, squares = _board(graph)
    return [max(min(r, rows - 1 - r), min(c, cols - 1 - c)) for r, c in squares]


SQUARE_KEYS = {
    "index": (_index, "square number: the textbook's order"),
    "centre": (_centre, "distance from the centre (squared): Roth's tie-break, nearest first"),
    "start": (_from_start, "distance from the start square (squared), nearest first"),
    "edge": (_edge, "steps to the nearest edge, nearest first"),
    "corner": (_corner, "steps to the nearest corner (the larger of its two), nearest first"),
}
# Keys of a move from a square: the place of the move in the square's own list.
MOVE_KEYS = {
    "moves": "the textbook's move order",
    "random": "an order shuffled by the seed and the square",
}
# Keys that read the path: worked out at each visit.
PATH_KEYS = {
    "onward": "onward moves (squares not yet visited it leads to): Warnsdorff's rule, fewest first",
    "pohl": "the onward moves of its onward moves, summed (Pohl's second look), fewest first",
}
KEYS = [*SQUARE_KEYS, *MOVE_KEYS, *PATH_KEYS]
# Keys that give every move from a square a value of its own: after one, no two moves are tied,
# so the keys after it decide nothing.
NEVER_TIE = ("index", "moves", "random")
NEEDS_BOARD = {"centre", "start", "edge", "corner"}


def parse(order):
    """Return an ordering's keys as (name, descending) pairs, from its written form or its name;
    raise ValueError saying what is wrong with it."""
    if not isinstance(order, str):
        raise ValueError(f"an order is a text, not {shown(order)}")
    written = NAMED.get(order, order)
    parts = written.split(",")
    if len(parts) > MAX_KEYS:
        raise ValueError(f"an order has at most {MAX_KEYS} keys, not {len(parts)}")
    keys = []
    for part in parts:
        name = part.removeprefix("-")
        if name not in KEYS:
            known = ", ".join(dict.fromkeys([*NAMED, *KEYS]))  # random is a name and a key
            raise ValueError(f"unknown order {shown(order)}: {shown(name)} is none of {known}")
        if any(name == seen for seen, _ in keys):
            raise ValueError(f"the order {shown(order)} names {name} twice")
        keys.append((name, part != name))
    return keys


def check_order(order):
    """Return order if it is an ordering's name or written form, else raise ValueError."""
    parse(order)
    return order


def idle_keys(order):
    """Return the keys of an ordering that decide nothing: those after its first that never ties."""
    keys = parse(order)
    first = next((at for at, (name, _) in enumerate(keys) if name in NEVER_TIE), len(keys))
    return keys[first + 1 :]


def needs_board(order):
    """Tell whether an ordering has a key that reads squares' places on a board."""
    return any(name in NEEDS_BOARD for name, _ in parse(order))


def ordering(order, graph, visited, seed=0, start=0):
    """Return the function from a vertex to the moves to try from it, in order, for an ordering
    (its name or written form) on graph, the search's visited squares being `visited`."""
    keys = parse(order)
    # Ties after the last key keep the move order, which a stable sort keeps by itself.
    while keys and keys[-1] == ("moves", False):
        keys.pop()
    adjacency = graph.adjacency
    makers = [_key(name, descending, graph, visited, seed, start) for name, descending in keys]
    if not any(name in PATH_KEYS for name, _ in keys):
        # Nothing in it changes as the search goes: each square's list is worked out once.
        lists = [_sorted(moves, _key_at(makers, u)) for u, moves in enumerate(adjacency)]
        return lists.__getitem__
    if any(name in MOVE_KEYS for name, _ in keys):
        return lambda u: _sorted([w for w in adjacency[u] if not visited[w]], _key_at(makers, u))
    key = _key_at(makers, None)  # the same for every square

    def free_first(u):
        free = [w for w in adjacency[u] if not visited[w]]
        free.sort(key=key)
        return free

    return free_first


def _sorted(moves, key):
    return list(moves) if key is None else sorted(moves, key=key)


def _key_at(makers, u):
    """Return the sort key of the moves from u (None: their own order), from each key's maker."""
    values = [make(u) for make in makers]
    if not values:
        return None
    if len(values) == 1:
        return values[0]
    if len(values) == 2:
        first, second = values
        return lambda w: (first(w), second(w))
    return lambda w: tuple([value(w) for value in values])


def _key(name, descending, graph, visited, seed, start):
    """Return a key's maker: u -> (a move from u -> its value), lower first. What does not change
    with u (a key of squares, or of the path) is made once, here."""
    adjacency = graph.adjacency
    if name in SQUARE_KEYS:
        values = SQUARE_KEYS[name][0](graph, start)
        value = [-v for v in values].__getitem__ if descending else values.__getitem__
        return lambda u: value
    if name in MOVE_KEYS:

        def place(u):
            moves = shuffle(adjacency[u], seed, u) if name == "random" else adjacency[u]
            return {w: -at if descending else at for at, w in enumerate(moves)}.__getitem__

        return place
    if name == "onward":
        count = functools.partial(_free_moves, adjacency, visited)
    else:

        def count(w):
            # The onward squares' own onward moves, w being visited by then.
            free = [x for x in adjacency[w] if not visited[x]]
            return sum(1 for x in free for y in adjacency[x] if not visited[y] and y != w)

    value = (lambda w: -count(w)) if descending else count
    return lambda u: value


# The page's orderings, by name: (graph, visited, seed, start) -> the order function.
ORDERINGS = {name: functools.partial(ordering, name) for name in NAMED}
