"""Graphs the search runs on: the knight's graph of a board and the textbook's example."""

from reprlib import repr as shown

# The textbook's move order; each vertex lists its neighbours in this order.
KNIGHT_MOVES = ((-1, -2), (-1, 2), (-2, -1), (-2, 1), (1, -2), (1, 2), (2, -1), (2, 1))


class Graph:
    """A directed graph whose vertices are numbered 0..n-1 and may carry names."""

    def __init__(self, adjacency, names=None, shape=None):
        """Wrap neighbour tuples (one per vertex), optional names and board shape."""
        self.adjacency = adjacency
        self.names = names
        self.shape = shape
        self._index = {name: i for i, name in enumerate(names)} if names else None

    def __len__(self):
        return len(self.adjacency)

    def __contains__(self, vertex):
        if self._index is not None:
            return vertex in self._index
        return type(vertex) is int and 0 <= vertex < len(self.adjacency)

    def vertices(self):
        """Return the vertices in their numbering order."""
        return list(self.names) if self.names else list(range(len(self.adjacency)))

    def index(self, vertex):
        """Return the number of a vertex given by name (or by number)."""
        if vertex not in self:
            raise ValueError(f"vertex {shown(vertex)} is not in the graph")
        return self._index[vertex] if self._index is not None else vertex

    def neighbors(self, vertex):
        """Return the neighbours of a vertex, in the order they were added."""
        found = self.adjacency[self.index(vertex)]
        return [self.names[w] for w in found] if self.names else list(found)

    def edge_count(self):
        """Return the number of directed edges."""
        return sum(len(found) for found in self.adjacency)


def check_size(name, value):
    """Return value if it is a positive integer, else raise ValueError naming it."""
    if type(value) is not int or value < 1:
        raise ValueError(f"{name} must be a positive integer, not {shown(value)}")
    return value


def knight_moves(row, col, rows, cols):
    """Yield the squares a knight on (row, col) can reach, in the textbook's order."""
    for dr, dc in KNIGHT_MOVES:
        r, c = row + dr, col + dc
        if 0 <= r < rows and 0 <= c < cols:
            yield r * cols + c


def knight_graph(rows, cols=None):
    """Build the knight's graph of a rows x cols board (square = row * cols + col)."""
    check_size("rows", rows)
    cols = check_size("cols", rows if cols is None else cols)
    adjacency = [tuple(knight_moves(r, c, rows, cols)) for r in range(rows) for c in range(cols)]
    return Graph(adjacency, shape=(rows, cols))


def example_graph():
    """Build the textbook's six-vertex walkthrough graph, vertices "A".."F"."""
    names = ("A", "B", "C", "D", "E", "F")
    edges = {"A": "BD", "B": "CD", "C": "", "D": "E", "E": "F", "F": "C"}
    adjacency = [tuple(names.index(w) for w in edges[name]) for name in names]
    return Graph(adjacency, names)
