"""Keeping the classes of processes that share Redis in step, whether Redis answers or not.

- A heartbeat renews the process's lease and the keys of the classes it owns every
  CLASS_HEARTBEAT_SECONDS (and puts them back if Redis lost them; lets go of those another
  process took), and checks the keys of the other processes' classes its students follow: a
  class whose key, or whose owner's lease, stays missing for two heartbeats has lost its
  server, and its students here are told so.
- The rooms of a class whose messages could not all be published while Redis was away get the
  class's state once it is back. Each time a process subscribes (at start, and after losing
  its subscription), what was published before never reached it: it asks the owners of its
  students' classes for their state, and an owner sends it to all its rooms. Whichever
  subscribes last, the state arrives.
- The class_ended an owner sends its room makes every other process forget the class at once.
- A process learns a class's open question from what its owner sends the room (poll_opened,
  poll_revealed, poll_closed, and the question in a class_state), checks its own students'
  answers against it, and passes them on to the owner, which counts each voter once. A
  student's entry in a class's tournament, and a verdict on its code exercise, are checked and
  passed on the same way.
"""

import logging
import time
from contextlib import suppress

from ..extension import socketio
from .directory import Unavailable
from .events import ended, hand_off, welcome_from_here
from .exercise import slot as exercises
from .exercise.events import record_remote
from .questions.events import count_remote
from .questions.slot import book
from .registry import classes, directory
from .roles import tell_students
from .tournament.events import enter_remote

log = logging.getLogger(__name__)


def start(app, queue):
    """Keep an app's classes in step with the other processes' (nothing to do without a queue)."""
    if queue is None:
        return
    registry, shared = classes(app), directory(app)

    def let_go(code):
        with app.app_context():  # its page's run is dropped from the app's runs
            hand_off(registry, code)

    queue.on_recovered = lambda rooms: _catch_up(registry)
    queue.on_subscribed = lambda: _ask_for_state(registry, shared)
    queue.on_heard = lambda event, payload, room: _heard(registry, event, payload, room)
    socketio.start_background_task(
        shared.serve,
        lambda code, sid: welcome_from_here(registry, code, sid),
        lambda: _put_back(registry, shared, let_go),
        socketio.sleep,
        lambda code, voter, id, square, sure, round: count_remote(
            registry, code, voter, id, square, sure, round
        ),
        let_go,
        lambda code, voter, order, name, title: _enter_remote(app, registry, code, voter, order, name, title),
        lambda code, voter, verdict: record_remote(registry, code, voter, verdict),
    )
    socketio.start_background_task(_beat, registry, shared, app.config["CLASS_HEARTBEAT_SECONDS"], let_go)


def _enter_remote(app, registry, code, voter, order, name, title):
    with app.app_context():  # its boards are searched by the app's helpers
        enter_remote(registry, code, voter, order, name, title)


def _catch_up(registry):
    """Send the rooms of the classes owned here their class's state, on the other processes."""
    # Every room, not only those a message missed: a welcome to a student who joined meanwhile
    # through another process may have been lost too.
    for klass in registry.shared()[0]:
        welcome_from_here(registry, klass.code)


def _ask_for_state(registry, shared):
    """Ask the owners of the classes followed here for their state: it may not have arrived."""
    for klass in registry.shared()[1]:
        if klass.followers:
            try:
                shared.ask_welcome(klass.code)
            except Unavailable:
                return  # Redis is away again: this is called once more when it is back


def _put_back(registry, shared, let_go):
    """Put the classes owned here back in the directory (let_go(code) of those another process
    took), and send their rooms their state."""
    owned = registry.shared()[0]
    try:
        taken = shared.renew([klass.code for klass in owned])
    except Unavailable:
        return
    for code in taken:
        let_go(code)
    _catch_up(registry)


ROOM = "class:"  # the start of a class's room's name: see ClassSession.room
# Sent to a room: no code.
HEARD = ("started", "poll_opened", "poll_stage", "poll_revealed", "poll_closed", *exercises.HEARD)


def _heard(registry, event, payload, room):
    """Note what another process told a class's room: that it ended, its run's board, its questions."""
    if not isinstance(payload, dict):
        return
    # Sent to the class's room by its owner: not to one page, whose wait for a class ended.
    if event == "class_ended" and room == f"{ROOM}{payload.get('code')}":
        registry.drop_remote(payload["code"])
        return
    if event == "class_state":  # to the room, or to one page that joined here
        code = payload.get("code")
    elif event in HEARD and isinstance(room, str) and room.startswith(ROOM):
        code = room[len(ROOM) :]
    else:
        return
    klass = registry.known_remote(code)
    if klass is not None:
        with klass.lock:
            if event == "class_state" and room == klass.room:  # its owner welcomed the whole room
                klass.unwelcomed.clear()
            elif event == "class_state":  # or one page here
                klass.unwelcomed.discard(room)
            book(klass).heard(event, payload)
            exercises.exercise(klass).heard(event, payload)


def _beat(registry, shared, every, let_go):
    """Renew the classes owned here (let_go(code) of those another process took) and end, for
    its students here, a class whose server stopped."""
    missing = {}  # the other processes' classes missing from Redis: code -> since when
    with suppress(Unavailable):
        shared.lease()  # from the start, not a beat later
    while True:
        socketio.sleep(every)
        try:
            missing = _check(registry, shared, missing, 2 * every, let_go)
        except Unavailable:
            missing = {}  # a key missing before and after an outage may have been put back since
        except Exception:
            log.exception("the class heartbeat failed")


def _check(registry, shared, missing, grace, let_go):
    shared.lease()  # this process lives: its classes are alive for the others
    owned, remote = registry.shared()
    for code in shared.renew([klass.code for klass in owned]):
        let_go(code)
    gone = shared.missing([klass.code for klass in remote])
    shared.count_students(
        {klass.code: registry.students(klass) for klass in remote if klass.code not in gone}
    )
    for klass in owned:  # students who follow through other processes reach the count a beat later
        tell_students(klass)
    # A key may be missing for a while with its owner alive: Redis restarted and lost every key,
    # or hung for longer than keys live. Its owner puts it back at its next beat, or the one
    # after if that beat had to wait for Redis: only a key missing longer has no owner.
    now = time.monotonic()
    missing = {code: missing.get(code, now) for code in gone}
    for code, since in list(missing.items()):
        if now - since >= grace:
            shared.bury(code)
            _end_remote(registry, code, "stopped")
            del missing[code]
    return missing


def _end_remote(registry, code, why):
    """Tell the students here of another process's class that it has ended, and forget it."""
    klass = registry.drop_remote(code)
    if klass is None:
        return
    # Only this process's part of the room: the other processes see to theirs.
    socketio.emit("class_ended", ended(code, why), to=klass.room, ignore_queue=True)
    for sid in klass.followers:
        socketio.server.leave_room(sid, klass.room, namespace="/")
