"""Socket.IO handlers of class sessions: open, claim, join, leave, end; and their upkeep."""

import time

from flask import current_app, request
from flask_socketio import join_room, leave_room

from ..edge import app_guesses, app_seats
from ..edge.badges import ENVIRON_KEY as BADGE
from ..extension import socketio
from ..replies import Refusal, answered
from ..runs.registry import runs
from .directory import Unavailable
from .mirror import check_view, mirror
from .passes import Passes
from .questions.slot import book
from .registry import classes, directory
from .roles import NOT_FOLLOWING, led, students_following, tell_students
from .sessions import Feed, NoSuchClass, normal
from .tournament.tournaments import entry_id

# Seconds a page that joined another process's class waits for its owner's welcome (which takes
# milliseconds through Redis) before it is told the class waits for its instructor.
WELCOME_WAIT = 3

# Why a class ends, as class_ended says it: a stable key and the sentence.
ENDINGS = {
    "ended": "the instructor ended the class",
    "left": "the instructor left",
    "idle": "the class was idle",
    "gone": "the class did not come back",
    "stopped": "the class's server stopped",
}


def _guessed(lookup, proven):
    """Return lookup(), a class found by a code the client sent, counted as a guess at codes
    unless the client proved it knows the code (with a pass of the class that has it now)."""
    if proven:
        # A token or ticket is no guess: the limits on guessing, which a school's NAT shares,
        # must not keep out the instructor, a returning student or a student with the link.
        return lookup()
    sid, address, tried = request.sid, request.remote_addr, app_guesses()
    badge = request.environ.get(BADGE)
    # Checked before the lookup, whatever the code: answering a right code while refusing wrong
    # ones would tell a guesser which is which as fast as it asks.
    tried.check(sid, address, badge)
    try:
        return lookup()
    except NoSuchClass:
        tried.failed(sid, address, badge)
        raise


def ended(code, why):
    """Return the class_ended payload of class code: why it ended (a key of ENDINGS) and in words."""
    return {"code": code, "why": why, "reason": ENDINGS[why]}


def end_class(registry, klass, why):
    """End a class: tell its room why (a key of ENDINGS), and free everything it held."""
    registry.end(klass)
    directory().withdraw(klass.code, klass.nonce)
    # Through the queue, this also tells the other processes to forget the class at once.
    socketio.emit("class_ended", ended(klass.code, why), to=klass.room)
    for sid in (*klass.followers, klass.instructor):
        if sid is not None:
            socketio.server.leave_room(sid, klass.room, namespace="/")
    socketio.close_room(klass.room, namespace="/")


def _reap(app, registry):
    """End idle and abandoned classes until none is left (then this thread ends)."""
    while len(registry) or registry.waiting_for():
        socketio.sleep(app.config["CLASS_REAP_SECONDS"])
        with app.app_context():
            expire_waits(registry)
            for klass in registry.stale():
                end_class(registry, klass, "left" if klass.instructor is None else "idle")


def _ensure_reaper():
    registry = classes()
    reaping = getattr(registry, "reaping", None)
    # A thread, or under gevent a greenlet, which has no is_alive().
    if reaping is None or not (reaping.is_alive() if hasattr(reaping, "is_alive") else not reaping.dead):
        registry.reaping = socketio.start_background_task(_reap, current_app._get_current_object(), registry)


@socketio.on("class_open")
@answered
def on_class_open(data=None):
    """An instructor's page opens a class; its runs from now on are the class's."""
    registry = classes()
    klass = registry.open(request.sid)
    try:
        directory().publish(klass.code)
    except Unavailable:
        registry.close(klass)  # a class the other processes cannot know of is not opened
        raise
    _ensure_reaper()
    token, ticket = registry.token(klass), registry.ticket(klass)
    return {"code": klass.code, "token": token, "ticket": ticket, "students": 0}


def welcome_from_here(registry, code, sid=None):
    """Send a class owned here as it is to a student who joined through another process (None: all)."""
    klass = registry.owned(code)
    if klass is None:
        return
    with klass.lock:  # no batch goes out between bringing the room up to date and the state
        if sid is not None:
            socketio.emit("class_state", klass.welcome(), to=sid)
            return
        getattr(socketio.server.manager, "catch_up", lambda room: None)(klass.room)
        here = [sid for sid in (*klass.followers, klass.instructor) if sid is not None]
        socketio.emit("class_state", klass.welcome(), to=klass.room, skip_sid=here)


@socketio.on("class_claim")
@answered
def on_class_claim(data=None):
    """An instructor's page takes its class (back) with the class's token: after a reload, a
    lost connection, from another tab, or after the server restarted (the class opens again)."""
    if not isinstance(data, dict):
        raise ValueError("'class_claim' needs an object with code and token")
    sid, registry = request.sid, classes()
    if data.get("lane") == "second":  # the page's other connection, for the race's other board
        return {"code": registry.add_second(sid, data.get("code"), data.get("token")).code, "lane": "second"}
    code, token = normal(data.get("code")), data.get("token")
    # A claim tells whether a code names a class (by its error) as a join does.
    claim = _guessed(
        lambda: registry.claim(sid, code, token, directory().exists, directory().ended),
        code and registry.proves(code, registry.passes.leads(code, token), directory().exists),
    )
    klass = claim.klass
    _ensure_reaper()
    directory().publish(klass.code)
    with klass.lock:
        player = klass.main.player
        if player is not None:
            runs().hand_over(player, sid)
            player.reattach()
        klass.settle()
        klass.touched = time.monotonic()
        socketio.emit("class_control", klass.control(), to=klass.room)
        if claim.displaced is not None:
            _displace(registry, klass, claim.displaced)
        admitted = registry.admit(klass)
        for follower in admitted:
            socketio.server.enter_room(follower, klass.room, namespace="/")
        if claim.reopened:  # its room, on every process, follows it as led from here now
            socketio.emit("class_state", klass.welcome(), to=klass.room, skip_sid=sid)
        else:
            for follower in admitted:
                socketio.emit("class_state", klass.welcome(), to=follower)
        welcome = klass.welcome()
        reclaimed = klass.reclaimed()
        count, history = book(klass).answered(), book(klass).results()
    return {
        **welcome,
        **reclaimed,
        "ticket": registry.ticket(klass),
        "followers": len(klass.followers),
        "students": students_following(klass),
        **(count or {"answered": 0, "late": 0, "present": None}),
        "history": history,
    }


def hand_off(registry, code):
    """Let another process lead a class led here until now: its instructor's page claimed it
    there (after this process's worker was restarted, or from another tab)."""
    klass, displaced = registry.hand_off(code)
    if klass is None:
        return
    with klass.lock:
        if klass.main.player is not None:
            klass.main.player.stop()
        klass.main, klass.state = Feed(), "idle"
        for slot in klass.slots.values():  # the race's board, the tournament: its page brings them
            slot.hand_off()
    if displaced is not None:
        runs().release(displaced)  # its run was the class's, which is run elsewhere now
        socketio.server.enter_room(displaced, klass.room, namespace="/")
        socketio.emit("class_displaced", {"code": code, "ticket": registry.ticket(klass)}, to=displaced)
        directory().ask_welcome(code, displaced)


def _displace(registry, klass, sid):
    """Tell the page that led a class until another took it that it follows the class now."""
    socketio.server.enter_room(sid, klass.room, namespace="/")
    socketio.emit("class_displaced", {"code": klass.code, "ticket": registry.ticket(klass)}, to=sid)
    socketio.emit("class_state", klass.welcome(), to=sid)


@socketio.on("class_join")
@answered
def on_class_join(data=None):
    """A student's page follows a class: it gets the run as it is, then every change.

    With the ticket of its last join, a page whose class is not open (the server restarted)
    waits for it: it is welcomed when its instructor's page opens the class again. With the
    voter's pass of its last join, a page answers questions as the same student; a browser with a
    seat (edge/seats.py), as its seat.
    """
    if not isinstance(data, dict) or "code" not in data:
        raise ValueError("'class_join' needs an object with the class's code")
    sid, registry = request.sid, classes()
    code, ticket = normal(data["code"]), data.get("ticket")
    klass = _guessed(
        lambda: registry.follow(sid, code, directory().exists, ticket, directory().ended),
        code and registry.proves(code, registry.passes.admits(code, ticket), directory().exists),
    )
    # A code that names a class, or one its ticket proves: a code to sign.
    code = klass.code if klass is not None else code
    seat = app_seats().of(request.environ)
    # A browser with a seat answers as its seat, whatever pass its page kept; a seat's pass is
    # good only with its seat.
    voter = registry.passes.seated_voter(code, seat) if seat else data.get("voter")
    voter_id = registry.passes.votes(code, voter)
    if voter_id is None or (Passes.seated(voter_id) and not seat):  # none, or another class's: a new one
        voter = registry.passes.voter(code)
        voter_id = registry.passes.votes(code, voter)
    registry.vote_as(sid, voter_id)
    runs().drop(sid)  # a follower watches the class's run, not one of its own
    if klass is None:
        _ensure_reaper()
        return {
            "code": code,
            "waiting": True,
            "voter": voter,
            "answer": None,
            "first": None,
            "entry": entry_id(voter_id),
        }
    with klass.lock:  # nothing reaches the room between the welcome and the join
        join_room(klass.room)
        if klass.remote:  # its owner sends the state; batches before it are lined up by number
            directory().ask_welcome(klass.code, sid)
            klass.unwelcomed.add(sid)
            socketio.start_background_task(_welcomed_or_waiting, klass, sid)
        else:
            socketio.emit("class_state", klass.welcome(), to=sid)
        answer, first = book(klass).answer_of(voter_id)
    ticket = registry.ticket(klass) if not klass.remote else data.get("ticket")
    entry = entry_id(voter_id)
    tell_students(klass)
    return {
        "code": klass.code,
        "ticket": ticket,
        "voter": voter,
        "answer": answer,
        "first": first,
        "entry": entry,
    }


def _welcomed_or_waiting(klass, sid):
    """Tell a page that joined another process's class, and was not welcomed within a few seconds
    (its owner died, or is cut off), that the class waits for its instructor."""
    socketio.sleep(WELCOME_WAIT)
    with klass.lock:
        waiting = sid in klass.unwelcomed and sid in klass.followers
        klass.unwelcomed.discard(sid)
    if waiting:
        # Its owner's welcome, should it come late, takes over; its end comes as a follower's does.
        away = {"code": klass.code, "state": "away", "speed": None}
        socketio.emit("class_control", away, to=sid, ignore_queue=True)


@socketio.on("class_leave")
@answered
def on_class_leave(data=None):
    """A student's page stops following its class, to explore on its own board."""
    klass = classes().unfollow(request.sid)
    if klass is None:
        raise Refusal("class.not_following", NOT_FOLLOWING)
    leave_room(klass.room)
    tell_students(klass)
    return {"code": klass.code}


@socketio.on("class_view")
@answered
def on_class_view(data=None):
    """An instructor's page shows something new: its settings, position, panels or bookmarks."""
    view = check_view(data)
    klass = led()
    with klass.lock:
        feed = klass.main
        latest = feed.started["run"] if feed.started else None
        # The page sends its start before it learns the run's number: a view of no run sent
        # meanwhile is older than the run, which a student must not let go of; whether the run
        # is under way, or already over (a fast run can end before the view arrives) and the
        # page never named it.
        under_way = feed.player is not None and runs().get(request.sid) is feed.player
        mirrored = mirror(klass)
        over_unseen = feed.result is not None and feed.result["run"] == latest != mirrored.run
        if view["run"] is None and (under_way or over_unseen):
            view = {**view, "run": latest, "at": None}
        elif view["run"] is not None:
            mirrored.run = view["run"]
        mirrored.view = view
        klass.touched = time.monotonic()
        socketio.emit("class_view", view, to=klass.room, skip_sid=request.sid)


@socketio.on("class_end")
@answered
def on_class_end(data=None):
    """An instructor's page ends its class."""
    klass = led()
    end_class(classes(), klass, "ended")
    return {"code": klass.code}


def expire_waits(registry):
    """Tell the pages that waited too long for their class that it is not coming back."""
    now = time.monotonic()
    for code, waiting in registry.waiting_for().items():
        for sid, (_, since) in waiting.items():
            if now - since > registry.orphan_seconds and registry.stop_waiting(sid) == code:
                socketio.emit("class_ended", ended(code, "gone"), to=sid)
