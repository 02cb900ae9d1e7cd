"""Class polls across server processes sharing Redis: students answer through their own process."""

import json

from server.classes.directory import CHANNEL, STUDENTS_KEY
from tests.support.replies import refused
from tests.support.waiting import wait_for

RUN = {"rows": 5, "cols": 5, "start": 0, "order": "naive", "speed": 2000, "paused": True}
ANSWERED = "you have answered this question already"
NONE_OPEN = "there is no open question"


def joined(student, code):
    """Have a student join a class and be welcomed; return its join's reply."""
    reply = student.call("class_join", {"code": code})
    assert reply["ok"] is True, reply
    assert wait_for(lambda: student.named("class_state"), 10)
    return reply


def answered(student, poll, square, late=False, round=1):
    """Answer a question; check the student's process took it (and knew it late, if so)."""
    reply = student.call("poll_answer", {"id": poll["id"], "square": square})
    assert reply == {"ok": True, "id": poll["id"], "square": square, "late": late, "round": round}


def counted(teacher, poll, n, late=0):
    """Wait until the instructor's last count of answers to a question is n (and late, from voters
    who joined after it was asked)."""
    last = lambda: [(c["id"], c["answered"], c["late"]) for c in teacher.named("poll_count")[-1:]]  # noqa: E731
    return wait_for(lambda: last() == [(poll["id"], n, late)], 10)


# connect comes first so that its clients close after the processes have stopped.
def two_processes(clusters, connect):
    """Open a class on the first of two processes, with a student there and two on the second;
    return the cluster, the instructor, the students (here, there, also), the code and there's pass."""
    cluster = clusters(2)
    first, second = cluster.apps  # the class is the first's
    teacher, here = connect(first.url), connect(first.url)
    there, also = connect(second.url), connect(second.url)
    code = teacher.call("class_open")["code"]
    joined(here, code)
    voter = joined(there, code)["voter"]
    joined(also, code)
    return cluster, teacher, (here, there, also), code, voter


def test_students_on_another_process_answer_once_each_and_are_counted_once(clusters, connect):
    cluster, teacher, (here, there, also), code, voter = two_processes(clusters, connect)
    first = cluster.apps[0]
    # Each process tells the owner, at its heartbeat, how many follow the class through it: the
    # question counts the students present on every process.
    told = lambda: [value.split()[0] for value in cluster.redis.client.hvals(STUDENTS_KEY.format(code))]  # noqa: E731
    assert wait_for(lambda: told() == [b"2"], 15)
    run = teacher.call("start", RUN)["run"]
    assert teacher.call("step") == {"ok": True}
    assert wait_for(lambda: len(there.followed()[0]) == 1, 10)
    poll = teacher.call("poll_open")["poll"]
    assert poll["run"] == run and poll["at"] == 1
    assert wait_for(lambda: there.named("poll_opened") == [poll] == also.named("poll_opened"), 10)

    answered(there, poll, 7)
    assert counted(teacher, poll, 1)
    # Its own process refuses a second answer: it goes no further.
    reply = there.call("poll_answer", {"id": poll["id"], "square": 12})
    assert reply == refused("question.answered", ANSWERED)
    # And should one reach the owner anyway, under the same voter, it is not counted: the next
    # answer through that process comes after it on the same channel, and is counted second.
    voter_id = voter.split(".")[0]
    forged = {"code": code, "voter": voter_id, "id": poll["id"], "square": 12}
    cluster.redis.client.publish(CHANNEL, json.dumps(forged))
    answered(also, poll, 12)
    assert counted(teacher, poll, 2)
    answered(here, poll, 3)
    assert counted(teacher, poll, 3)

    # The voter's pass is the class's on every process: through the owner, the student who
    # answered through the other gets its answer back, and cannot answer again.
    back = connect(first.url)
    rejoined = back.call("class_join", {"code": code, "voter": voter})
    assert rejoined["voter"] == voter and rejoined["answer"] == 7
    assert back.call("poll_answer", {"id": poll["id"], "square": 3}) == refused("question.answered", ANSWERED)

    result = teacher.call("poll_reveal", {"id": poll["id"]})["result"]
    assert result["answered"] == 3 and result["counts"] == [[3, 1], [7, 1], [12, 1]]
    assert (result["present"], result["late"]) == (3, 0)
    assert wait_for(lambda: there.named("poll_revealed") == [result] == also.named("poll_revealed"), 10)
    # The move plays for the students on the other process too; the question is closed there.
    assert wait_for(lambda: len(there.followed()[0]) == 2, 10)
    assert there.call("poll_answer", {"id": poll["id"], "square": 7}) == refused(
        "question.none_open", NONE_OPEN
    )


def test_a_student_joining_through_another_process_is_asked_the_open_question(clusters, connect):
    cluster = clusters(2)
    first, second = cluster.apps
    teacher = connect(first.url)
    code = teacher.call("class_open")["code"]
    teacher.call("start", RUN)
    poll = teacher.call("poll_open")["poll"]
    assert poll["at"] == 0 and poll["square"] is None  # before the first move: where does it start?
    # The second process knew nothing of the class when the question was asked: it learns the
    # question from the state the owner welcomes its student with.
    late = connect(second.url)
    assert joined(late, code)["answer"] is None
    assert late.named("class_state")[-1]["poll"] == poll
    answered(late, poll, 0, late=True)
    # It joined after the question was asked: its answer is counted apart, not in the share.
    assert counted(teacher, poll, 0, late=1)
    reply = late.call("poll_answer", {"id": poll["id"], "square": 0})
    assert reply == refused("question.answered", ANSWERED)
    # Its board is known there too: a square off it is refused by the student's own process.
    off = late.call("poll_answer", {"id": poll["id"], "square": 25})
    assert off == refused("question.bad_square", "square must be a square of the board")
    result = teacher.call("poll_reveal", {"id": poll["id"]})["result"]
    assert (result["answer"], result["kind"], result["right"], result["late"]) == (0, "visit", 0, 1)


def test_two_rounds_are_counted_across_processes_each_answer_in_its_own_round(clusters, connect):
    cluster, teacher, (here, there, also), code, voter = two_processes(clusters, connect)
    first = cluster.apps[0]
    teacher.call("start", RUN)
    poll = teacher.call("poll_open", {"peer": True, "confidence": True})["poll"]
    assert wait_for(lambda: there.named("poll_opened") == [poll], 10)
    reply = there.call("poll_answer", {"id": poll["id"], "square": 7, "sure": True, "round": 1})
    assert reply == {"ok": True, "id": poll["id"], "square": 7, "late": False, "round": 1}
    answered(here, poll, 12)
    assert counted(teacher, poll, 2)
    for stage in ("discuss", "second"):
        assert teacher.call("poll_stage", {"id": poll["id"], "stage": stage})["ok"] is True
        assert wait_for(
            lambda stage=stage: (
                there.named("poll_stage")[-1:] and there.named("poll_stage")[-1]["stage"] == stage
            ),
            10,
        )
    # The other process heard the second round open: it takes the student's second answer.
    reply = there.call("poll_answer", {"id": poll["id"], "square": 12, "sure": False})
    assert reply == {"ok": True, "id": poll["id"], "square": 12, "late": False, "round": 2}
    assert counted(teacher, poll, 1)
    # A first-round answer that reaches the owner now is not counted in the second round: the
    # answer after it on the same channel is counted second.
    stale = {"code": code, "voter": "stale", "id": poll["id"], "square": 3, "sure": None, "round": 1}
    cluster.redis.client.publish(CHANNEL, json.dumps(stale))
    answered(also, poll, 12, round=2)
    assert counted(teacher, poll, 2)
    rejoined = connect(first.url).call("class_join", {"code": code, "voter": voter})
    assert (rejoined["answer"], rejoined["first"]) == (12, 7)
    result = teacher.call("poll_reveal", {"id": poll["id"]})["result"]
    assert [r["counts"] for r in result["rounds"]] == [[[7, 1], [12, 1]], [[12, 2]]]
    assert result["shift"] == [[7, 12, 1]]
    assert (
        result["rounds"][1]["sure"]["wrong"]["unsure"] + result["rounds"][1]["sure"]["right"]["unsure"] == 1
    )
