"""The wire format: what clients ask for (parsed and checked), and how events are encoded.

Errors name the bad value, quoted briefly, with a message a person can act on.
"""

import reprlib
from dataclasses import dataclass

from .engine.orderings import check_order, needs_board
from .engine.search import Compact, check_flag, compact

# A client may send megabytes where a number belongs; its error message quotes a line of it.
_brief = reprlib.Repr()
_brief.maxstring = _brief.maxother = 40
_brief.maxlist = _brief.maxdict = 6
shown = _brief.repr

MAX_SIDE = 32
MAX_SPEED = 1_000_000
# The slowest pace, in events a second, other than 0: a tenth of the slider's slowest step. Slower
# ones make the player wait for ages (1e-10 overflows its timer) and would show nothing anyway.
MIN_SPEED = 0.1
MAX_SEED = 2**32 - 1
MAX_BUDGET = 10**9
# The speeds the page's slider offers, in events a second; 0 is as fast as the page takes them.
SPEED_STEPS = (1, 2, 5, 10, 15, 30, 60, 120, 250, 500, 1000, 2500, 5000, 10000, 25000, 100000, 0)
DEFAULT_SPEED = 30
START_FIELDS = ("rows", "cols", "start", "order", "speed")
GRAPHS = ("knight", "example")  # a board's knight's graph, or the textbook's six-vertex example
EXAMPLE_VERTICES = 6


@dataclass(frozen=True)
class RunOptions:
    """A checked request for a run."""

    rows: int
    cols: int
    start: int
    order: str
    speed: float
    paused: bool = False
    closed: bool = False
    all_tours: bool = False
    seed: int = 0
    budget: int | None = None
    graph: str = "knight"
    resume_at: int = 0  # events of this search the page holds already, from a run it lost

    def search_options(self):
        """Return the options that the Search itself takes."""
        return {"closed": self.closed, "all_tours": self.all_tours, "seed": self.seed}


def _fields(data, event, names):
    """Return the named fields of an event's payload, or raise ValueError."""
    if not isinstance(data, dict):
        raise ValueError(f"'{event}' needs an object with {', '.join(names)}, not {shown(data)}")
    missing = [name for name in names if name not in data]
    if missing:
        raise ValueError(f"'{event}' is missing {', '.join(missing)}")
    return [data[name] for name in names]


def integer(name, value, low, high):
    """Return value if it is an integer from low to high, else raise ValueError."""
    if type(value) is not int or not low <= value <= high:
        raise ValueError(f"{name} must be a whole number from {low} to {high}, not {shown(value)}")
    return value


def _speed(value):
    """Return value if it is a speed in events per second (0 = as fast as possible), else raise."""
    # NaN fails every comparison, and infinity the upper bound.
    if type(value) not in (int, float) or not (value == 0 or MIN_SPEED <= value <= MAX_SPEED):
        raise ValueError(
            f"speed must be a number of events per second from {MIN_SPEED:g} to {MAX_SPEED}, "
            f"or 0 (fastest), not {shown(value)}"
        )
    return value


def parse_start(data):
    """Check the payload of 'start' and return its RunOptions."""
    graph = data.get("graph", "knight") if isinstance(data, dict) else "knight"
    if graph not in GRAPHS:
        raise ValueError(f"unknown graph {shown(graph)}; choose one of {', '.join(GRAPHS)}")
    if graph == "example":
        # The example graph's vertices A to F are numbered 0 to 5, and shown in one row.
        start = data.get("start")
        if type(start) is not int or not 0 <= start < EXAMPLE_VERTICES:
            raise ValueError(f"start vertex {shown(start)} is not in the example graph (0 to 5, for A to F)")
        data = {"rows": 1, "cols": EXAMPLE_VERTICES, **data}
    rows, cols, start, order, speed = _fields(data, "start", START_FIELDS)
    rows = integer("rows", rows, 1, MAX_SIDE)
    cols = integer("cols", cols, 1, MAX_SIDE)
    if graph == "example" and (rows, cols) != (1, EXAMPLE_VERTICES):
        raise ValueError("the example graph has no rows and columns of its own; leave them out")
    if type(start) is not int or not 0 <= start < rows * cols:
        raise ValueError(
            f"start square {shown(start)} is off the {rows}x{cols} board "
            f"(squares are numbered 0 to {rows * cols - 1})"
        )
    check_order(order)
    if graph == "example" and needs_board(order):
        raise ValueError(
            f"the order {shown(order)} reads squares' places on a board; the example graph has none"
        )
    flags = {name: check_flag(name, data.get(name, False)) for name in ("paused", "closed", "all_tours")}
    seed = integer("seed", data.get("seed", 0), 0, MAX_SEED)
    budget = data.get("budget")
    if budget is not None:
        budget = integer("budget", budget, 1, MAX_BUDGET)
    resume_at = integer("resume_at", data.get("resume_at", 0), 0, (budget or MAX_BUDGET + 1) - 1)
    options = {"seed": seed, "budget": budget, "graph": graph, "resume_at": resume_at, **flags}
    return RunOptions(rows, cols, start, order, _speed(speed), **options)


# A strip: orderings tried on square boards from a corner, or from every square of one board.
MAX_STRIP_SIDE = 100
MAX_STRIP_ORDERS = 4
MAX_STRIP_BUDGET = 100_000  # backtracks a strip's board may take before it is stopped
DEFAULT_STRIP_BUDGET = 10_000


@dataclass(frozen=True)
class StripRequest:
    """A checked request for a strip: sides (low, high) of square boards searched from a corner,
    or board (rows, cols) searched from each of its squares."""

    orders: tuple
    sides: tuple | None
    board: tuple | None
    budget: int
    seed: int

    def starts(self):
        """Return the strip's boards and starts, (rows, cols, start), in the order searched."""
        if self.sides is not None:
            return [(n, n, 0) for n in range(self.sides[0], self.sides[1] + 1)]
        rows, cols = self.board
        return [(rows, cols, start) for start in range(rows * cols)]

    def boards(self):
        """Return every search of the strip, (order, rows, cols, start): each board's orderings
        one after the other, so that orderings compared fill in side by side."""
        return [(order, *board) for board in self.starts() for order in self.orders]

    @property
    def count(self):
        """Return how many searches the strip has."""
        return len(self.orders) * len(self.starts())


def parse_strip(data):
    """Check the payload of 'strip' and return its StripRequest."""
    if not isinstance(data, dict):
        raise ValueError(
            f"'strip' needs an object with orders, and sides or rows and cols, not {shown(data)}"
        )
    orders = data.get("orders")
    if not isinstance(orders, list) or not 1 <= len(orders) <= MAX_STRIP_ORDERS:
        raise ValueError(f"orders must be a list of 1 to {MAX_STRIP_ORDERS} orderings, not {shown(orders)}")
    for order in orders:
        check_order(order)
    if len(set(orders)) < len(orders):
        raise ValueError("orders names an ordering twice")
    sides = board = None
    if "sides" in data:
        sides = data["sides"]
        if not isinstance(sides, list) or len(sides) != 2:
            raise ValueError(f"sides must be [smallest, largest], not {shown(sides)}")
        low = integer("the smallest side", sides[0], 1, MAX_STRIP_SIDE)
        sides = (low, integer("the largest side", sides[1], low, MAX_STRIP_SIDE))
    else:
        rows, cols = _fields(data, "strip", ("rows", "cols"))
        board = (integer("rows", rows, 1, MAX_SIDE), integer("cols", cols, 1, MAX_SIDE))
    budget = integer("budget", data.get("budget", DEFAULT_STRIP_BUDGET), 1, MAX_STRIP_BUDGET)
    seed = integer("seed", data.get("seed", 0), 0, MAX_SEED)
    return StripRequest(tuple(orders), sides, board, budget, seed)


def parse_speed(data):
    """Check the payload of 'speed' and return the speed."""
    (speed,) = _fields(data, "speed", ("speed",))
    return _speed(speed)


def encode(batch):
    """Encode events compactly: visit v as v, backtrack v as -v-1, found as "found" (a batch a
    helper searched comes so already)."""
    return batch if isinstance(batch, Compact) else compact(batch)
