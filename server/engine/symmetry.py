"""A search's position turned over the board: mirrored, or rotated half a turn, and the event the
search makes next from the turned position, worked out by the search itself."""

from .graph import knight_graph
from .lookahead import upcoming
from .search import VISIT, Search

MIRROR, ROTATE = "mirror", "rotate"
TURNS = (MIRROR, ROTATE)  # each keeps the board's shape, so a square's name stays on the board
BAD_TURN = f"turn must be one of {', '.join(TURNS)}"


def turn_square(square, rows, cols, turn):
    """Return where a square goes on a rows x cols board mirrored (left to right) or rotated half a turn."""
    row, col = divmod(square, cols)
    if turn == MIRROR:
        return row * cols + cols - 1 - col
    if turn == ROTATE:
        return (rows - 1 - row) * cols + cols - 1 - col
    raise ValueError(BAD_TURN)


def turned_next(search, path, turn):
    """Return (path, event) on the turned board: the path turned, and the event a search like
    `search` (its ordering, seed and closed rule, from the turned start) makes next when the knight
    has just arrived at the turned path's last square. The search is only read."""
    rows, cols = search.graph.shape
    turned = [turn_square(square, rows, cols, turn) for square in path]
    other = Search(
        knight_graph(rows, cols),
        turned[0],
        search.order,
        closed=search.closed,
        all_tours=search.all_tours,
        seed=search.seed,
    )
    other.path[:] = turned
    return turned, upcoming(other, (VISIT, turned[-1], len(turned) - 1))
