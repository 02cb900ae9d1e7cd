"""Server processes behind nginx set up as docs/deployment.md says: each browser is routed by a
cookie of its own, so a class's students spread over every process though they share one
address (as behind a school's NAT), while all of one browser's connections reach one process."""

from server.engine.graph import knight_graph
from server.engine.search import knight_tour
from server.wire import encode
from tests.support.waiting import wait_for

RUN = {"rows": 5, "cols": 5, "start": 0, "order": "naive", "speed": 2000, "budget": 2000}
# Routed at random, all of them reach one of two processes once in 2 ** 19 times.
STUDENTS = 20


def held_by(app):
    """Return how many connections an app server's worker has accepted and holds open."""
    return sum(1 for c in app.worker.connections() if c.status == "ESTABLISHED" and c.laddr.port == app.port)


def held(cluster):
    """Return how many connections each app server of a cluster holds."""
    return [held_by(app) for app in cluster.apps]


# connect comes first so that its clients close after the processes have stopped.
def test_a_class_spreads_over_the_processes_and_its_instructor_comes_back_to_its_own(
    connect, clusters, nginx
):
    cluster = clusters(2, "--proxies", "1")
    proxy = nginx([app.port for app in cluster.apps])
    # The instructor's browser: its page's two connections reach the same process.
    instructor = proxy.browser()
    teacher, second = connect(proxy.url, headers=instructor), connect(proxy.url, headers=instructor)
    assert wait_for(lambda: sorted(held(cluster)) == [0, 2], 10)
    students = [connect(proxy.url, headers=proxy.browser()) for _ in range(STUDENTS)]
    assert wait_for(lambda: sum(held(cluster)) == STUDENTS + 2, 10)
    assert all(held(cluster)), f"every process has students: {held(cluster)}"
    opened = teacher.call("class_open")
    code, token = opened["code"], opened["token"]
    # The race's other board runs on the page's second connection, which must reach the class.
    assert second.call("class_claim", {"code": code, "token": token, "lane": "second"})["ok"] is True
    for student in students:
        assert student.call("class_join", {"code": code})["ok"] is True
    for student in students:
        assert wait_for(lambda student=student: student.named("class_state"), 10)
    assert teacher.call("start", RUN)["ok"] is True
    events = encode(list(knight_tour(knight_graph(5, 5), 0)))[: RUN["budget"]]
    for student in students:
        assert wait_for(lambda student=student: student.result, 30)
        codes, path = student.followed()
        assert codes == events
        assert student.result["path"] == path
    # The instructor's page reconnects (a reload, a lost network): it comes back to the process
    # that owns its class, and takes the class back.
    teacher.close()
    again = connect(proxy.url, headers=instructor)
    assert again.call("class_claim", {"code": code, "token": token})["ok"] is True
