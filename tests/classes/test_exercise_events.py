"""A class's code exercise over a real server: the instructor opens it, each student's page sends
the verdict on its student's own code, and the instructor is told the tally, naming nobody."""

import pytest

from server.classes.exercise.checks import (
    BAD_EXERCISE,
    BAD_VERDICT,
    CODE_TOO_LONG,
    MAX_CODE_BYTES,
    VERDICT_EVERY,
)
from server.classes.exercise.slot import CLOSED, KEPT_CODES, NONE_OPEN, TOO_SOON, Exercise
from tests.support.polls import NOT_FOLLOWING, NOT_LEADING, open_class, refused
from tests.support.replies import refused as refusal
from tests.support.waiting import wait_for

WARNSDORFF = {"exercise": "warnsdorff", "rows": 5, "cols": 5, "start": 0}
MATCHED = {"matched": True, "events": 24, "differs": None, "problem": None}
PARTED = {"matched": False, "events": 90, "differs": [57, 12], "problem": None}
STOPPED = {"matched": False, "events": 3, "differs": [3, None], "problem": "lab.recursion"}


def tallied(teacher, **expected):
    """Wait until the instructor's last tally has expected's values; return it."""
    last = lambda: (teacher.named("exercise_count") or [{}])[-1]  # noqa: E731
    assert wait_for(lambda: all(last().get(key) == value for key, value in expected.items()), 10), last()
    return last()


def test_an_exercise_reaches_the_room_and_each_students_verdict_is_tallied_naming_nobody(people):
    teacher, students = people(), [people() for _ in range(3)]
    klass, _ = open_class(teacher, *students)
    opened = teacher.call("exercise_open", WARNSDORFF)
    exercise = {"id": 1, **WARNSDORFF}
    assert opened == {
        "ok": True,
        "exercise": exercise,
        **{"id": 1, "sent": 0, "matched": 0, "differ": 0, "stopped": 0},
        "heat": [],
        "verdicts": [],
    }
    for student in students:
        assert wait_for(lambda student=student: student.named("exercise_opened") == [exercise])
    # A student who joins now is welcomed into the exercise.
    late = people()
    assert late.call("class_join", {"code": klass["code"]})["ok"] is True
    assert wait_for(lambda: late.named("class_state"))
    assert late.named("class_state")[-1]["exercise"] == exercise
    for student, verdict in zip(students, (PARTED, MATCHED, STOPPED), strict=True):
        assert student.call("exercise_verdict", {"id": 1, **verdict}) == {"ok": True, "id": 1}
    tally = tallied(teacher, sent=3)
    assert tally == {
        "id": 1,
        "sent": 3,
        "matched": 1,
        "differ": 1,
        "stopped": 1,
        "heat": [[12, 1]],  # where the one who parted from the engine's search went instead
        "verdicts": [
            [True, 24, None, None, None],
            [False, 3, 3, None, "lab.recursion"],
            [False, 90, 57, 12, None],
        ],
    }
    # A page sends its verdict at most every VERDICT_EVERY seconds: the next waits its turn.
    assert students[1].call("exercise_verdict", {"id": 1, **PARTED}) == refusal(
        "exercise.too_soon", TOO_SOON, seconds=VERDICT_EVERY
    )
    assert students[0].named("exercise_count") == [], "the tally is the instructor's alone"
    # The instructor's page, reloaded, takes the class back with the tally, not after the next verdict.
    reloaded = people()
    claimed = reloaded.call("class_claim", {"code": klass["code"], "token": klass["token"]})
    assert claimed["ok"] is True and claimed["exercise"] == exercise and claimed["exercise_count"] == tally
    assert teacher.call("exercise_close", {"id": 1}) == refusal(*NOT_LEADING)
    assert reloaded.call("exercise_close", {"id": 1}) == {"ok": True, "id": 1}
    again = people()
    claimed = again.call("class_claim", {"code": klass["code"], "token": klass["token"]})
    assert claimed["ok"] is True and claimed["exercise"] is None and "exercise_count" not in claimed


@pytest.mark.parametrize(
    "verdict",
    [
        {"matched": "yes", "events": 1, "differs": None, "problem": None},
        {"matched": False, "events": -1, "differs": None, "problem": None},
        {"matched": False, "events": 5, "differs": [6, 1], "problem": None},  # parted after its end
        {"matched": False, "events": 5, "differs": [2, 25], "problem": None},  # off the 5x5 board
        {"matched": False, "events": 5, "differs": [2], "problem": None},
        {"matched": False, "events": 5, "differs": None, "problem": "lab.mine"},
        {"matched": True, "events": 5, "differs": [2, 1], "problem": None},
        {"matched": True, "events": 5.0, "differs": None, "problem": None},
    ],
)
def test_a_verdict_that_breaks_the_protocol_is_refused_and_takes_no_turn(people, verdict):
    teacher, student = people(), people()
    open_class(teacher, student)
    teacher.call("exercise_open", WARNSDORFF)
    refused(student, "exercise_verdict", {"id": 1, **verdict}, ("request.invalid", BAD_VERDICT))
    assert student.call("exercise_verdict", {"id": 1, **MATCHED}) == {"ok": True, "id": 1}


def test_only_the_instructor_opens_and_closes_and_only_a_student_sends_to_the_exercise_open(people):
    teacher, student, stranger = people(), people(), people()
    open_class(teacher, student)
    refused(student, "exercise_open", WARNSDORFF, NOT_LEADING)
    refused(teacher, "exercise_open", {**WARNSDORFF, "exercise": "mine"}, ("exercise.unknown", BAD_EXERCISE))
    off = ("request.invalid", "start must be a whole number from 0 to 24, not 25")
    refused(teacher, "exercise_open", {**WARNSDORFF, "start": 25}, off)
    refused(student, "exercise_verdict", {"id": 1, **MATCHED}, ("exercise.none", NONE_OPEN))
    refused(stranger, "exercise_verdict", {"id": 1, **MATCHED}, NOT_FOLLOWING)
    refused(teacher, "exercise_verdict", {"id": 1, **MATCHED}, NOT_FOLLOWING)
    assert teacher.call("exercise_open", WARNSDORFF)["exercise"]["id"] == 1
    assert student.call("exercise_verdict", {"id": 1, **MATCHED}) == {"ok": True, "id": 1}
    # Another exercise in its place: the verdicts on the first are gone, and one on it is refused.
    naive = teacher.call("exercise_open", {**WARNSDORFF, "exercise": "naive"})
    assert naive["exercise"]["id"] == 2 and naive["sent"] == 0
    refused(student, "exercise_verdict", {"id": 1, **MATCHED}, ("exercise.closed", CLOSED))
    refused(student, "exercise_close", {"id": 2}, NOT_LEADING)
    refused(teacher, "exercise_close", {"id": 1}, ("exercise.closed", CLOSED))
    assert teacher.call("exercise_close", {"id": 2}) == {"ok": True, "id": 2}
    assert wait_for(lambda: student.named("exercise_closed") == [{"id": 2}])
    refused(student, "exercise_verdict", {"id": 2, **MATCHED}, ("exercise.none", NONE_OPEN))
    refused(teacher, "exercise_close", {"id": 2}, ("exercise.none", NONE_OPEN))


def test_a_students_turn_comes_back_after_verdict_every_seconds_or_when_its_verdict_was_lost():
    held = Exercise(None)  # of no class: its tally is never poked here
    held.begin("naive", 5, 5, 0)
    held.take_turn("a", now=100.0)
    with pytest.raises(ValueError, match="one verdict every"):
        held.take_turn("a", now=100.0 + VERDICT_EVERY - 0.01)
    held.take_turn("b", now=100.5)  # everyone has a turn of their own
    held.take_turn("a", now=100.0 + VERDICT_EVERY)
    held.give_back("a")
    held.take_turn("a", now=100.0 + VERDICT_EVERY + 0.01)
    held.take_turn("a", now=100.0 + VERDICT_EVERY + 0.01, what="show")  # showing code has a turn of its own
    # A code shown again keeps its number, and takes the place of the one before; another
    # student's comes next.
    shown = [held.keep_shown(voter, code)["number"] for voter, code in (("a", "x"), ("b", "y"), ("a", "z"))]
    assert shown == [1, 2, 1]
    assert held.reclaimed()["exercise_codes"] == [
        {"id": 1, "number": 1, "code": "z"},
        {"id": 1, "number": 2, "code": "y"},
    ]
    # However many show their code, the codes kept for a reload are bounded; each still reaches the page.
    shown = [held.keep_shown(f"voter {n}", "pass") for n in range(KEPT_CODES + 5)]
    assert shown[-1] == {"id": 1, "number": KEPT_CODES + 7, "code": "pass"}
    assert len(held.reclaimed()["exercise_codes"]) == KEPT_CODES
    held.begin("naive", 5, 5, 0)
    assert held.keep_shown("b", "y")["number"] == 1, "a new exercise numbers afresh"
    assert held.reclaimed()["exercise_codes"] == [{"id": 2, "number": 1, "code": "y"}]


def test_a_students_code_reaches_the_instructor_alone_under_a_number_never_a_name(people):
    teacher, first, second = people(), people(), people()
    klass, _ = open_class(teacher, first, second)
    teacher.call("exercise_open", WARNSDORFF)
    code = "def main(rows, cols, start):\n    return True\n"
    assert first.call("exercise_show", {"id": 1, "code": code}) == {"ok": True, "id": 1}
    assert second.call("exercise_show", {"id": 1, "code": "pass"}) == {"ok": True, "id": 1}
    assert wait_for(lambda: len(teacher.named("exercise_code")) == 2)
    assert teacher.named("exercise_code") == [
        {"id": 1, "number": 1, "code": code},
        {"id": 1, "number": 2, "code": "pass"},
    ]
    assert first.named("exercise_code") == second.named("exercise_code") == [], "the instructor's alone"
    assert first.call("exercise_show", {"id": 1, "code": code}) == refusal(
        "exercise.too_soon", TOO_SOON, seconds=VERDICT_EVERY
    )
    # A verdict has a turn of its own, and so does a code too long (refused before it takes one).
    assert first.call("exercise_verdict", {"id": 1, **MATCHED}) == {"ok": True, "id": 1}
    long = "#" * (MAX_CODE_BYTES + 1)
    assert second.call("exercise_show", {"id": 1, "code": long}) == refusal(
        "exercise.code_too_long", CODE_TOO_LONG, bytes=MAX_CODE_BYTES
    )
    refused(
        second,
        "exercise_show",
        {"id": 1, "code": 5},
        ("request.invalid", "'exercise_show' needs an object with id and code (your code, as text)"),
    )
    refused(second, "exercise_show", {"id": 2, "code": "pass"}, ("exercise.closed", CLOSED))
    # The instructor's page, reloaded, takes the class back with the codes shown, not as they
    # are shown again.
    reloaded = people()
    claimed = reloaded.call("class_claim", {"code": klass["code"], "token": klass["token"]})
    assert claimed["exercise_codes"] == teacher.named("exercise_code")


def test_a_verdict_sent_through_another_process_is_paced_there_and_tallied_by_the_owner(clusters, connect):
    cluster = clusters(2)
    first, second = cluster.apps  # the class is the first's
    teacher, there = connect(first.url), connect(second.url)
    code = teacher.call("class_open")["code"]
    assert there.call("class_join", {"code": code})["ok"] is True
    assert wait_for(lambda: there.named("class_state"), 10)
    opened = teacher.call("exercise_open", WARNSDORFF)["exercise"]
    # The second process hears of the exercise from what the owner tells the room.
    assert wait_for(lambda: there.named("exercise_opened") == [opened], 10)
    assert there.call("exercise_verdict", {"id": 1, **PARTED}) == {"ok": True, "id": 1}
    assert tallied(teacher, sent=1)["heat"] == [[12, 1]]
    assert there.call("exercise_verdict", {"id": 1, **MATCHED})["code"] == "exercise.too_soon"
    assert teacher.call("exercise_close", {"id": 1})["ok"] is True
    assert wait_for(lambda: there.named("exercise_closed") == [{"id": 1}], 10)
    refused(there, "exercise_verdict", {"id": 1, **MATCHED}, ("exercise.none", NONE_OPEN))
