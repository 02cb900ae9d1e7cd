"""Server processes sharing classes through Redis: an instructor on one, a student on another."""

from server.engine.graph import knight_graph
from server.engine.search import knight_tour
from server.wire import encode
from tests.support.waiting import wait_for

RUN = {"rows": 5, "cols": 5, "start": 0, "order": "naive", "speed": 2000}


# connect comes first so that its clients close after the processes have stopped: closing on a
# live `python -m server` waits 3 s (see RequestHandler in tests/support/servers.py).
def test_a_student_on_another_process_follows_the_class_live(cluster, connect):
    (first, second), shared = cluster
    teacher, student = connect(first), connect(second)
    answer = teacher.call("class_open")
    code = answer["code"]
    assert shared.exists(f"knights-tour:class:{code}")
    assert student.call("class_join", {"code": code})["code"] == code
    assert wait_for(lambda: student.named("class_state"), 10), "the owner welcomes the student"
    teacher.call("start", RUN)
    assert wait_for(lambda: student.result, 30)
    codes, path = student.followed()
    assert codes == encode(list(knight_tour(knight_graph(5, 5), 0)))
    assert student.named("finished")[0]["path"] == path
    # The student cannot take control through its own process either.
    refused = student.call("pause")
    assert refused["ok"] is False and "only its instructor controls the run" in refused["error"]
    # Ending the class reaches the student, whose own process then lets it explore.
    assert teacher.call("class_end")["ok"] is True
    assert wait_for(lambda: student.named("class_ended"), 10)
    assert not shared.exists(f"knights-tour:class:{code}")
    assert student.call("start", {**RUN, "speed": 0})["ok"] is True


def test_an_ended_class_stays_ended_on_every_process(cluster, connect):
    (first, second), shared = cluster
    teacher, student = connect(first), connect(second)
    opened = teacher.call("class_open")
    code, token, ticket = opened["code"], opened["token"], opened["ticket"]
    assert student.call("class_join", {"code": code, "ticket": ticket})["ok"] is True
    assert teacher.call("class_end")["ok"] is True
    assert wait_for(lambda: student.named("class_ended"), 10)
    # Its token would open it again on a process that never knew it, as after a restart: not once it ended.
    for instructor in (connect(second), connect(first)):
        answer = instructor.call("class_claim", {"code": code, "token": token})
        assert (answer["ok"], answer["code"]) == (False, "class.ended"), answer
    for again in (connect(second), connect(first)):
        answer = again.call("class_join", {"code": code, "ticket": ticket})
        assert (answer["ok"], answer["code"]) == (False, "class.ended"), answer
    assert not shared.exists(f"knights-tour:class:{code}")
