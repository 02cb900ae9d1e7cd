"""Helpers shared by the benchmarks: the import path, known counts, the engine's own time."""

import collections
import sys
import time
from pathlib import Path

# Run as `python bench/x.py`, a benchmark sees bench/ on the path but not the project.
ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from server.engine.graph import knight_graph  # noqa: E402
from server.engine.search import Search  # noqa: E402

# Known counts (visits, backtracks, found) from square 0, so a changed search cannot pass
# as a faster one.
EXPECTED = {(6, "naive"): (183_635, 183_599, 1), (8, "naive"): (17_739_768, 17_739_704, 1)}


def time_engine(rows, cols, start, order):
    """Time draining one search's events with deque(maxlen=0); return seconds."""
    graph = knight_graph(rows, cols)
    began = time.perf_counter()
    collections.deque(iter(Search(graph, start, order)), maxlen=0)
    return time.perf_counter() - began


def rate(events, seconds):
    """Format events per second."""
    return f"{events / seconds:>14,.0f} events/s"
