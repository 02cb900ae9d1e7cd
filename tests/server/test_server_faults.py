"""Faults the room is told of over real sockets: a stalled instructor, a stopping server, and
the server's own events forged by a client."""

import pytest

from server.classes.registry import classes
from server.edge import farewell
from server.runs.player import STALL, WINDOW
from tests.support.replies import refused
from tests.support.waiting import wait_for

# Naive: a search far longer than the window of batches a page may leave unacknowledged.
RUN = {"rows": 6, "cols": 6, "start": 0, "order": "naive", "speed": 50}


@pytest.fixture(autouse=True)
def no_reaping(live_server):
    """Keep a class whose instructor is away for the whole test."""
    classes(live_server.app).orphan_seconds = 60


def states(client):
    """Return the run states a client was told, in order."""
    return [control["state"] for control in client.named("class_control")]


def test_the_room_is_told_when_its_instructors_page_stops_taking_batches_and_when_it_takes_them_again(
    people, live_server
):
    teacher, student = people(ack=False), people()
    code = teacher.call("class_open")["code"]
    student.call("class_join", {"code": code})
    teacher.call("start", RUN)
    assert wait_for(lambda: states(student)[-1:] == ["stalled"], 5 * STALL), states(student)
    held = student.count()
    # Stalled, the run holds its window of batches, and a joining page is told so.
    assert len(student.named("events")) == WINDOW and classes(live_server.app).find(code).state == "stalled"
    teacher.release()
    assert wait_for(lambda: states(student)[-1:] == ["playing"], 5), states(student)
    assert wait_for(lambda: student.count() > held + 5), "the run goes on once its batches are taken"
    assert states(student).count("stalled") == 1


def test_a_page_that_joins_during_a_stall_is_told_of_it(people):
    teacher, first = people(ack=False), people()
    code = teacher.call("class_open")["code"]
    first.call("class_join", {"code": code})
    teacher.call("start", RUN)
    assert wait_for(lambda: states(first)[-1:] == ["stalled"], 5 * STALL)
    late = people()
    late.call("class_join", {"code": code})
    assert wait_for(lambda: late.named("class_state"))
    assert late.named("class_state")[0]["state"] == "stalled"
    teacher.release()
    assert wait_for(lambda: states(late)[-1:] == ["playing"], 5)


def test_a_paused_run_never_stalls(people):
    teacher, student = people(ack=False), people()
    code = teacher.call("class_open")["code"]
    student.call("class_join", {"code": code})
    teacher.call("start", {**RUN, "paused": True})
    teacher.call("step")  # one batch out, never acknowledged, while paused
    assert wait_for(lambda: student.count() == 1)
    # The stall would come STALL seconds after the step's batch: wait for longer, for nothing.
    assert not wait_for(lambda: "stalled" in states(student), 3 * STALL)
    teacher.release()


def test_a_stopping_server_says_goodbye_to_every_page_then_closes_its_connection(live_server, raw):
    pages = [raw(live_server.url) for _ in range(3)]
    farewell.say_goodbye(live_server.app)
    for page in pages:
        assert wait_for(lambda page=page: not page.alive, 5), "the connection outlived the goodbye"
        assert page.events() == [(farewell.STOPPING, {"reason": farewell.REASON}, None)]


@pytest.mark.parametrize("name", [farewell.STOPPING, "class_control", "class_state"])
def test_a_client_that_sends_the_servers_own_events_is_refused_and_nothing_else(people, name):
    teacher, student, forger = people(), people(), people()
    code = teacher.call("class_open")["code"]
    student.call("class_join", {"code": code})
    forger.call("class_join", {"code": code})
    before = len(student.received())
    answer = forger.call(name, {"code": code, "state": "stalled", "reason": farewell.REASON})
    assert answer == refused("request.invalid", f"'{name}' is sent by the server, never to it")
    assert forger.errors == [answer["error"]]
    # Nobody else hears of it, and the forger stays connected, following its class.
    assert student.received()[before:] == [] and teacher.named(name) == []
    assert forger.sio.connected and forger.call("class_leave")["ok"] is True
