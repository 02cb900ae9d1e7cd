"""The knight's graph and the textbook's example graph."""

import pytest

from server.engine.graph import KNIGHT_MOVES, example_graph, knight_graph


def test_eight_by_eight_has_the_textbooks_336_edges():
    graph = knight_graph(8, 8)
    assert len(graph) == 64
    assert graph.edge_count() == 336


@pytest.mark.parametrize(
    "square, moves",
    [
        (0, [7, 11]),  # a corner of a 5x5 board has two moves
        (12, [1, 3, 5, 9, 15, 19, 21, 23]),  # the centre has all eight
        (24, [13, 17]),
    ],
)
def test_neighbours_follow_the_textbooks_move_order(square, moves):
    graph = knight_graph(5, 5)
    row, col = divmod(square, 5)
    in_move_order = [
        (row + dr) * 5 + col + dc for dr, dc in KNIGHT_MOVES if 0 <= row + dr < 5 and 0 <= col + dc < 5
    ]
    assert graph.neighbors(square) == in_move_order
    assert sorted(graph.neighbors(square)) == moves


def test_rectangular_board_numbers_squares_row_by_row():
    graph = knight_graph(3, 4)
    assert len(graph) == 12
    # (0, 0) reaches (1, 2) = 6 and (2, 1) = 9; nothing else.
    assert sorted(graph.neighbors(0)) == [6, 9]


def test_every_move_has_its_reverse():
    graph = knight_graph(7, 9)
    for v in graph.vertices():
        for w in graph.neighbors(v):
            assert v in graph.neighbors(w)


def test_example_graph_is_the_textbooks_walkthrough():
    graph = example_graph()
    assert graph.vertices() == ["A", "B", "C", "D", "E", "F"]
    assert {v: graph.neighbors(v) for v in graph.vertices()} == {
        "A": ["B", "D"],
        "B": ["C", "D"],
        "C": [],
        "D": ["E"],
        "E": ["F"],
        "F": ["C"],
    }
    assert graph.edge_count() == 7


@pytest.mark.parametrize(
    "rows, cols, named",
    [
        (0, 5, "rows .* 0"),
        (5, 0, "cols .* 0"),
        (-1, 3, "rows .* -1"),
        ("5", 5, "rows .* '5'"),
        (5, 2.0, "cols .* 2.0"),
        (True, 3, "rows .* True"),
    ],
)
def test_bad_sizes_are_refused_by_name(rows, cols, named):
    with pytest.raises(ValueError, match=named):
        knight_graph(rows, cols)


def test_unknown_vertex_is_refused():
    with pytest.raises(ValueError, match="'Z'"):
        example_graph().neighbors("Z")
