"""A class through its instructor's lost connections, second tabs and server restarts."""

import pytest

from server.classes.registry import classes
from server.engine.graph import knight_graph
from server.engine.search import knight_tour
from server.wire import encode
from tests.support.waiting import wait_for

RUN = {"rows": 5, "cols": 5, "start": 0, "order": "naive", "speed": 2000}
TOUR = encode(list(knight_tour(knight_graph(5, 5), 0)))


@pytest.fixture(autouse=True)
def no_reaping(live_server):
    """Keep a class whose instructor is away for the whole test: the tests bring them back."""
    classes(live_server.app).orphan_seconds = 60


def states(client):
    """Return the run states a client was told, in order."""
    return [control["state"] for control in client.named("class_control")]


def test_the_class_run_waits_paused_for_its_instructor_and_goes_on_where_it_was(people, live_server):
    teacher, student = people(), people()
    opened = teacher.call("class_open")
    code, token = opened["code"], opened["token"]
    student.call("class_join", {"code": code})
    run = teacher.call("start", {**RUN, "speed": 200, "budget": 1500})["run"]
    assert wait_for(lambda: len(student.followed()[0]) > 20)
    teacher.close()
    assert wait_for(lambda: states(student)[-1:] == ["away"])
    klass = classes(live_server.app).find(code)
    player = klass.main.player
    assert player is not None and player.state() == "paused"
    held = player.events

    again = people()
    answer = again.call("class_claim", {"code": code, "token": token})
    # The page gets the run it led, where it is: it takes it on from there.
    assert answer["ok"] is True and answer["run"]["run"] == run and answer["state"] == "paused"
    assert answer["snapshot"]["events"] == held and answer["followers"] == 1
    assert wait_for(lambda: states(student)[-1:] == ["paused"]), "the room is told the instructor is back"
    assert again.call("speed", {"speed": 2000})["ok"] is True and again.call("resume")["ok"] is True
    assert wait_for(lambda: student.result, 20)
    # The room missed nothing: every event of the search, once, in order.
    assert student.followed()[0] == TOUR[:1500]
    assert again.named("events")[0]["first"] >= held
    # The room is told the run finished after its last batch and its result.
    assert wait_for(lambda: states(student)[-2:] == ["playing", "finished"])


def test_a_second_tab_takes_the_class_and_the_first_follows_it(people):
    first, student = people(), people()
    opened = first.call("class_open")
    first.call("start", {**RUN, "speed": 100})
    student.call("class_join", {"code": opened["code"]})
    second = people()
    assert second.call("class_claim", {"code": opened["code"], "token": opened["token"]})["ok"] is True
    assert wait_for(lambda: first.named("class_displaced"))
    displaced = first.named("class_displaced")[0]
    assert displaced["code"] == opened["code"] and displaced["ticket"]
    assert wait_for(lambda: first.named("class_state")), "the first tab is sent the class, as a follower"
    refused = first.call("pause")
    assert refused["ok"] is False and "only its instructor controls the run" in refused["error"]
    assert second.call("pause")["ok"] is True
    assert wait_for(lambda: states(student)[-1:] == ["paused"] and states(first)[-1:] == ["paused"])
    # One instructor at a time: the first tab can take the class back only with the token.
    assert first.call("class_claim", {"code": opened["code"], "token": opened["token"]})["ok"] is True
    assert wait_for(lambda: second.named("class_displaced"))


def test_a_hung_connection_does_not_hold_the_run_once_its_page_is_back(people):
    # The old connection still counts as open (its WiFi is gone), and never acknowledges.
    stuck, student = people(ack=False), people()
    opened = stuck.call("class_open")
    student.call("class_join", {"code": opened["code"]})
    stuck.call("start", {**RUN, "budget": 1500})
    assert wait_for(lambda: len(stuck.named("events")) == 2)  # the window is full: the run waits
    assert stuck.named("events")[-1]["first"] + len(stuck.named("events")[-1]["events"]) < 1500
    back = people()
    assert back.call("class_claim", {"code": opened["code"], "token": opened["token"]})["ok"] is True
    assert back.call("resume")["ok"] is True
    assert wait_for(lambda: student.result and back.result, 20), "the run goes on to the page that came back"
    assert student.followed()[0] == TOUR[:1500]


def test_a_run_resumed_at_an_event_sends_the_rest_of_the_search(people):
    page = people()
    answer = page.call("start", {**RUN, "speed": 0, "resume_at": 100})
    assert answer["ok"] is True
    assert page.named("started")[0]["resume_at"] == 100
    assert wait_for(lambda: page.result, 20)
    batches = page.named("events")
    assert batches[0]["first"] == 100
    assert [code for batch in batches for code in batch["events"]] == TOUR[100:]
    assert page.result["events"] == len(TOUR)


@pytest.mark.parametrize("resume_at", [-1, 1.5, "10", 10**9 + 1, True])
def test_a_bad_resume_point_is_refused(people, resume_at):
    answer = people().call("start", {**RUN, "resume_at": resume_at})
    assert answer["ok"] is False and "resume_at must be a whole number" in answer["error"]


def test_a_resume_point_at_or_past_the_budget_is_refused(people):
    answer = people().call("start", {**RUN, "budget": 50, "resume_at": 50})
    assert answer["ok"] is False and "resume_at must be a whole number from 0 to 49" in answer["error"]


def test_a_student_with_a_ticket_waits_for_a_class_that_comes_back(people, live_server):
    teacher, student = people(), people()
    opened = teacher.call("class_open")
    code, token = opened["code"], opened["token"]
    ticket = student.call("class_join", {"code": code})["ticket"]
    # The server forgets the class, as a restarted server has.
    registry = classes(live_server.app)
    teacher.close()
    assert wait_for(lambda: registry.led_by(teacher.sid) is None and registry.find(code).instructor is None)
    registry.close(registry.find(code))
    assert len(registry) == 0

    rejoining = people()
    waiting = rejoining.call("class_join", {"code": code, "ticket": ticket})
    assert waiting.pop("voter"), "a waiting page is given its pass to answer questions with"
    assert len(waiting.pop("entry")) == 12, "and the id its entry in a tournament would have"
    assert waiting == {"ok": True, "code": code, "waiting": True, "answer": None, "first": None}
    assert not rejoining.named("class_state")
    back = people()
    answer = back.call("class_claim", {"code": code, "token": token})
    assert answer["ok"] is True and answer["followers"] == 1 and answer["run"] is None
    assert wait_for(lambda: rejoining.named("class_state")), "the waiting page is welcomed"
    back.call("start", RUN)
    assert wait_for(lambda: rejoining.result, 20)


def test_a_ticket_opens_only_its_own_class(people):
    teacher, student = people(), people()
    first = teacher.call("class_open")
    ticket = student.call("class_join", {"code": first["code"]})["ticket"]
    other = "".join(reversed(first["code"]))
    refused = people().call("class_join", {"code": other, "ticket": ticket})
    assert refused["ok"] is False and "there is no class with that code" in refused["error"]
    forged = people().call("class_join", {"code": "ZZZZZ", "ticket": "x.y"})
    assert forged["ok"] is False


def test_a_waiting_page_is_told_when_its_class_does_not_come_back(people, live_server):
    teacher, student = people(), people()
    code = teacher.call("class_open")["code"]
    ticket = student.call("class_join", {"code": code})["ticket"]
    registry = classes(live_server.app)
    registry.close(registry.find(code))
    registry.orphan_seconds = 0.2
    live_server.app.config["CLASS_REAP_SECONDS"] = 0.1
    waiting = people()
    assert waiting.call("class_join", {"code": code, "ticket": ticket})["waiting"] is True
    assert wait_for(lambda: waiting.named("class_ended"), 10)
    assert waiting.named("class_ended")[0] == {
        "code": code,
        "why": "gone",
        "reason": "the class did not come back",
    }
    assert registry.waiting_for() == {}
