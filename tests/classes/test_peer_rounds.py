"""Two-round questions (Peer Instruction): answer alone, discuss, answer again, then the reveal
with both rounds, the shift between them and how sure the answers were."""

import pytest

from server.classes.questions.polls import PollBook
from tests.support.polls import (
    ANSWERED,
    CLOSED,
    NOT_LEADING,
    ONE_ROUND,
    answer,
    counted,
    move_after,
    open_class,
    refused,
    rejoin,
    start_paused,
)
from tests.support.waiting import wait_for

DISCUSSING = ("question.discussing", "the class is discussing: answers open again with the second round")
ROUND_CLOSED = ("question.round_closed", "that round is closed")
BAD_SURE = (
    "question.bad_sure",
    "sure must be true or false, and only for a question that asks how sure you are",
)
ONE_ROUND_ONLY = ("question.one_round", "this question has one round: reveal it")
BAD_STAGE = (
    "question.bad_stage",
    "a question with two rounds goes from the first round to the discussion, then to the second round",
)
BAD_STAGE_NAME = ("request.invalid", "stage must be 'discuss' or 'second'")
BAD_FLAG = ("request.invalid", "peer and confidence must be true or false")
BAD_ROUND = ("request.invalid", "round must be 1 or 2")
BAD_TIMER = ("request.invalid", "seconds must be a whole number from 10 to 600")


def sure(yes, no, unsaid):
    """Return how sure a round's right (or wrong) answers were, as a result says."""
    return {"sure": yes, "unsure": no, "unsaid": unsaid}


NO_SURE = sure(0, 0, 0)


def peer_book():
    """Return a poll book with a two-round question open whose answer is square 7, asking how sure."""
    book = PollBook()
    poll = book.pose(1, 3, (2, 7, "visit"), 25, peer=True, confidence=True, present=4)
    return book, poll


def test_the_shift_counts_each_voter_present_in_both_rounds_by_pair_of_squares():
    book, poll = peer_book()
    late = f"{poll.asked + 1:x}-late"  # a pass issued once the question was asked
    first = (("a", 7, True), ("b", 7, False), ("c", 3, True), ("d", 4, None), (late, 3, True))
    for voter, square, said in first:
        book.answer(voter, poll.id, square, said, 1)
    book.advance(poll.id, "discuss")
    book.advance(poll.id, "second")
    second = (("a", 7, True), ("b", 3, True), ("c", 7, True), ("d", 7, False), ("e", 7, None))
    for voter, square, said in second:
        book.answer(voter, poll.id, square, said, 2)
    book.answer(late, poll.id, 7, True, 2)
    result = book.reveal(poll.id)
    first, second = result["rounds"]
    assert first == {
        "answered": 4,
        "late": 1,
        "seated": 0,
        "counts": [[3, 1], [4, 1], [7, 2]],
        "right": 2,
        "sure": {"right": sure(1, 1, 0), "wrong": sure(1, 0, 1)},
    }
    assert second == {
        "answered": 5,
        "late": 1,
        "seated": 0,
        "counts": [[3, 1], [7, 4]],
        "right": 4,
        "sure": {"right": sure(2, 1, 1), "wrong": sure(1, 0, 0)},
    }
    # The top of the result is the last round's: the board's heatmap shows it.
    top = (result["answered"], result["counts"], result["right"], result["late"])
    assert top == (5, [[3, 1], [7, 4]], 4, 1)
    # e answered the second round only, the late voter is counted apart: neither is in the shift.
    assert result["shift"] == [[3, 7, 1], [4, 7, 1], [7, 3, 1], [7, 7, 1]]
    assert result["moved"] == {"right_right": 1, "wrong_right": 2, "right_wrong": 1, "wrong_wrong": 0}
    assert [result[key] for key in ("peer", "confidence", "stage", "round")] == [True, True, "second", 2]


def test_a_two_round_question_revealed_before_its_second_round_has_one_round_and_no_shift():
    book, poll = peer_book()
    book.answer("a", poll.id, 7)
    book.advance(poll.id, "discuss")
    result = book.reveal(poll.id)
    assert len(result["rounds"]) == 1 and "shift" not in result and "moved" not in result
    assert result["rounds"][0]["sure"] == {"right": {**NO_SURE, "unsaid": 1}, "wrong": NO_SURE}


def test_a_soft_timer_that_has_run_out_closes_nothing():
    book, poll = peer_book()
    poll.start_timer(10, 100.0)
    assert poll.timer_news(now=104.5) == {"seconds": 10, "left": 5.5}
    assert poll.timer_news(now=130.0) == {"seconds": 10, "left": 0.0}
    poll.start_timer(10, 0.0)  # ran out long ago
    assert poll.question()["timer"] == {"seconds": 10, "left": 0.0}
    assert book.answer("a", poll.id, 7) is False, "an answer is taken after the time has run out"


def test_another_process_follows_the_stages_it_hears_and_checks_answers_against_them():
    owner, poll = peer_book()
    heard = PollBook()
    heard.heard("poll_opened", poll.question())
    assert heard.open.peer and heard.open.confidence and heard.open.stage == "first"
    heard.answer("a", poll.id, 7, True)
    for stage in ("discuss", "second"):
        owner.advance(poll.id, stage)
        heard.heard("poll_stage", {"id": poll.id, "stage": stage, "round": 2 if stage == "second" else 1})
        heard.heard("poll_stage", {"id": poll.id, "stage": stage})  # told twice: no harm
        assert heard.open.stage == stage
    assert len(heard.open.rounds) == 2
    for stage in (None, "third", "first"):  # no stage after the second round
        heard.heard("poll_stage", {"id": poll.id, "stage": stage})
        assert heard.open.stage == "second"
    assert heard.answer_of("a") == (None, 7)
    heard.answer("a", poll.id, 3, False, 2)
    assert heard.answer_of("a") == (3, 7)
    # A page welcomed mid-question learns its stage from the class's state.
    late = PollBook()
    late.heard("class_state", {"run": None, "poll": owner.question()})
    assert late.open.stage == "second" and len(late.open.rounds) == 2


def two_round_class(people, **asked):
    """Open a class of four students, start its run and ask a two-round question; return the
    instructor, the students, their join replies, the question and the right answer."""
    teacher, students = people(), [people() for _ in range(4)]
    _, joined = open_class(teacher, *students)
    start_paused(teacher, steps=3)
    opened = teacher.call("poll_open", {"peer": True, **asked})
    assert opened["ok"] is True and (opened["answered"], opened["present"]) == (0, 4)
    poll = opened["poll"]
    assert {key: poll[key] for key in ONE_ROUND} == {**ONE_ROUND, "peer": True, "confidence": bool(asked)}
    assert wait_for(lambda: all(s.named("poll_opened") == [poll] for s in students))
    return teacher, students, joined, poll, move_after(poll["at"])[0]


def stage(teacher, students, poll, name):
    """Move the question on to stage name; check the instructor's reply and that the room is told."""
    news = {"id": poll["id"], "stage": name, "round": 2 if name == "second" else 1}
    reply = teacher.call("poll_stage", {"id": poll["id"], "stage": name})
    assert reply["ok"] is True and {key: reply[key] for key in news} == news
    assert wait_for(lambda: all(s.named("poll_stage")[-1:] == [news] for s in students))
    return reply


def sure_of(said):
    return {} if said is None else {"sure": said}


def test_two_rounds_a_discussion_and_a_reveal_with_the_shift_and_how_sure(people):
    teacher, students, joined, poll, right = two_round_class(people, confidence=True)
    wrong = poll["square"]  # where the knight stands: never its next move
    # Round 1: two right, both sure; two wrong, one sure and one who does not say.
    plan = ((right, True), (right, True), (wrong, True), (wrong, None))
    for student, (square, said) in zip(students, plan, strict=True):
        answer(student, poll, square, round=1, **sure_of(said))
    assert counted(teacher, poll, 4)
    assert all(not s.named("poll_count") for s in students), "the count is the instructor's"

    reply = stage(teacher, students, poll, "discuss")
    assert (reply["answered"], reply["late"]) == (4, 0), "the first round's count stands while they discuss"
    refused(students[0], "poll_answer", {"id": poll["id"], "square": right}, DISCUSSING)
    # A page that comes back while the class discusses is shown its first answer.
    again = rejoin(people, joined[2])
    assert (again["answer"], again["first"]) == (None, wrong)

    reply = stage(teacher, students, poll, "second")
    assert (reply["answered"], reply["late"]) == (0, 0), "the second round is counted afresh"
    # An answer meant for the first round that arrives now is refused, not counted in the second.
    refused(students[1], "poll_answer", {"id": poll["id"], "square": right, "round": 1}, ROUND_CLOSED)
    # Round 2: three right; the second student goes from right to wrong, unsure.
    plan = ((right, True), (wrong, False), (right, True), (right, False))
    for student, (square, said) in zip(students, plan, strict=True):
        answer(student, poll, square, round=2, sure=said)
    refused(students[0], "poll_answer", {"id": poll["id"], "square": wrong, "round": 2}, ANSWERED)
    assert counted(teacher, poll, 4)
    again = rejoin(people, joined[1])
    assert (again["answer"], again["first"]) == (wrong, right)

    result = teacher.call("poll_reveal", {"id": poll["id"]})["result"]
    assert [(r["answered"], r["right"]) for r in result["rounds"]] == [(4, 2), (4, 3)]
    assert result["moved"] == {"right_right": 1, "wrong_right": 2, "right_wrong": 1, "wrong_wrong": 0}
    assert result["shift"] == sorted([[right, right, 1], [right, wrong, 1], [wrong, right, 2]])
    assert result["rounds"][0]["sure"] == {"right": sure(2, 0, 0), "wrong": sure(1, 0, 1)}
    assert result["rounds"][1]["sure"] == {"right": sure(2, 1, 0), "wrong": sure(0, 1, 0)}
    heatmap = sorted([[right, 3], [wrong, 1]])
    assert (result["counts"], result["right"]) == (heatmap, 3), "the heatmap shows round 2"
    assert wait_for(lambda: all(s.named("poll_revealed") == [result] for s in students))
    assert teacher.call("poll_answer", {"id": poll["id"], "square": right})["ok"] is False


@pytest.mark.parametrize(
    ("asked", "refusal"),
    [({"peer": "yes"}, BAD_FLAG), ({"confidence": 1}, BAD_FLAG), ({"peer": None}, BAD_FLAG)],
)
def test_a_question_asked_with_bad_flags_is_refused(people, asked, refusal):
    teacher, student = people(), people()
    open_class(teacher, student)
    start_paused(teacher, steps=1)
    refused(teacher, "poll_open", asked, refusal)
    assert teacher.call("poll_open", {"peer": False, "confidence": False})["ok"] is True


def test_stages_go_in_order_and_only_the_instructor_moves_them(people):
    teacher, students, _, poll, right = two_round_class(people)
    number = poll["id"]
    refused(teacher, "poll_stage", {"id": number, "stage": "second"}, BAD_STAGE)
    for bad in ({"id": number}, {"id": number, "stage": "third"}, {"id": number, "stage": ["discuss"]}):
        refused(teacher, "poll_stage", bad, BAD_STAGE_NAME)
    refused(teacher, "poll_stage", {"id": number + 1, "stage": "discuss"}, CLOSED)
    refused(students[0], "poll_stage", {"id": number, "stage": "discuss"}, NOT_LEADING)
    # How sure is asked only when the instructor asks it; a round is 1 or 2.
    refused(students[0], "poll_answer", {"id": number, "square": right, "sure": True}, BAD_SURE)
    refused(students[0], "poll_answer", {"id": number, "square": right, "round": 3}, BAD_ROUND)
    refused(students[0], "poll_answer", {"id": number, "square": right, "round": 2}, ROUND_CLOSED)
    assert not any(s.named("poll_stage") for s in students), "nothing refused reached the room"
    stage(teacher, students, poll, "discuss")
    refused(teacher, "poll_stage", {"id": number, "stage": "discuss"}, BAD_STAGE)
    stage(teacher, students, poll, "second")
    refused(teacher, "poll_stage", {"id": number, "stage": "second"}, BAD_STAGE)
    refused(teacher, "poll_stage", {"id": number, "stage": "discuss"}, BAD_STAGE)
    answer(students[0], poll, right, round=2)
    assert teacher.call("poll_reveal", {"id": number})["result"]["rounds"][1]["answered"] == 1


def test_a_one_round_question_has_no_discussion(people):
    teacher, student = people(), people()
    open_class(teacher, student)
    start_paused(teacher, steps=1)
    poll = teacher.call("poll_open")["poll"]
    refused(teacher, "poll_stage", {"id": poll["id"], "stage": "discuss"}, ONE_ROUND_ONLY)
    refused(student, "poll_answer", {"id": poll["id"], "square": 1, "sure": False}, BAD_SURE)


def test_a_soft_timer_tells_the_room_the_seconds_left_and_closes_nothing(people):
    teacher, students, joined, poll, right = two_round_class(people)
    number = poll["id"]
    refused(students[0], "poll_timer", {"id": number, "seconds": 60}, NOT_LEADING)
    for seconds in (9, 601, "60", 60.0, None):
        refused(teacher, "poll_timer", {"id": number, "seconds": seconds}, BAD_TIMER)
    refused(teacher, "poll_timer", {"id": number + 1, "seconds": 60}, CLOSED)
    reply = teacher.call("poll_timer", {"id": number, "seconds": 10})
    assert reply["ok"] is True and reply["seconds"] == 10 and 9 <= reply["left"] <= 10
    assert wait_for(lambda: all(s.named("poll_timer")[-1:] for s in students))
    told = students[0].named("poll_timer")[-1]
    assert told["id"] == number and told["seconds"] == 10 and 9 <= told["left"] <= 10
    # A page that comes in later is told the seconds left, fewer than at the start.
    late = people()
    late.call("class_join", {"code": joined[0]["code"]})
    assert wait_for(lambda: late.named("class_state"))
    timer = late.named("class_state")[-1]["poll"]["timer"]
    assert timer["seconds"] == 10 and timer["left"] <= told["left"]
    # It only says how long the instructor means to wait: answers go on being taken.
    answer(students[0], poll, right)
    stage(teacher, students, poll, "discuss")
    refused(teacher, "poll_timer", {"id": number, "seconds": 5}, BAD_TIMER)
    assert teacher.call("poll_timer", {"id": number, "seconds": 30})["seconds"] == 30, "started again"
