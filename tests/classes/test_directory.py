"""Server processes sharing classes through Redis: an instructor on one, a student on another."""

from server.classes.directory import RedisDirectory
from server.engine.graph import knight_graph
from server.engine.search import knight_tour
from server.wire import encode
from tests.support.cluster import RedisProcess
from tests.support.waiting import wait_for

RUN = {"rows": 5, "cols": 5, "start": 0, "order": "naive", "speed": 2000}


def served(cluster):
    """Return a cluster's app URLs and the test's client of its Redis."""
    return [app.url for app in cluster.apps], cluster.redis.client


def test_a_student_on_another_process_follows_the_class_live(clusters, connect):
    (first, second), shared = served(clusters(2))
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


def test_an_ended_class_stays_ended_on_every_process(clusters, connect):
    (first, second), shared = served(clusters(2))
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


def test_a_class_whose_owners_lease_lapsed_is_missing_and_its_key_goes_unless_taken(tmp_path):
    redis_server = RedisProcess(tmp_path)
    shared, url = redis_server.client, redis_server.url
    dying, watching, successor = (RedisDirectory(url, 20, 1, lease=lease) for lease in (3, None, None))
    try:
        for code in ("ABCDEFG", "HJKMNPQ"):
            dying.publish(code)
        assert watching.missing(["ABCDEFG", "HJKMNPQ", "RSTVWXY"]) == {"RSTVWXY"}, "alive, and never opened"
        # Its process stops renewing its lease (killed): its classes' keys live on, and are
        # missing all the same.
        assert wait_for(lambda: watching.missing(["ABCDEFG", "HJKMNPQ"]) == {"ABCDEFG", "HJKMNPQ"}, 15)
        assert shared.exists("knights-tour:class:ABCDEFG")
        successor.publish("HJKMNPQ")  # the instructor's page claimed this one back elsewhere
        watching.bury("ABCDEFG")
        watching.bury("HJKMNPQ")
        assert not shared.exists("knights-tour:class:ABCDEFG"), "its code names no class"
        taken = shared.get("knights-tour:class:HJKMNPQ").decode()
        assert taken == successor.owner, "a class taken over stays"
        assert watching.missing(["HJKMNPQ"]) == set()
    finally:
        for each in (dying, watching, successor):
            each.redis.close()
        redis_server.close()
