"""The code lab's benchmark cases: the naive exercise's answer as the book writes it, and the same
search as a generator of the student's own, on 6x6 naive from square 0."""

from common import ROOT  # noqa: F401  (puts the project on the path)

from server.codelab.exercises import BOOK

# The naive exercise's answer: the book's code trying the lowest square first.
NAIVE = BOOK.replace(
    "nbrList = list(u.getConnections())", "nbrList = sorted(u.getConnections(), key=lambda v: v.getId())"
)
# The same search as a generator of the student's own, yielding visit() and backtrack().
GENERATOR = """def main(rows, cols, start):
    offsets = [(-1, -2), (-1, 2), (-2, -1), (-2, 1), (1, -2), (1, 2), (2, -1), (2, 1)]
    moves = [sorted((r + dr) * cols + c + dc for dr, dc in offsets
                    if 0 <= r + dr < rows and 0 <= c + dc < cols)
             for r in range(rows) for c in range(cols)]
    on = [False] * (rows * cols)
    def tour(square, depth):
        on[square] = True
        yield visit(square)
        if depth == rows * cols:
            return True
        for move in moves[square]:
            if not on[move] and (yield from tour(move, depth + 1)):
                return True
        on[square] = False
        yield backtrack(square)
        return False
    return tour(start, 1)
"""
EVENTS = 367_235  # 183,635 visits, 183,599 backtracks and the tour
