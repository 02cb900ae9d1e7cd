"""The code lab's Python, run here in CPython as the student's browser runs it in Pyodide: the
book's code unchanged makes the engine's events, wrong versions part from them where they
first differ, and errors name the student's line."""

from itertools import zip_longest

import pytest

from server.codelab.exercises import BOOK, EXERCISES, exercises
from server.codelab.runner import Run
from server.engine import knight_graph, knight_tour
from server.engine.search import compact
from tests.textbook import trace as textbook_trace


def play(code, rows=5, cols=5, start=0, order="moves", batch=4096, **options):
    """Run code as the lab does; return its result and every event it handed on."""
    handed = []

    def hand(codes, lines):
        handed.extend(codes)
        return batch

    result = Run(code, rows, cols, start, order, **options).go(hand, batch)
    return result, handed


def engine(rows, cols, start, order, **options):
    """Return the engine's events of a search, as the wire writes them."""
    return compact(knight_tour(knight_graph(rows, cols), start, order, **options))


def first_difference(mine, theirs):
    """Return where two event lists first differ (None if they are equal)."""
    for at, (a, b) in enumerate(zip_longest(mine, theirs)):
        if a != b:
            return at
    return None


def edited(old, new, code=BOOK):
    """Return the book's code with one piece replaced (the piece must be there)."""
    assert old in code
    return code.replace(old, new)


NAIVE = edited(
    "nbrList = list(u.getConnections())", "nbrList = sorted(u.getConnections(), key=lambda v: v.getId())"
)
WARNSDORFF = edited("nbrList = list(u.getConnections())", "nbrList = orderByAvail(u)")
# The third edition's spelling of Listing 3 (pythonds3): snake_case, u.color, sorted() by vertex.
THIRD_EDITION = """from pythonds3.graphs import Graph

def knight_graph(board_size):
    kt_graph = Graph()
    for row in range(board_size):
        for col in range(board_size):
            for r, c in [(-1, -2), (-1, 2), (-2, -1), (-2, 1), (1, -2), (1, 2), (2, -1), (2, 1)]:
                if 0 <= row + r < board_size and 0 <= col + c < board_size:
                    kt_graph.add_edge(row * board_size + col, (row + r) * board_size + col + c)
    return kt_graph

def knight_tour(n, path, u, limit):
    u.color = "gray"
    path.append(u)
    if n < limit:
        neighbors = sorted(list(u.get_neighbors()))
        i = 0
        done = False
        while i < len(neighbors) and not done:
            if neighbors[i].color == "white":
                done = knight_tour(n + 1, path, neighbors[i], limit)
            i = i + 1
        if not done:
            path.pop()
            u.color = "white"
    else:
        done = True
    return done

def main(rows, cols, start):
    return knight_tour(0, [], knight_graph(rows).get_vertex(start), rows * cols - 1)
"""
GENERATOR = """def main(rows, cols, start):
    moves = {}
    for r in range(rows):
        for c in range(cols):
            moves[r * cols + c] = sorted((r + dr) * cols + c + dc
                for dr, dc in [(-1, -2), (-1, 2), (-2, -1), (-2, 1), (1, -2), (1, 2), (2, -1), (2, 1)]
                if 0 <= r + dr < rows and 0 <= c + dc < cols)
    path = []
    def tour(square):
        path.append(square)
        yield visit(square)
        if len(path) == rows * cols:
            return True
        for move in moves[square]:
            if move not in path and (yield from tour(move)):
                return True
        path.pop()
        yield backtrack(square)
        return False
    return tour(start)
"""


def test_the_books_code_unchanged_is_the_engines_search_in_the_books_move_order():
    result, handed = play(BOOK)
    assert handed == engine(5, 5, 0, "moves")
    assert result["differs"] is None and result["problem"] is None
    assert result["events"] == len(handed) == result["matched"] and result["tours"] == 1
    assert result["returned"] is True


@pytest.mark.parametrize(
    ("code", "order"),
    [(NAIVE, "naive"), (THIRD_EDITION, "naive"), (WARNSDORFF, "warnsdorff"), (GENERATOR, "naive")],
)
def test_each_ordering_written_as_the_book_would_matches_the_textbooks_own_trace(code, order):
    result, handed = play(code, order=order)
    textbook, _ = textbook_trace(5, 5, 0, order)
    assert handed == compact(textbook)
    assert handed == engine(5, 5, 0, order) and result["differs"] is None
    if order == "naive":
        assert result["events"] == 9996  # 5,010 visits, 4,985 backtracks and the tour


# Three wrong versions of each exercise, each parting from the engine's search somewhere.
WRONG = {
    "naive": [
        edited(
            "nbrList = list(u.getConnections())",
            "nbrList = sorted(u.getConnections(), key=lambda v: -v.getId())",
        ),
        edited("nbrList = list(u.getConnections())", "nbrList = list(u.getConnections())[::-1]"),
        BOOK,
    ],
    "warnsdorff": [
        # Counting squares already on the path: every neighbour, white or gray.
        edited(
            "                if w.getColor() == 'white':\n                    c = c + 1",
            "                c = c + 1",
            WARNSDORFF,
        ),
        # The most onward moves first (the book's resList.reverse()).
        edited(
            "    resList.sort(key=lambda x: x[0])",
            "    resList.sort(key=lambda x: x[0])\n    resList.reverse()",
            WARNSDORFF,
        ),
        # Ties broken by the square's number rather than kept in the book's order.
        edited(
            "resList.sort(key=lambda x: x[0])",
            "resList.sort(key=lambda x: (x[0], -x[1].getId()))",
            WARNSDORFF,
        ),
    ],
    "book": [
        NAIVE,
        # Stops one square short: the limit counts edges, not squares.
        edited("rows * cols - 1)", "rows * cols - 2)"),
        # Forgets to colour a square white again on the way back: it never backtracks.
        edited("                u.setColor('white')", "                pass"),
    ],
}


@pytest.mark.parametrize(("exercise", "version"), [(e, i) for e in WRONG for i in range(3)])
def test_a_wrong_version_is_said_to_part_where_it_first_differs(exercise, version):
    order = next(each["order"] for each in EXERCISES if each["id"] == exercise)
    result, handed = play(WRONG[exercise][version], order=order)
    expected = engine(5, 5, 0, order)
    at = first_difference(handed, expected)
    assert at is not None, "the wrong version is not wrong"
    if result["problem"] is not None:
        # A search that breaks the board's rules ends there: it parts from the engine no later.
        assert result["problem"]["at"] <= at
        return
    assert result["differs"] == [
        at,
        handed[at] if at < len(handed) else None,
        expected[at] if at < len(expected) else None,
    ]


def test_a_closed_tour_and_every_tour_are_compared_with_the_engines_closed_and_every_tour_searches():
    closed = edited(
        "        else:\n            done = True",
        "        else:\n            done = path[0] in u.getConnections()\n"
        "            if not done:\n                path.pop()\n                u.setColor('white')",
        WARNSDORFF,
    )
    result, handed = play(closed, rows=6, cols=6, start=1, order="warnsdorff", closed=True)
    assert handed == engine(6, 6, 1, "warnsdorff", closed=True) and result["differs"] is None
    assert result["tours"] == 1 and result["tour"][0] == 1
    every = """def main(rows, cols, start):
    offsets = [(-1, -2), (-1, 2), (-2, -1), (-2, 1), (1, -2), (1, 2), (2, -1), (2, 1)]
    moves = [[(r + dr) * cols + c + dc for dr, dc in offsets
              if 0 <= r + dr < rows and 0 <= c + dc < cols] for r in range(rows) for c in range(cols)]
    graph = Graph()
    for square in range(rows * cols):
        graph.addVertex(square)
    for square, targets in enumerate(moves):
        for target in targets:
            graph.addEdge(square, target)
    count = 0
    def tour(u, depth):
        nonlocal count
        u.setColor('gray')
        if depth == rows * cols:
            count += 1
        for v in u.getConnections():
            if v.getColor() == 'white':
                tour(v, depth + 1)
        u.setColor('white')
    tour(graph.getVertex(start), 1)
    return count
"""
    result, handed = play(every, rows=3, cols=4, order="moves", all_tours=True)
    assert handed == engine(3, 4, 0, "moves", all_tours=True) and result["differs"] is None
    assert result["tours"] == result["returned"] == 2


def test_the_exercises_name_orderings_the_engine_has():
    for exercise in exercises():
        assert engine(1, 1, 0, exercise["order"]) == [0, "found"]


@pytest.mark.parametrize(
    ("code", "why", "line"),
    [
        ("def main(rows, cols, start)\n    return True\n", "lab.syntax", 1),
        ("x = 1\n\ndef main(rows, cols, start):\n    return y\n", "lab.error", 4),
        ("def helper():\n    return 1\n", "lab.noMain", None),
        ("def main(rows, cols, start):\n    yield 3\n", "lab.notAnEvent", 2),
    ],
)
def test_a_problem_names_the_students_line(code, why, line):
    result, _ = play(code)
    assert result["problem"]["why"] == why and result["problem"]["line"] == line


@pytest.mark.parametrize(
    ("body", "why", "at"),
    [
        ("yield visit(0)\n    yield visit(1)", "lab.notAMove", 1),  # b5 is no knight's move from a5
        ("yield visit(0)\n    yield visit(7)\n    yield visit(0)", "lab.onPath", 2),
        ("yield visit(0)\n    yield visit(7)\n    yield backtrack(0)", "lab.notTheEnd", 2),
        ("yield visit(12)", "lab.notTheStart", 0),
        ("yield visit(25)", "lab.offBoard", 0),
    ],
)
def test_an_event_no_search_can_make_is_refused_where_it_is_made(body, why, at):
    result, handed = play(f"def main(rows, cols, start):\n    {body}\n")
    assert result["problem"]["why"] == why and result["problem"]["at"] == at
    assert len(handed) == at  # the events before it were handed on, and not it


def test_a_deep_recursion_is_said_to_be_the_recursion():
    code = "def main(rows, cols, start):\n    def down(n):\n        return down(n + 1)\n    return down(0)\n"
    result, _ = play(code)
    assert result["problem"]["why"] == "lab.recursion" and result["problem"]["line"] == 3


def test_a_host_that_wants_no_more_events_halts_the_search_and_the_hook_is_let_go():
    from server.codelab import book

    result, handed = play(BOOK, order="moves", batch=0)
    assert result["problem"]["why"] == "lab.halted" and handed == engine(5, 5, 0, "moves")[: len(handed)]
    assert book.Vertex.heard is book._unheard
