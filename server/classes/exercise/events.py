"""Socket.IO handlers of a class's code exercise: the instructor opens and closes it; each
student's page runs the student's own code in their browser and sends only its verdict."""

from flask import request

from ...extension import socketio
from ...replies import answered
from ..directory import Unavailable
from ..registry import classes, directory
from ..roles import followed, led
from .checks import check_number, check_opening, check_shown, check_verdict
from .slot import exercise


def _pass_on(klass, held, voter, what, payload):
    """Pass what a student here sent (checked and paced here) on to the class's owner, giving
    their turn back if Redis does not answer, so that the page may send it again."""
    try:
        directory().verdict(klass.code, voter, payload)
    except Unavailable:
        with klass.lock:
            held.give_back(voter, what)
        raise


@socketio.on("exercise_open")
@answered
def on_exercise_open(data=None):
    """The instructor's page asks the class for a code exercise on a board (in place of any open)."""
    klass = led()
    opening = check_opening(data)
    with klass.lock:
        held = exercise(klass)
        opened = held.begin(*opening)
        socketio.emit("exercise_opened", opened, to=klass.room)
        count = held.count()
    return {"exercise": opened, **count}


@socketio.on("exercise_close")
@answered
def on_exercise_close(data=None):
    """The instructor's page closes the exercise: the students' pages send no more verdicts."""
    klass = led()
    number = check_number(data)
    with klass.lock:
        exercise(klass).end(number)
        socketio.emit("exercise_closed", {"id": number}, to=klass.room)
    return {"id": number}


@socketio.on("exercise_verdict")
@answered
def on_exercise_verdict(data=None):
    """A student's page sends what its student's code did on the exercise: matched the engine's
    search, or where it first parted from it, or why it stopped."""
    klass = followed()
    voter = classes().voter_of(request.sid)
    with klass.lock:
        held = exercise(klass)
        opened = held.open_one(check_number(data))
        verdict = check_verdict(data, opened["rows"] * opened["cols"])
        held.take_turn(voter)
        if not klass.remote:
            held.record(voter, verdict)
    if klass.remote:
        _pass_on(klass, held, voter, "verdict", verdict)  # kept by the class's owner
    else:
        held.tally.poke()
    return {"id": verdict["id"]}


@socketio.on("exercise_show")
@answered
def on_exercise_show(data=None):
    """A student's page shows the instructor its student's code (under a number, never a name).
    It runs only in the instructor's browser, in the code lab's sandbox, if they run it."""
    number, text = check_shown(data)
    klass = followed()
    voter = classes().voter_of(request.sid)
    with klass.lock:
        held = exercise(klass)
        held.open_one(number)
        held.take_turn(voter, what="show")
    if klass.remote:
        _pass_on(klass, held, voter, "show", {"id": number, "shown": text})
    else:
        _show(klass, voter, number, text)
    return {"id": number}


def _show(klass, voter, number, text):
    with klass.lock:
        held = exercise(klass)
        if held.open is None or held.open["id"] != number:
            return  # closed meanwhile
        shown = held.keep_shown(voter, text)
        sid = klass.instructor
    if sid is not None:
        socketio.emit("exercise_code", shown, to=sid, ignore_queue=True)  # connected here


def record_remote(registry, code, voter, verdict):
    """Keep a verdict a student sent through another process (checked there), or show the
    instructor the code they showed."""
    klass = registry.owned(code)
    if klass is None or not isinstance(voter, str) or not isinstance(verdict, dict):
        return
    if isinstance(verdict.get("shown"), str) and type(verdict.get("id")) is int:
        _show(klass, voter, verdict["id"], verdict["shown"])
        return
    with klass.lock:
        held = exercise(klass)
        try:
            opened = held.open_one(verdict.get("id"))
            kept = held.record(voter, check_verdict(verdict, opened["rows"] * opened["cols"]))
        except ValueError:
            return  # for an exercise closed meanwhile
    if kept:
        held.tally.poke()
