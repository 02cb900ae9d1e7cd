"""A question asked again on the board turned (a transfer question): the turned position, its
answer as the search's own generator makes it, and the protocol that asks, answers and reveals it."""

import pytest

from server.engine import BACKTRACK, VISIT, Search, knight_graph
from server.engine.symmetry import MIRROR, ROTATE, TURNS, turn_square, turned_next
from tests.support.polls import (
    ALREADY_OPEN,
    DEAD_END,
    NOT_LEADING,
    answer,
    open_class,
    refused,
    rejoin,
    start_paused,
)
from tests.support.waiting import wait_for

NO_TRANSFER = (
    "question.no_transfer",
    "only the question revealed last can be asked again turned, and not a turned one",
)
NOT_ARRIVING = (
    "question.not_arriving",
    "only a question asked as the knight arrives on a square can be asked again turned",
)
TOO_LARGE = ("question.board_too_large", "only a board of at most 400 squares can be asked about turned")
BAD_TURN = ("request.invalid", "turn must be one of mirror, rotate")


@pytest.mark.parametrize(("rows", "cols"), [(5, 5), (3, 4), (6, 7)])
def test_each_turn_keeps_the_board_and_its_knight_moves_and_undoes_itself(rows, cols):
    graph = knight_graph(rows, cols)
    for turn in TURNS:
        turned = [turn_square(square, rows, cols, turn) for square in range(rows * cols)]
        assert sorted(turned) == list(range(rows * cols))
        assert [turn_square(square, rows, cols, turn) for square in turned] == list(range(rows * cols))
        for square in range(rows * cols):
            moves = {turn_square(v, rows, cols, turn) for v in graph.neighbors(square)}
            assert moves == set(graph.neighbors(turned[square])), "a knight's move stays a knight's move"
    assert turn_square(0, rows, cols, MIRROR) == cols - 1
    assert turn_square(0, rows, cols, ROTATE) == rows * cols - 1
    with pytest.raises(ValueError, match="turn must be one of mirror, rotate"):
        turn_square(0, rows, cols, "flip")


def arrivals(rows, cols, order, count):
    """Yield (search, path) at each of the first `count` visits of a search: the knight has just
    arrived on the path's last square."""
    search = Search(knight_graph(rows, cols), 0, order)
    for event, _ in zip(search, range(count), strict=False):
        if event[0] == VISIT:
            yield search, list(search.path)


@pytest.mark.parametrize("order", ["naive", "warnsdorff", "onward,-start"])
def test_the_answer_on_the_turned_board_is_the_next_event_the_search_itself_makes_there(order):
    checked = 0
    for search, path in arrivals(6, 6, order, 400):
        for turn in TURNS:
            turned, event = turned_next(search, path, turn)
            assert turned == [turn_square(square, 6, 6, turn) for square in path]
            # The generator, resumed on the turned board from the turned path, makes the same event.
            other = Search(knight_graph(6, 6), turned[0], order)
            made = next(other.resume(turned, (VISIT, turned[-1], len(turned) - 1), 0))
            assert event == made
            checked += 1
    assert checked >= 2 * 36, "every square of a tour at least, each turn"
    # Backtracks too: a dead end stays one, turned, and the knight backs up to the turned square.
    assert any(turned_next(s, p, MIRROR)[1][0] == BACKTRACK for s, p in arrivals(6, 6, "naive", 400)), (
        "no dead end among the positions checked"
    )


def revealed_question(people, steps=3, **run):
    """Open a class of two students, ask about the run's next move (asked as the knight arrives),
    have both answer and reveal it; return the instructor, the students, their joins and the result."""
    teacher, students = people(), [people(), people()]
    _, joined = open_class(teacher, *students)
    start_paused(teacher, steps=steps, **run)
    poll = teacher.call("poll_open")["poll"]
    for student in students:
        answer(student, poll, 0 if poll["square"] else 1)
    result = teacher.call("poll_reveal", {"id": poll["id"]})["result"]
    assert wait_for(lambda: teacher.count() == poll["at"] + 1), "the move revealed played"
    return teacher, students, joined, result


def test_a_question_asked_again_mirrored_has_the_turned_boards_answer_and_leaves_the_run(people, live_server):
    teacher, students, joined, original = revealed_question(people)
    assert original["turnable"] is True
    before = teacher.count()
    asked = teacher.call("poll_transfer", {"id": original["id"], "turn": "mirror", "peer": True})
    assert asked["ok"] is True and asked["present"] == 2
    poll = asked["poll"]
    search = Search(knight_graph(5, 5), 0, "naive")
    events = iter(search)
    for _ in range(original["at"]):
        next(events)
    path = list(search.path)
    turned = [turn_square(square, 5, 5, MIRROR) for square in path]
    assert poll["transfer"] == {"of": original["id"], "turn": "mirror", "path": turned}
    assert poll["square"] == turned[-1] and poll["peer"] is True
    assert (poll["run"], poll["at"], poll["series"]) == (original["run"], before, original["series"])
    assert wait_for(lambda: all(s.named("poll_opened")[-1:] == [poll] for s in students))
    _, event = turned_next(search, path, MIRROR)
    right = event[1] if event[0] == VISIT else turned[-2]
    answer(students[0], poll, right)
    answer(students[1], poll, turned[-1])  # where the knight stands: never right
    assert rejoin(people, joined[0])["answer"] == right
    result = teacher.call("poll_reveal", {"id": poll["id"]})["result"]
    assert (result["answer"], result["right"], result["answered"]) == (right, 1, 2)
    assert result["transfer"] == poll["transfer"] and result["turnable"] is False
    assert wait_for(lambda: all(s.named("poll_revealed")[-1:] == [result] for s in students))
    # No move of the run was asked about: the run stays where it was.
    assert teacher.call("poll_transfer", {"id": poll["id"], "turn": "rotate"}) == {
        "ok": False,
        "code": NO_TRANSFER[0],
        "error": NO_TRANSFER[1],
    }, "a turned question is not asked again turned"
    assert teacher.count() == before and teacher.named("events")[-1]["first"] == before - 1
    # The question asked next goes on with the series, after the turned one.
    following = teacher.call("poll_open")["poll"]
    assert following["transfer"] is None and following["series"] == original["series"] + 1


def test_asking_again_turned_is_refused_unless_it_is_the_instructors_last_question_asked_arriving(people):
    teacher, students, _, original = revealed_question(people)
    number = original["id"]
    refused(students[0], "poll_transfer", {"id": number, "turn": "mirror"}, NOT_LEADING)
    for turn in ("flip", None, 1):
        refused(teacher, "poll_transfer", {"id": number, "turn": turn}, BAD_TURN)
    refused(teacher, "poll_transfer", {"id": number + 1, "turn": "mirror"}, NO_TRANSFER)
    refused(
        teacher,
        "poll_transfer",
        {"id": number, "turn": "mirror", "peer": "yes"},
        (
            "request.invalid",
            "peer and confidence must be true or false",
        ),
    )
    opened = teacher.call("poll_open")["poll"]
    refused(teacher, "poll_transfer", {"id": number, "turn": "mirror"}, ALREADY_OPEN)
    teacher.call("poll_cancel", {"id": opened["id"]})
    assert teacher.call("poll_transfer", {"id": number, "turn": "rotate"})["ok"] is True, (
        "a cancelled one is no reveal"
    )
    assert not any(
        e == "poll_opened" and p.get("transfer") and p["transfer"]["turn"] == "mirror"
        for e, p in students[0].received()
    ), "nothing refused reached the room"


def test_a_question_asked_after_a_backtrack_or_on_a_large_board_is_not_asked_again_turned(people):
    teacher, _, _, original = revealed_question(people, steps=DEAD_END + 1)
    assert original["turnable"] is False
    refused(teacher, "poll_transfer", {"id": original["id"], "turn": "mirror"}, NOT_ARRIVING)
    teacher.call("class_end")
    teacher, _, _, original = revealed_question(people, rows=21, cols=21)
    assert original["turnable"] is False
    reply = teacher.call("poll_transfer", {"id": original["id"], "turn": "mirror"})
    assert reply == {"ok": False, "code": TOO_LARGE[0], "error": TOO_LARGE[1], "values": {"count": 400}}
