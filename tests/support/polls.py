"""A class's questions over real clients: the refusals, a class opened, a run paused, answers counted."""

from server.engine.graph import knight_graph
from server.engine.search import knight_tour
from tests.support.replay import path_of
from tests.support.waiting import wait_for

RUN = {"rows": 5, "cols": 5, "start": 0, "order": "naive", "speed": 2000}
TOUR = list(knight_tour(knight_graph(5, 5), 0))
DEAD_END = next(i for i, (kind, _, _) in enumerate(TOUR) if kind == "backtrack")  # its first
NOT_LEADING = ("class.not_leading", "you do not lead a class")
NOT_FOLLOWING = ("class.not_following", "you are not following a class")
NO_RUN = ("run.none", "there is no run to ask about: start one first")
ON_GRAPH = ("question.not_a_board", "questions are asked about a knight's board, not the example graph")
ALREADY_OPEN = ("question.open_already", "a question is open already: reveal or cancel it first")
ENDED = ("question.search_ended", "the search has ended: there is no next move to predict")
COMPLETE = ("question.tour_complete", "the tour is complete: the next event reports it, not a move")
NONE_OPEN = ("question.none_open", "there is no open question")
CLOSED = ("question.closed", "that question is closed")
ANSWERED = ("question.answered", "you have answered this question already")
BAD_SQUARE = ("question.bad_square", "square must be a square of the board")
BAD_ID = ("request.invalid", "id must be a question's number")
BAD_SERIES = ("request.invalid", "series must be a whole number from 1 to 20")
NEEDS = ("request.invalid", "'poll_answer' needs an object with id and square")
QUESTION_OPEN = ("question.open", "a question is open: reveal or cancel it first")


def refused(client, event, data, refusal):
    """Send a request that must be refused with refusal (its code and sentence), told as an error too."""
    code, sentence = refusal
    assert client.call(event, data) == {"ok": False, "code": code, "error": sentence}
    assert client.errors[-1] == sentence and client.named("error")[-1]["code"] == code


def open_class(teacher, *students):
    """Open a class led by teacher, have the students join it; return its code and their replies."""
    opened = teacher.call("class_open")
    joined = [student.call("class_join", {"code": opened["code"]}) for student in students]
    for reply in joined:
        assert reply["ok"] is True and reply["answer"] is None and reply["voter"].count(".") == 1
    assert len({reply["voter"] for reply in joined}) == len(students), "a voter each"
    return opened, joined


def step(teacher, n=1):
    """Step the instructor's run n times, each time until its event has arrived."""
    for _ in range(n):
        goal = teacher.count() + 1
        assert teacher.call("step") == {"ok": True}
        assert wait_for(lambda goal=goal: teacher.count() == goal)


def start_paused(teacher, steps=0, **options):
    """Start the instructor's run paused, step it, and return its number."""
    run = teacher.call("start", {**RUN, "paused": True, **options})["run"]
    step(teacher, steps)
    return run


def move_after(at):
    """Return the square the knight goes to after event `at` of the 5x5 tour, and how."""
    kind, vertex, _ = TOUR[at]
    return (vertex, "visit") if kind == "visit" else (path_of(TOUR[:at])[-2], "back")


# What a one-round question, and how sure nobody was asked, adds to the question's fields.
ONE_ROUND = {
    "peer": False,
    "confidence": False,
    "stage": "first",
    "round": 1,
    "transfer": None,
    "timer": None,
}


def answer(student, poll, square, late=False, round=1, **more):
    """Answer a question (in the round, and how sure, if given in more); check the server took it
    (counted apart if late: its page joined after the question was asked)."""
    assert student.call("poll_answer", {"id": poll["id"], "square": square, **more}) == {
        "ok": True,
        "id": poll["id"],
        "square": square,
        "late": late,
        "round": round,
    }


def counted(teacher, poll, n, late=0):
    """Wait until the instructor's last count of answers to a question is n (and late, from voters
    who joined after it was asked)."""
    return wait_for(
        lambda: (
            [(c["id"], c["answered"], c["late"]) for c in teacher.named("poll_count")[-1:]]
            == [(poll["id"], n, late)]
        )
    )


def rejoin(people, joined):
    """Join again with a student's pass (its page reloaded); return the reply."""
    again = people().call("class_join", {"code": joined["code"], "voter": joined["voter"]})
    assert again["ok"] is True and again["voter"] == joined["voter"]
    return again
