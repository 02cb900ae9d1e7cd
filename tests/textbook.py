"""An independent, recursive rendition of the textbook's search, to check the engine's traces.

It builds its own board and follows the textbook's Listings 1-3 and orderByAvail line by
line (white/gray colours, a depth limit of squares - 1), recording each visit and backtrack.
"""

import sys

OFFSETS = [(-1, -2), (-1, 2), (-2, -1), (-2, 1), (1, -2), (1, 2), (2, -1), (2, 1)]


def board_moves(rows, cols):
    """Return each square's legal knight moves in the textbook's order."""
    return {
        r * cols + c: [
            (r + dr) * cols + c + dc for dr, dc in OFFSETS if 0 <= r + dr < rows and 0 <= c + dc < cols
        ]
        for r in range(rows)
        for c in range(cols)
    }


def trace(rows, cols, start, order):
    """Return the (kind, square, depth) events of the textbook's search, and its path."""
    moves = board_moves(rows, cols)
    color = {v: "white" for v in moves}
    events, path = [], []

    def by_avail(u):
        counted = [
            (sum(1 for w in moves[v] if color[w] == "white"), v) for v in moves[u] if color[v] == "white"
        ]
        counted.sort(key=lambda pair: pair[0])
        return [v for _, v in counted]

    def tour(n, u, limit):
        color[u] = "gray"
        path.append(u)
        events.append(("visit", u, n))
        if n < limit:
            neighbours = sorted(moves[u]) if order == "naive" else by_avail(u)
            done = False
            i = 0
            while i < len(neighbours) and not done:
                if color[neighbours[i]] == "white":
                    done = tour(n + 1, neighbours[i], limit)
                i += 1
            if not done:
                path.pop()
                color[u] = "white"
                events.append(("backtrack", u, n))
            return done
        return True

    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, rows * cols + 200))
    try:
        found = tour(0, start, rows * cols - 1)
    finally:
        sys.setrecursionlimit(old)
    if found:
        events.append(("found", path[-1], rows * cols - 1))
    return events, path if found else None


def count_tours(rows, cols, start, closed=False):
    """Count the tours from start by plain exhaustive recursion (closed: ending a move from start)."""
    moves = board_moves(rows, cols)
    seen = {start}
    squares = rows * cols

    def extend(u):
        if len(seen) == squares:
            return int(not closed or start in moves[u])
        total = 0
        for v in moves[u]:
            if v not in seen:
                seen.add(v)
                total += extend(v)
                seen.remove(v)
        return total

    return extend(start)
