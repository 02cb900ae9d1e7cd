"""Class sessions over a real server: an instructor's run, followed live by students."""

import itertools

import pytest

from server import socketio
from server.classes.registry import classes
from server.classes.sessions import CODE_ALPHABET, CODE_LENGTH
from server.edge import app_guesses as guesses
from server.engine.graph import knight_graph
from server.engine.search import knight_tour
from server.runs.registry import runs
from server.wire import encode
from tests.support.clients import sent_to
from tests.support.clock import Clock
from tests.support.replay import path_nodes, path_of, tree_followed
from tests.support.replies import refused
from tests.support.waiting import wait_for

RUN = {"rows": 5, "cols": 5, "start": 0, "order": "naive", "speed": 2000}


def open_class(instructor):
    """Open a class led by instructor; return its code and token."""
    answer = instructor.call("class_open")
    assert answer["ok"] is True and len(answer["code"]) == CODE_LENGTH and len(answer["token"]) > 20
    return answer["code"], answer["token"]


def test_followers_receive_every_event_of_the_instructors_run(people):
    teacher, students = people(), [people() for _ in range(3)]
    code, _ = open_class(teacher)
    for student in students:
        answer = student.call("class_join", {"code": code.lower()})
        assert answer["ok"] is True and answer["code"] == code and answer["ticket"]
        assert student.named("class_state")[0]["run"] is None
    run = teacher.call("start", RUN)["run"]
    assert wait_for(lambda: all(s.result for s in students), 20)
    expected = encode(list(knight_tour(knight_graph(5, 5), 0)))
    for student in students:
        codes, path = student.followed()
        assert codes == expected
        finished = student.named("finished")[0]
        assert finished["run"] == run and finished["path"] == path
        assert student.started[0]["run"] == run
        assert student.errors == []


def test_a_late_joiner_gets_the_board_then_follows(people, live_server):
    teacher, early = people(), people()
    code, _ = open_class(teacher)
    early.call("class_join", {"code": code})
    teacher.call("start", {**RUN, "rows": 6, "cols": 6, "speed": 300})
    assert wait_for(lambda: len(early.followed()[0]) > 200)
    late = people()
    late.call("class_join", {"code": code})
    welcome = late.named("class_state")[0]
    assert welcome["state"] == "playing" and welcome["snapshot"]["events"] > 200
    assert welcome["run"]["rows"] == 6 and welcome["speed"] == 300
    assert wait_for(lambda: len(late.followed()[0]) > welcome["snapshot"]["events"] + 100)
    teacher.call("pause")
    # Batches taken before the pause may still be on their way to the room.
    player = runs(live_server.app).get(teacher.sid)
    taken = player.snapshot()["events"]
    assert wait_for(lambda: len(early.followed()[0]) == len(late.followed()[0]) == taken)
    # Both have the same board: the late one's snapshot plus what followed it.
    (early_codes, early_path), (late_codes, late_path) = early.followed(), late.followed()
    assert len(early_codes) == len(late_codes) and early_path == late_path
    played = list(itertools.islice(knight_tour(knight_graph(6, 6), 0), len(early_codes)))
    assert early_codes == encode(played)
    assert late_path == path_of(played)


@pytest.mark.parametrize(
    "event, payload",
    [
        ("start", RUN),
        ("pause", None),
        ("resume", None),
        ("step", None),
        ("skip", None),
        ("speed", {"speed": 5}),
        ("stop", None),
    ],
)
def test_a_student_cannot_control_the_class_run(people, event, payload):
    teacher, student = people(), people()
    code, _ = open_class(teacher)
    student.call("class_join", {"code": code})
    teacher.call("start", {**RUN, "speed": 50})
    answer = student.call(event, payload)
    assert answer["ok"] is False and "only its instructor controls the run" in answer["error"]
    assert student.errors[-1] == answer["error"]
    assert wait_for(lambda: len(student.followed()[0]) > 10)  # the run goes on for everyone


def test_a_forged_claim_is_refused(people):
    teacher, student = people(), people()
    code, token = open_class(teacher)
    student.call("class_join", {"code": code})
    answer = student.call("class_claim", {"code": code, "token": token[::-1]})
    assert answer["ok"] is False and "only the instructor who started this class" in answer["error"]
    assert student.call("class_claim", {"code": "ZZZZZ", "token": token})["ok"] is False
    assert student.call("class_end")["ok"] is False


def test_a_student_leaves_explores_and_rejoins(people):
    teacher, student = people(), people()
    code, _ = open_class(teacher)
    student.call("class_join", {"code": code})
    teacher.call("start", {**RUN, "rows": 6, "cols": 6, "speed": 100})
    assert wait_for(lambda: student.named("events"))
    assert student.call("class_leave")["ok"] is True
    seen = len(student.named("events"))
    own = student.call("start", {**RUN, "order": "warnsdorff", "speed": 0})
    assert own["ok"] is True and wait_for(lambda: student.result)
    assert student.result["run"] == own["run"]
    class_batches = [b for b in student.named("events") if b["run"] != own["run"]]
    # A room emit that began before the leave may still reach the student: at most one batch.
    assert len(class_batches) <= seen + 1
    assert student.call("class_join", {"code": code})["ok"] is True
    assert student.named("class_state")[-1]["state"] == "playing"


def test_the_instructor_reconnects_and_takes_the_class_back(people, live_server):
    classes(live_server.app).orphan_seconds = 60  # no reaping while the instructor is away
    teacher, student = people(), people()
    code, token = open_class(teacher)
    student.call("class_join", {"code": code})
    teacher.close()
    assert wait_for(lambda: any(c["state"] == "away" for c in student.named("class_control")))
    again = people()
    assert again.call("class_claim", {"code": code, "token": token})["ok"] is True
    again.call("start", RUN)
    assert wait_for(lambda: student.result, 20)


def test_ending_a_class_tells_the_room_and_frees_it(people, live_server):
    teacher, student = people(), people()
    code, _ = open_class(teacher)
    student.call("class_join", {"code": code})
    assert teacher.call("class_end") == {"ok": True, "code": code}
    assert wait_for(lambda: student.named("class_ended"))
    assert student.named("class_ended")[0]["reason"] == "the instructor ended the class"
    assert len(classes(live_server.app)) == 0
    assert student.call("class_join", {"code": code})["ok"] is False
    assert student.call("start", RUN)["ok"] is True  # free to explore alone


def test_an_abandoned_class_ends_by_itself(people, live_server):
    classes(live_server.app).orphan_seconds = 0.3
    teacher, student = people(), people()
    code, _ = open_class(teacher)
    student.call("class_join", {"code": code})
    teacher.close()
    assert wait_for(lambda: student.named("class_ended"), 5)
    assert student.named("class_ended")[0]["reason"] == "the instructor left"
    assert len(classes(live_server.app)) == 0
    reaper = classes(live_server.app).reaping
    assert wait_for(lambda: not reaper.is_alive(), 5), "the reaper thread outlived the classes"


def test_a_fast_class_run_reaches_the_room_as_snapshots(people):
    teacher, student = people(), people()
    code, _ = open_class(teacher)
    student.call("class_join", {"code": code})
    teacher.call("start", {**RUN, "rows": 6, "cols": 6, "speed": 0})
    assert wait_for(lambda: student.result, 30)
    batches = student.named("events")
    assert sum(len(b["events"]) for b in batches) < 10_000  # not the 367,235 events
    finished = student.named("finished")[0]
    assert finished["visits"] == 183_635 and len(finished["path"]) == 36
    # The snapshots carry the outline of the batches left out: the room's pages hold the whole tree.
    assert sum(1 for snapshot in student.named("snapshot") if snapshot.get("outline")) > 0
    events = list(knight_tour(knight_graph(6, 6), 0))
    assert tree_followed(student.received()) == (183_635, path_nodes(events))


def test_one_class_per_instructor_and_no_following_while_leading(people):
    teacher, other = people(), people()
    code, _ = open_class(teacher)
    assert "already lead class" in teacher.call("class_open")["error"]
    assert "you lead class" in teacher.call("class_join", {"code": code})["error"]
    other_code, _ = open_class(other)
    assert other.call("class_join", {"code": code})["ok"] is False
    assert other_code != code


@pytest.fixture
def clock(app):
    """Run the app's limits on guessing codes on a clock the test moves."""
    guesses(app).clock = Clock()
    return guesses(app).clock


@pytest.fixture
def at(app):
    """Return at(address): a new test client of app connecting from that address, gone after the test."""
    made = []

    def connect(address):
        browser = app.test_client()
        browser.environ_base["REMOTE_ADDR"] = address
        made.append(socketio.test_client(app, flask_test_client=browser))
        return made[-1]

    yield connect
    for each in made:
        if each.is_connected():
            each.disconnect()


@pytest.fixture
def open_code(at):
    """Return the code of a class opened by a teacher elsewhere; it ends after the test."""
    teacher = at("192.0.2.1")
    code = teacher.emit("class_open", callback=True)["code"]
    yield code
    teacher.emit("class_end", callback=True)


def wrong_codes(code):
    """Yield codes that are not code."""
    for letters in itertools.product(CODE_ALPHABET, repeat=CODE_LENGTH):
        if "".join(letters) != code:
            yield "".join(letters)


def join(client, code):
    """Ask to join a class; return the answer, checking that a refusal is also sent as an error."""
    answer = client.emit("class_join", {"code": code}, callback=True)
    if answer["ok"]:
        assert answer.pop("ticket"), "a follower is given a ticket to wait for its class with"
        assert answer.pop("voter"), "a follower is given a pass to answer the class's questions with"
        assert answer.pop("answer") is None, "nobody has answered a question before joining"
        assert answer.pop("first") is None, "nor the first round of one"
        assert len(answer.pop("entry")) == 12, "the id its entry in a tournament would have"
    else:
        told = {"code": answer["code"], "message": answer["error"], "values": answer.get("values")}
        assert sent_to(client, "error")[-1] == {key: value for key, value in told.items() if value}
    return answer


NO_CLASS = "there is no class with that code: check it with your instructor"
NETWORK_WAITS_6 = (
    "too many wrong class codes from your network: wait 6 seconds before trying again, "
    "or open the class's link or QR code"
)
WRONG_TOKEN = "that token does not match the class: only the instructor who started this class can control it"


def test_a_guesser_waits_longer_after_each_wrong_code(at, clock, open_code, app):
    guesser, wrong = at("198.51.100.7"), wrong_codes(open_code)
    for _ in range(4):  # three free mistakes, and the fourth is answered too
        assert join(guesser, next(wrong)) == refused("class.no_such_class", NO_CLASS)
    waiting = refused(
        "class.wait",
        "too many wrong class codes: wait 1 second before trying again (check the code with your instructor)",
        seconds=1,
    )
    assert join(guesser, next(wrong)) == waiting
    # The right code waits too: answering it would tell a guesser that the others were wrong.
    assert join(guesser, open_code) == waiting
    clock.advance(1)
    assert join(guesser, next(wrong)) == refused("class.no_such_class", NO_CLASS)
    assert "wait 2 seconds" in join(guesser, next(wrong))["error"]
    clock.advance(2)
    assert join(guesser, open_code) == {"ok": True, "code": open_code}
    assert len(classes(app).find(open_code).followers) == 1
    assert guesses(app).addresses == 1 and len(guesses(app)) == 1
    guesser.disconnect()
    assert len(guesses(app)) == 0, "a connection's guesses are forgotten when it goes"


def test_an_address_may_mistype_a_hundred_codes_then_ten_a_minute(at, clock, open_code):
    wrong = wrong_codes(open_code)
    students = [at("203.0.113.9") for _ in range(25)]  # one school, behind one NAT
    for student in students:
        for _ in range(4):
            assert join(student, next(wrong)) == refused("class.no_such_class", NO_CLASS)
    latecomer = at("203.0.113.9")
    answer = join(latecomer, open_code)
    assert answer == refused("class.wait_network", NETWORK_WAITS_6, seconds=6)
    assert join(at("198.51.100.7"), next(wrong)) == refused(
        "class.no_such_class", NO_CLASS
    )  # another network
    clock.advance(6)
    assert join(latecomer, open_code) == {"ok": True, "code": open_code}


def test_successful_joins_are_never_slowed(at, clock, open_code, app):
    student = at("203.0.113.9")
    for _ in range(25):  # the clock stands still: any wait would never end
        assert join(student, open_code) == {"ok": True, "code": open_code}
        assert student.emit("class_leave", callback=True)["ok"] is True
    assert len(guesses(app)) == 0 and guesses(app).addresses == 0


def test_a_claim_with_an_unknown_code_is_a_guess_too(at, clock, open_code):
    guesser, wrong = at("198.51.100.7"), wrong_codes(open_code)
    for _ in range(4):
        answer = guesser.emit("class_claim", {"code": next(wrong), "token": "x"}, callback=True)
        assert answer == refused("class.no_such_class", NO_CLASS)
    answer = guesser.emit("class_claim", {"code": open_code, "token": "x"}, callback=True)
    assert answer["ok"] is False and answer["error"].startswith("too many wrong class codes: wait 1 second")
    assert "wait 1 second" in join(guesser, open_code)["error"]  # one count for joins and claims


def test_a_pass_is_no_guess_so_a_network_out_of_guesses_still_gets_in(at, clock, app):
    hall = "203.0.113.9"  # the teacher, the class and a prankster, behind one school NAT
    teacher = at(hall)
    opened = teacher.emit("class_open", callback=True)
    code, token, ticket = opened["code"], opened["token"], opened["ticket"]
    wrong = wrong_codes(code)
    for _ in range(25):
        prankster = at(hall)
        for _ in range(4):
            assert join(prankster, next(wrong)) == refused("class.no_such_class", NO_CLASS)
    # The code typed is a guess like any other, and waits with the network's guesses ...
    assert join(at(hall), code) == refused("class.wait_network", NETWORK_WAITS_6, seconds=6)
    # ... but the class's link carries its ticket, which no guesser can make.
    linked = at(hall).emit("class_join", {"code": code, "ticket": ticket}, callback=True)
    assert (linked["ok"], linked["code"], linked["ticket"]) == (True, code, ticket)
    # The teacher's page, reloaded, takes its class back with its token.
    teacher.disconnect()
    assert at(hall).emit("class_claim", {"code": code, "token": token}, callback=True)["ok"] is True
    # A pass made up, or another class's, proves nothing: those are guesses still.
    other_ticket = classes(app).passes.ticket("".join(reversed(code)), ticket.split(".")[0])
    for made_up in ("x.y", other_ticket):
        answer = at(hall).emit("class_join", {"code": code, "ticket": made_up}, callback=True)
        assert answer == refused("class.wait_network", NETWORK_WAITS_6, seconds=6)
    answer = at(hall).emit("class_claim", {"code": code, "token": "x.y"}, callback=True)
    assert answer == refused("class.wait_network", NETWORK_WAITS_6, seconds=6)


def test_a_pass_of_an_ended_class_whose_code_went_to_another_is_a_guess(at, clock, app, monkeypatch):
    hall = "203.0.113.9"
    teacher = at(hall)
    opened = teacher.emit("class_open", callback=True)
    code, token, ticket = opened["code"], opened["token"], opened["ticket"]
    assert teacher.emit("class_end", callback=True)["ok"] is True
    # The code is given to the next class (a guesser could collect such passes by the thousand).
    monkeypatch.setattr(classes(app), "_new_code", lambda: code)
    assert at("192.0.2.1").emit("class_open", callback=True)["code"] == code
    wrong = wrong_codes(code)
    for _ in range(25):
        prankster = at(hall)
        for _ in range(4):
            assert join(prankster, next(wrong)) == refused("class.no_such_class", NO_CLASS)
    waiting = refused("class.wait_network", NETWORK_WAITS_6, seconds=6)
    assert at(hall).emit("class_join", {"code": code, "ticket": ticket}, callback=True) == waiting
    assert at(hall).emit("class_claim", {"code": code, "token": token}, callback=True) == waiting


def test_an_ended_class_stays_ended(at):
    teacher, student = at("192.0.2.1"), at("203.0.113.9")
    opened = teacher.emit("class_open", callback=True)
    code, token, ticket = opened["code"], opened["token"], opened["ticket"]
    assert join(student, code)["ok"] is True
    assert teacher.emit("class_end", callback=True)["ok"] is True
    ended = refused("class.ended", "that class has ended")
    # Its token and its tickets open nothing now; only a restarted server forgets that.
    assert at("192.0.2.1").emit("class_claim", {"code": code, "token": token}, callback=True) == ended
    assert at("203.0.113.9").emit("class_join", {"code": code, "ticket": ticket}, callback=True) == ended
    assert join(at("203.0.113.9"), code) == refused("class.no_such_class", NO_CLASS)


@pytest.mark.parametrize("token", ["ü", "\u2603", "📌", "\ud800", "", None, 42, ["x"], "x" * 5000])
def test_any_bad_token_is_told_it_does_not_match(client, token):
    code = client.emit("class_open", callback=True)["code"]
    try:
        answer = client.emit("class_claim", {"code": code, "token": token}, callback=True)
    finally:
        client.emit("class_end", callback=True)
    assert answer == refused("class.wrong_token", WRONG_TOKEN)


def test_a_bad_instructor_speed_never_reaches_the_class(at, app):
    teacher, student = at("192.0.2.1"), at("203.0.113.9")
    code = teacher.emit("class_open", callback=True)["code"]
    try:
        assert join(student, code)["ok"] is True
        assert teacher.emit("start", {**RUN, "paused": True}, callback=True)["ok"] is True
        for speed in (1e-10, 0.09, -1, 1e300):
            answer = teacher.emit("speed", {"speed": speed}, callback=True)
            assert answer["ok"] is False and answer["error"].startswith("speed must be a number")
        assert teacher.emit("speed", {"speed": 0.1}, callback=True) == {"ok": True}
        assert [c["speed"] for c in sent_to(student, "class_control")] == [2000, 0.1]
    finally:
        teacher.emit("class_end", callback=True)


def test_the_limits_on_wrong_codes_are_configurable(serve, connect):
    server = serve(
        {
            "JOIN_FAILURES_BURST": 2,
            "JOIN_FAILURES_PER_MINUTE": 1,
            "JOIN_FREE_FAILURES": 0,
            "JOIN_MAX_DELAY_SECONDS": 5,
        }
    )
    tried = guesses(server.app)
    tried.clock = Clock()
    assert (tried.burst, tried.rate * 60, tried.free, tried.max_delay) == (2, 1, 0, 5)
    first, second, third = (connect(server.url) for _ in range(3))  # all from 127.0.0.1
    assert first.call("class_join", {"code": "ZZZZZ"})["error"] == NO_CLASS
    assert first.call("class_join", {"code": "ZZZZZ"})["error"].startswith(
        "too many wrong class codes: wait 1 "
    )
    assert second.call("class_join", {"code": "ZZZZZ"})["error"] == NO_CLASS
    assert third.call("class_join", {"code": "ZZZZZ"})["error"] == (
        "too many wrong class codes from your network: wait 60 seconds before trying again, "
        "or open the class's link or QR code"
    )
    for each in (first, second, third):
        each.close()
    assert wait_for(lambda: len(tried) == 0) and tried.addresses == 1
