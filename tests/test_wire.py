"""The wire format: events encoded compactly, and bad values quoted briefly in errors."""

from server.engine.graph import knight_graph
from server.engine.search import knight_tour
from server.wire import encode

GOOD = {"rows": 5, "cols": 5, "start": 0, "order": "naive", "speed": 0}


def test_encoding_is_compact_and_reversible():
    events = list(knight_tour(knight_graph(3, 4), 0))
    codes = encode(events)
    assert codes[:2] == [0, 6] and codes[-1] == "found"
    assert all(isinstance(c, int) for c in codes[:-1])
    assert encode([("backtrack", 0, 0), ("backtrack", 11, 3)]) == [-1, -12]


def test_a_long_bad_value_is_quoted_briefly(client):
    answer = client.emit("start", {**GOOD, "rows": "9" * 10_000}, callback=True)
    assert answer["ok"] is False and answer["error"].startswith("rows must be a whole number")
    assert len(answer["error"]) < 200
