"""Class polls over a real server: the instructor asks for the run's next move, the room answers."""

import time

import pytest

from server.classes.questions.polls import HISTORY, PollBook
from server.classes.registry import classes
from server.classes.throttle import Throttle
from server.runs.registry import runs
from server.wire import encode
from tests.support.polls import (
    ALREADY_OPEN,
    ANSWERED,
    BAD_ID,
    BAD_SERIES,
    BAD_SQUARE,
    CLOSED,
    COMPLETE,
    DEAD_END,
    ENDED,
    NEEDS,
    NO_RUN,
    NONE_OPEN,
    NOT_FOLLOWING,
    NOT_LEADING,
    ON_GRAPH,
    ONE_ROUND,
    QUESTION_OPEN,
    RUN,
    TOUR,
    answer,
    counted,
    move_after,
    open_class,
    refused,
    start_paused,
    step,
)
from tests.support.replay import path_of
from tests.support.waiting import wait_for


def test_a_question_pauses_the_run_and_its_reveal_plays_the_move_for_everyone(people, live_server):
    teacher, students = people(), [people() for _ in range(3)]
    open_class(teacher, *students)
    run = teacher.call("start", {**RUN, "speed": 20})["run"]
    assert wait_for(lambda: all(len(s.followed()[0]) >= 5 for s in students))
    asked = teacher.call("poll_open")
    assert asked["ok"] is True
    assert (asked["answered"], asked["late"], asked["present"]) == (0, 0, 3), "the count as it starts"
    poll, player = asked["poll"], runs(live_server.app).get(teacher.sid)
    at = poll["at"]
    assert player.state() == "paused" and player.events == at
    square = path_of(TOUR[:at])[-1]
    asked_at = poll.pop("asked")
    assert poll == {
        "id": 1,
        "run": run,
        "at": at,
        "square": square,
        "index": 1,
        "of": 1,
        "series": 1,
        **ONE_ROUND,
    }
    assert abs(asked_at - time.time() * 1000) < 60_000, "the millisecond it was asked, Unix time"
    poll["asked"] = asked_at
    # Batches on their way when it paused still arrive: everyone's board ends at the question's.
    assert wait_for(lambda: teacher.count() == at and all(len(s.followed()[0]) == at for s in students))
    for student in students:
        assert wait_for(lambda student=student: student.named("poll_opened") == [poll])
        told = [event for event, _ in student.received() if event in ("class_control", "poll_opened")]
        assert told[-2:] == ["class_control", "poll_opened"]
        assert student.named("class_control")[-1]["state"] == "paused"

    right, kind = move_after(at)
    wrong = poll["square"]  # where the knight is: no move at all
    for student, square in zip(students, (right, wrong, right), strict=True):
        answer(student, poll, square)
    assert counted(teacher, poll, 3)
    assert all(not student.named("poll_count") for student in students), "the count is the instructor's"

    revealed = teacher.call("poll_reveal", {"id": poll["id"]})
    result = {
        **poll,
        "answer": right,
        "kind": kind,
        "counts": sorted([[right, 2], [wrong, 1]]),
        "answered": 3,
        "late": 0,
        "seated": 0,
        "present": 3,
        "right": 2,
        "rounds": [
            {"answered": 3, "late": 0, "seated": 0, "counts": sorted([[right, 2], [wrong, 1]]), "right": 2}
        ],
        "turnable": True,  # asked as the knight arrived: it can be asked again turned
    }
    assert revealed == {"ok": True, "result": result}
    for student in students:
        assert wait_for(lambda student=student: student.named("poll_revealed") == [result])
    # Then the move itself, as a step: exactly one event, the one the class was asked about.
    assert wait_for(lambda: teacher.count() == at + 1)
    assert teacher.named("events")[-1] == {"run": run, "first": at, "events": encode([TOUR[at]])}
    for student in students:
        assert wait_for(lambda student=student: len(student.followed()[0]) == at + 1)
        assert student.followed()[1][-1] == right
    assert player.events == at + 1 and player.state() == "paused"


def test_questions_are_numbered_and_go_in_series(people):
    teacher, student = people(), people()
    open_class(teacher, student)
    start_paused(teacher, steps=1)

    def ask(data=None):
        asked = teacher.call("poll_open", data)
        assert asked["ok"] is True, asked
        return asked["poll"]

    def reveal(poll):
        goal = teacher.count() + 1
        assert teacher.call("poll_reveal", {"id": poll["id"]})["ok"] is True
        assert wait_for(lambda: teacher.count() == goal)  # its move has played

    def place(poll):
        return poll["id"], poll["index"], poll["of"], poll["series"]

    first = ask({"series": 3})
    assert place(first) == (1, 1, 3, 1)
    refused(teacher, "poll_open", {"series": 2}, ALREADY_OPEN)
    reveal(first)
    second = ask()
    assert place(second) == (2, 2, 3, 1)
    assert teacher.call("poll_cancel", {"id": 2}) == {"ok": True, "id": 2}
    again = ask()  # a cancelled question leaves its place in the series to the next
    assert place(again) == (3, 2, 3, 1)
    reveal(again)
    last = ask({})
    assert place(last) == (4, 3, 3, 1)
    reveal(last)
    single = ask()  # the series is over: a question on its own
    assert place(single) == (5, 1, 1, 2)
    reveal(single)
    abandoned = ask({"series": 4})
    assert place(abandoned) == (6, 1, 4, 3)
    reveal(abandoned)
    anew = ask({"series": 2})  # a new series, whatever was left of the last one
    assert place(anew) == (7, 1, 2, 4)
    assert wait_for(lambda: [p["id"] for p in student.named("poll_opened")] == [1, 2, 3, 4, 5, 6, 7])
    assert student.named("poll_closed") == [{"id": 2}]


def test_at_a_dead_end_the_answer_is_the_square_the_knight_backs_up_to(people):
    teacher, student = people(), people()
    open_class(teacher, student)
    run = start_paused(teacher, steps=DEAD_END)
    path = path_of(TOUR[:DEAD_END])
    poll = teacher.call("poll_open")["poll"]
    assert poll["at"] == DEAD_END and poll["square"] == path[-1]
    assert wait_for(lambda: student.named("poll_opened"))
    answer(student, poll, path[-2])
    result = teacher.call("poll_reveal", {"id": poll["id"]})["result"]
    assert (result["answer"], result["kind"], result["right"]) == (path[-2], "back", 1)
    # The step that follows is that backtrack: the knight is back on the square answered.
    assert wait_for(lambda: teacher.count() == DEAD_END + 1)
    assert teacher.named("events")[-1] == {"run": run, "first": DEAD_END, "events": [-path[-1] - 1]}
    assert wait_for(lambda: len(student.followed()[0]) == DEAD_END + 1)
    assert student.followed()[1] == path[:-1] and student.followed()[1][-1] == result["answer"]


def test_only_the_instructor_asks_reveals_and_cancels(people):
    teacher, student, stranger = people(), people(), people()
    open_class(teacher, student)
    start_paused(teacher, steps=1)
    for client in (student, stranger):
        refused(client, "poll_open", None, NOT_LEADING)
        refused(client, "poll_open", {"series": 3}, NOT_LEADING)
    poll = teacher.call("poll_open")["poll"]
    for client in (student, stranger):
        refused(client, "poll_reveal", {"id": poll["id"]}, NOT_LEADING)
        refused(client, "poll_cancel", {"id": poll["id"]}, NOT_LEADING)
    # Nor does anyone but a follower answer: not the instructor, not a page outside the class.
    for client in (teacher, stranger):
        refused(client, "poll_answer", {"id": poll["id"], "square": 7}, NOT_FOLLOWING)
    assert student.call("class_leave")["ok"] is True
    refused(student, "poll_answer", {"id": poll["id"], "square": 7}, NOT_FOLLOWING)
    assert teacher.call("poll_reveal", {"id": poll["id"]})["result"]["answered"] == 0


def test_a_question_needs_a_run_with_a_move_to_come(people, live_server):
    teacher = people()
    open_class(teacher)
    refused(teacher, "poll_open", None, NO_RUN)
    # On a 1x1 board, the visit of the start square is a tour: "found" comes next.
    start_paused(teacher, steps=1, rows=1, cols=1)
    refused(teacher, "poll_open", None, COMPLETE)
    assert runs(live_server.app).get(teacher.sid).state() == "paused", "a refused question changes nothing"
    # On a 2x2 board the knight has no move: the backtrack out of the start square ends the search.
    start_paused(teacher, steps=1, rows=2, cols=2)
    refused(teacher, "poll_open", None, ENDED)
    teacher.call("step")
    assert wait_for(lambda: teacher.result is not None)
    refused(teacher, "poll_open", None, ENDED)
    # A run whose budget has run out has no next move either.
    start_paused(teacher, steps=2, budget=2)
    refused(teacher, "poll_open", None, ENDED)
    assert wait_for(lambda: len(teacher.named("finished")) == 2)
    refused(teacher, "poll_open", None, ENDED)
    # The example graph has vertices, not squares to tap.
    example = {"graph": "example", "start": 0, "order": "naive", "speed": 2000, "paused": True}
    assert teacher.call("start", example)["ok"]
    refused(teacher, "poll_open", None, ON_GRAPH)


def test_answers_are_checked_one_each_for_the_open_question(people):
    teacher, student, other = people(), people(), people()
    open_class(teacher, student, other)
    start_paused(teacher, steps=1)
    refused(student, "poll_answer", {"id": 1, "square": 7}, NONE_OPEN)
    refused(teacher, "poll_reveal", {"id": 1}, NONE_OPEN)
    refused(teacher, "poll_cancel", {"id": 1}, NONE_OPEN)
    for series in (0, 21, -1, "3", 2.5, True, [3]):
        refused(teacher, "poll_open", {"series": series}, BAD_SERIES)
    refused(teacher, "poll_open", 3, BAD_SERIES)
    poll = teacher.call("poll_open", {"series": None})["poll"]
    assert poll["id"] == 1 and wait_for(lambda: student.named("poll_opened"))
    for data in (None, [1, 7], "7", {"id": 1}, {"square": 7}):
        refused(student, "poll_answer", data, NEEDS)
    for number in ("1", 0, -1, 1.0, True, None, [1]):
        refused(student, "poll_answer", {"id": number, "square": 7}, BAD_ID)
        refused(teacher, "poll_reveal", {"id": number}, BAD_ID)
        refused(teacher, "poll_cancel", {"id": number}, BAD_ID)
    for data in (None, {}, [1]):
        refused(teacher, "poll_reveal", data, BAD_ID)
    for square in (-1, 25, 1024, 10**12, "7", 7.0, False, None, [7]):
        refused(student, "poll_answer", {"id": 1, "square": square}, BAD_SQUARE)
    for number in (2, 99):  # any number but the open question's
        refused(student, "poll_answer", {"id": number, "square": 7}, CLOSED)
        refused(teacher, "poll_reveal", {"id": number}, CLOSED)
        refused(teacher, "poll_cancel", {"id": number}, CLOSED)
    answer(student, poll, 24)
    refused(student, "poll_answer", {"id": 1, "square": 24}, ANSWERED)
    refused(student, "poll_answer", {"id": 1, "square": 7}, ANSWERED)  # a change of mind too
    answer(other, poll, 0)
    assert counted(teacher, poll, 2)
    result = teacher.call("poll_reveal", {"id": 1})["result"]
    assert result["counts"] == [[0, 1], [24, 1]] and result["answered"] == 2
    # Too late: the question is closed, and when another is open, it is not that one.
    refused(student, "poll_answer", {"id": 1, "square": 7}, NONE_OPEN)
    refused(teacher, "poll_reveal", {"id": 1}, NONE_OPEN)
    assert wait_for(lambda: teacher.count() == 2)
    following = teacher.call("poll_open")["poll"]
    assert following["id"] == 2
    refused(student, "poll_answer", {"id": 1, "square": 7}, CLOSED)
    answer(student, following, 7)  # a new question, a new answer


@pytest.mark.parametrize(
    "event, payload", [("start", RUN), ("resume", None), ("step", None), ("skip", None), ("stop", None)]
)
def test_the_run_waits_for_the_open_question(people, live_server, event, payload):
    teacher, student = people(), people()
    open_class(teacher, student)
    run = start_paused(teacher, steps=3)
    player = runs(live_server.app).get(teacher.sid)
    poll = teacher.call("poll_open")["poll"]
    refused(teacher, event, payload, QUESTION_OPEN)
    assert teacher.call("speed", {"speed": 50}) == {"ok": True}
    assert teacher.call("pause") == {"ok": True}
    assert runs(live_server.app).get(teacher.sid) is player
    assert player.events == 3 and player.state() == "paused"
    assert teacher.call("poll_cancel", {"id": poll["id"]})["ok"] is True
    assert teacher.call(event, payload)["ok"] is True  # the run is the instructor's again
    assert player.events >= 3 and teacher.started[0]["run"] == run


def test_a_late_joiner_is_asked_too(people):
    teacher, early = people(), people()
    opened, _ = open_class(teacher, early)
    start_paused(teacher, steps=4)
    poll = teacher.call("poll_open")["poll"]
    late = people()
    joined = late.call("class_join", {"code": opened["code"]})
    assert joined["ok"] is True and joined["answer"] is None
    assert late.named("class_state")[-1]["poll"] == poll
    answer(late, poll, 5, late=True)
    # Its answer is taken, and counted apart: it joined after the question was asked.
    assert counted(teacher, poll, 0, late=1)
    teacher.call("poll_reveal", {"id": poll["id"]})
    newest = people()
    newest.call("class_join", {"code": opened["code"]})
    assert newest.named("class_state")[-1]["poll"] is None


def test_a_student_who_comes_back_gets_its_answer_and_cannot_answer_again(people):
    teacher, student = people(), people()
    opened, (joined,) = open_class(teacher, student)
    code = opened["code"]
    start_paused(teacher, steps=1)
    poll = teacher.call("poll_open")["poll"]
    assert wait_for(lambda: student.named("poll_opened"))
    answer(student, poll, 7)
    student.close()
    back = people()
    again = back.call("class_join", {"code": code, "voter": joined["voter"]})
    assert again["ok"] is True and again["voter"] == joined["voter"] and again["answer"] == 7
    refused(back, "poll_answer", {"id": poll["id"], "square": 11}, ANSWERED)
    # A pass that is not the server's, or another class's, is no way to answer as someone else:
    # the page is given a voter of its own.
    voter_id, signature = joined["voter"].split(".")
    other = people()
    elsewhere = other.call("class_open")["code"]
    forger = people()
    passes = [f"{voter_id}.{signature[::-1]}", voter_id, "x" * 500, 42, None]
    for forged in passes:
        given = forger.call("class_join", {"code": code, "voter": forged})
        assert given["ok"] is True and given["answer"] is None
        assert given["voter"] not in (joined["voter"], forged)
    other_pass = forger.call("class_join", {"code": elsewhere})["voter"]
    given = forger.call("class_join", {"code": code, "voter": other_pass})
    assert given["voter"] != other_pass and given["answer"] is None
    answer(forger, poll, 12, late=True)
    result = teacher.call("poll_reveal", {"id": poll["id"]})["result"]
    assert (result["counts"], result["late"]) == ([[7, 1]], 1), "the forger's pass is new: counted apart"


def test_pages_that_join_once_a_question_is_asked_cannot_outvote_the_class(people):
    teacher, students = people(), [people() for _ in range(3)]
    opened, joined = open_class(teacher, *students)
    start_paused(teacher, steps=2)
    poll = teacher.call("poll_open")["poll"]
    right, _ = move_after(poll["at"])
    answer(students[0], poll, right)
    # A student whose connection drops comes back during the question with its pass: still present.
    students[1].close()
    back = people()
    assert back.call("class_join", {"code": opened["code"], "voter": joined[1]["voter"]})["answer"] is None
    answer(back, poll, right)
    # A script joins many times once the question is open, each time answering the same wrong square.
    for _ in range(6):
        script = people()
        assert script.call("class_join", {"code": opened["code"]})["ok"] is True
        answer(script, poll, poll["square"], late=True)
    assert counted(teacher, poll, 2, late=6)
    assert teacher.named("poll_count")[-1]["present"] == 3, "the students following when it was asked"
    result = teacher.call("poll_reveal", {"id": poll["id"]})["result"]
    assert (result["counts"], result["answered"], result["right"]) == ([[right, 2]], 2, 2)
    assert (result["late"], result["present"]) == (6, 3)


def test_the_question_outlives_the_instructors_connection(people, live_server):
    classes(live_server.app).orphan_seconds = 60  # no reaping while the instructor is away
    teacher, student = people(), people()
    opened, _ = open_class(teacher, student)
    start_paused(teacher, steps=2)
    first = teacher.call("poll_open")["poll"]
    answer(student, first, move_after(2)[0])
    earlier = teacher.call("poll_reveal", {"id": first["id"]})["result"]
    assert wait_for(lambda: teacher.count() == 3)
    poll = teacher.call("poll_open")["poll"]
    assert wait_for(lambda: student.named("poll_opened")[-1:] == [poll])
    answer(student, poll, 4)
    teacher.close()
    assert wait_for(lambda: student.named("class_control")[-1]["state"] == "away")
    again = people()
    claim = again.call("class_claim", {"code": opened["code"], "token": opened["token"]})
    assert claim["ok"] is True and claim["poll"] == poll and claim["answered"] == 1
    assert claim["history"] == [earlier] and claim["snapshot"]["events"] == poll["at"]
    refused(again, "resume", None, QUESTION_OPEN)
    result = again.call("poll_reveal", {"id": poll["id"]})["result"]
    assert result["answered"] == 1 and result["counts"] == [[4, 1]]
    # The move goes to the page that leads the class now.
    assert wait_for(lambda: again.named("events"))
    move = {"run": claim["run"]["run"], "first": poll["at"], "events": encode([TOUR[3]])}
    assert again.named("events") == [move]


def test_a_cancelled_question_is_dropped_and_the_run_stays(people, live_server):
    teacher, student = people(), people()
    opened, _ = open_class(teacher, student)
    start_paused(teacher, steps=3)
    poll = teacher.call("poll_open")["poll"]
    answer(student, poll, 1)
    assert teacher.call("poll_cancel", {"id": poll["id"]}) == {"ok": True, "id": poll["id"]}
    assert wait_for(lambda: student.named("poll_closed") == [{"id": poll["id"]}])
    assert not student.named("poll_revealed")
    assert runs(live_server.app).get(teacher.sid).events == 3
    refused(student, "poll_answer", {"id": poll["id"], "square": 2}, NONE_OPEN)
    late = people()
    late.call("class_join", {"code": opened["code"]})
    assert late.named("class_state")[-1]["poll"] is None
    step(teacher)  # the run is the instructor's again
    claim = people().call("class_claim", {"code": opened["code"], "token": opened["token"]})
    assert claim["poll"] is None and claim["answered"] == 0 and claim["history"] == []


def test_ending_a_class_forgets_its_polls(people):
    teacher, student = people(), people()
    opened, _ = open_class(teacher, student)
    start_paused(teacher, steps=1)
    first = teacher.call("poll_open")["poll"]
    teacher.call("poll_reveal", {"id": first["id"]})
    teacher.call("poll_open")
    assert teacher.call("class_end")["ok"] is True
    # Nothing of the class's polls holds up its instructor's run any more.
    assert teacher.call("resume") == {"ok": True}
    # Its token opens nothing now; the instructor's next class asks its questions afresh.
    claim = people().call("class_claim", {"code": opened["code"], "token": opened["token"]})
    assert (claim["ok"], claim["code"]) == (False, "class.ended")
    assert teacher.call("class_open")["ok"] is True
    start_paused(teacher, steps=1)
    assert teacher.call("poll_open")["poll"]["id"] == 1
    assert teacher.call("class_end")["ok"] is True


def test_the_instructor_is_sent_a_count_five_times_a_second_at_most(people):
    teacher, students = people(), [people() for _ in range(12)]
    open_class(teacher, *students)
    start_paused(teacher, steps=1)
    poll = teacher.call("poll_open")["poll"]
    assert wait_for(lambda: all(s.named("poll_opened") for s in students))
    for square, student in enumerate(students):  # all at once, not waiting for the answers
        student.sio.emit("poll_answer", {"id": poll["id"], "square": square})
    assert counted(teacher, poll, 12)
    assert len(teacher.named("poll_count")) < 12, "counts that came together went as one"


def test_a_count_goes_at_once_then_at_most_every_interval_and_the_last_is_never_lost():
    now, sent, tasks = [0.0], [], []
    answers = iter([3, 0])  # answers that come during each wait

    def sleep(seconds):
        now[0] += seconds
        for _ in range(next(answers, 0)):
            throttle.poke()

    def start_task(run):
        tasks.append(run)
        run()

    throttle = Throttle(lambda: sent.append(now[0]), 0.2, start_task, sleep, clock=lambda: now[0])
    throttle.poke()
    assert sent == [0.0, 0.2] and len(tasks) == 1  # three pokes while waiting: one send
    now[0] = 5.0
    throttle.poke()  # long after: at once, from a new task (the first one ended)
    assert sent == [0.0, 0.2, 5.0] and len(tasks) == 2


def test_a_class_keeps_the_results_of_its_last_200_questions():
    book = PollBook()
    for _ in range(HISTORY + 5):
        poll = book.pose(1, 0, (None, 0, "visit"), 25)
        book.reveal(poll.id)
    results = book.results()
    assert len(results) == HISTORY == 200
    assert [r["id"] for r in results] == list(range(6, HISTORY + 6))
    assert results[-1]["series"] == HISTORY + 5, "each question on its own is a series of one"
