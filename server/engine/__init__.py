"""The knight's tour engine: graphs and the depth-first search over them.

It knows nothing of Flask, sockets or time: the server, the tests and the benchmarks all
drive the same generator.
"""

from .graph import KNIGHT_MOVES, Graph, example_graph, knight_graph
from .lookahead import upcoming
from .orderings import ORDERINGS
from .search import BACKTRACK, FOUND, VISIT, Search, knight_tour

__all__ = [
    "BACKTRACK",
    "FOUND",
    "KNIGHT_MOVES",
    "ORDERINGS",
    "VISIT",
    "Graph",
    "Search",
    "example_graph",
    "knight_graph",
    "knight_tour",
    "upcoming",
]
