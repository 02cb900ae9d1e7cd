"""Socket.IO handlers of class polls: the instructor asks for the run's next move, students answer."""

import time

from flask import request

from ...engine.symmetry import turned_next
from ...extension import socketio
from ...replies import Refusal, answered
from ...runs.player import Player
from ..directory import Unavailable
from ..registry import classes, directory
from ..relay import Relay
from ..roles import followed, led, students_following
from .checks import (
    check_asking,
    check_id,
    check_round,
    check_square,
    check_stage,
    check_sure,
    check_timer,
    check_turn,
)
from .polls import ALREADY_OPEN, ENDED, board_squares, prediction
from .slot import book, count

NO_RUN = "there is no run to ask about: start one first"
# Students answer by tapping a square: the example graph has vertices, not squares.
ON_GRAPH = "questions are asked about a knight's board, not the example graph"
# How a run that was going goes on when its question is refused after it was paused.
GOING = {"playing": Player.resume, "skipping": Player.skip}


def _id(data):
    return check_id(data.get("id") if isinstance(data, dict) else None)


def _tell_room(klass, player):
    """Tell the room how the class's run goes now (and where it is, if it was summarised)."""
    Relay(klass, klass.main.started["run"]).control(player)


def _asked_about(klass):
    """Return the class's run, which a question can be asked about, or raise ValueError."""
    if book(klass).open is not None:
        raise Refusal("question.open_already", ALREADY_OPEN)
    player = klass.main.player
    if player is None:
        if klass.main.result is not None:
            raise Refusal("question.search_ended", ENDED)
        raise Refusal("run.none", NO_RUN)
    if klass.main.started.get("graph") == "example":
        raise Refusal("question.not_a_board", ON_GRAPH)
    if player.done:  # its budget has run out: no more moves come
        raise Refusal("question.search_ended", ENDED)
    return player


@socketio.on("poll_open")
@answered
def on_poll_open(data=None):
    """The instructor's page asks the class for the run's next move: the run pauses until it is told."""
    klass = led()
    series, peer, confidence = check_asking(data)
    with klass.lock:
        player = _asked_about(klass)
        was = player.state()
    present = students_following(klass)
    # Paused before looking ahead, so that the move asked about is the next one the room sees.
    player.pause()
    _tell_room(klass, player)
    refused = None
    with klass.lock:
        # Asked again: the run may have ended meanwhile (a batch on its way spent its budget).
        if _asked_about(klass) is not player:
            raise Refusal("run.none", NO_RUN)
        ahead = player.upcoming()
        try:
            move = prediction(ahead)
        except ValueError as exc:
            refused = exc
        else:
            started = klass.main.started
            squares = board_squares(started)
            poll = book(klass).pose(
                started["run"],
                ahead["events"],
                move,
                squares,
                series,
                present=present,
                peer=peer,
                confidence=confidence,
                position=(ahead["path"], ahead["last"], player.search),
            )
            socketio.emit("poll_opened", poll.question(), to=klass.room)
    if refused is not None:
        # A refused question changes nothing: the run goes on as it went.
        if was in GOING:
            GOING[was](player)
            _tell_room(klass, player)
        raise refused
    return {"poll": poll.question(), **poll.count()}


@socketio.on("poll_answer")
@answered
def on_poll_answer(data=None):
    """A student's page answers the open question with the square it thinks the knight goes to
    (with how sure it is, if asked, and the round it answers)."""
    if not isinstance(data, dict) or "id" not in data or "square" not in data:
        raise ValueError("'poll_answer' needs an object with id and square")
    number, square = check_id(data["id"]), check_square(data["square"])
    sure, round = check_sure(data.get("sure")), check_round(data.get("round"))
    klass = followed()
    voter = classes().voter_of(request.sid)
    with klass.lock:
        late = book(klass).answer(voter, number, square, sure, round)
        round = len(book(klass).open.rounds)
    if klass.remote:
        # Checked here, counted by the class's owner, in the round it was given for.
        try:
            directory().vote(klass.code, voter, number, square, sure, round)
        except Unavailable:
            with klass.lock:
                book(klass).withdraw(voter, number)  # so that the student may try again
            raise
    else:
        count(klass)
    # A late answer is taken but counted apart: its page says so (see polls.Poll.late).
    return {"id": number, "square": square, "late": late, "round": round}


def count_remote(registry, code, voter, number, square, sure=None, round=None):
    """Count an answer a student gave through another process: once a voter a round, as any answer."""
    klass = registry.owned(code)
    if klass is None or not isinstance(voter, str):
        return
    with klass.lock:
        try:
            book(klass).answer(voter, number, square, check_sure(sure), check_round(round))
        except ValueError:
            return  # a second answer, or one that came too late: not counted
    count(klass)


@socketio.on("poll_reveal")
@answered
def on_poll_reveal(data=None):
    """The instructor's page closes the question: the room gets the result, then the move itself."""
    klass = led()
    number = _id(data)
    with klass.lock:
        result = book(klass).reveal(number)
        socketio.emit("poll_revealed", result, to=klass.room)
        # A question asked again turned is about no move of the run: the run stays where it is.
        player = klass.main.player if result["transfer"] is None else None
    if player is not None:
        # The move plays as a step does: to the instructor's page, and through the relay to the room.
        player.step()
        _tell_room(klass, player)
    return {"result": result}


@socketio.on("poll_stage")
@answered
def on_poll_stage(data=None):
    """The instructor's page moves a two-round question on: from the first round to the discussion
    (answers closed), from the discussion to the second round (everyone answers again)."""
    klass = led()
    number = _id(data)
    stage = check_stage(data.get("stage"))
    with klass.lock:
        poll = book(klass).advance(number, stage)
        news = {"id": number, "stage": poll.stage, "round": len(poll.rounds)}
        socketio.emit("poll_stage", news, to=klass.room)
        count = poll.count()
    return {**news, **count}


@socketio.on("poll_timer")
@answered
def on_poll_timer(data=None):
    """The instructor's page starts a soft timer on the open question: the room sees the seconds
    left; nothing closes when they run out (no student is hurried by the page)."""
    klass = led()
    number = _id(data)
    seconds = check_timer(data.get("seconds"))
    with klass.lock:
        poll = book(klass).open_question(number)
        poll.start_timer(seconds, time.monotonic())
        news = {"id": number, **poll.timer_news()}
        socketio.emit("poll_timer", news, to=klass.room)
    return news


@socketio.on("poll_transfer")
@answered
def on_poll_transfer(data=None):
    """The instructor's page asks the question revealed last again, on the board mirrored or turned
    half round: its answer is the search's next event from the turned position."""
    klass = led()
    number = _id(data)
    turn = check_turn(data.get("turn"))
    _, peer, confidence = check_asking({key: data[key] for key in ("peer", "confidence") if key in data})
    present = students_following(klass)
    with klass.lock:
        path, search = book(klass).turnable(number)
        turned, event = turned_next(search, path, turn)
        move = prediction({"path": turned, "next": event})
        original = book(klass).history[-1]
        player = klass.main.player
        poll = book(klass).pose(
            original["run"],
            # Where the class's run stands: the turned board shows until it moves on.
            player.events if player is not None else original["at"] + 1,
            move,
            len(search.graph),
            present=present,
            peer=peer,
            confidence=confidence,
            transfer={"of": number, "turn": turn, "path": turned},
        )
        socketio.emit("poll_opened", poll.question(), to=klass.room)
    return {"poll": poll.question(), **poll.count()}


@socketio.on("poll_cancel")
@answered
def on_poll_cancel(data=None):
    """The instructor's page drops the open question; the run stays where it is."""
    klass = led()
    number = _id(data)
    with klass.lock:
        book(klass).cancel(number)
        socketio.emit("poll_closed", {"id": number}, to=klass.room)
    return {"id": number}
