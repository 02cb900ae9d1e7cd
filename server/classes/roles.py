"""Who a page is in its class, for the handlers of every feature: the instructor who leads it,
a student who follows it, or neither; how many students follow; and a page's going."""

from flask import request

from ..edge import app_guesses
from ..extension import socketio
from ..replies import Refusal
from ..runs.registry import runs
from .directory import Unavailable
from .registry import classes, directory

NOT_LEADING = "you do not lead a class"
NOT_FOLLOWING = "you are not following a class"


def led():
    """Return the class the requesting page leads, or refuse: it leads none."""
    klass = classes().led_by(request.sid)
    if klass is None:
        raise Refusal("class.not_leading", NOT_LEADING)
    return klass


def check_in_control(sid):
    """Raise ValueError if sid follows a class, whose run only its instructor controls."""
    registry = classes()
    klass = registry.followed_by(sid)
    if klass is not None and klass.remote and not _still_open(klass.code):
        registry.unfollow(sid)  # its owner has ended it
        klass = None
    if klass is not None:
        raise Refusal(
            "class.following",
            f"you are following class {klass.code}: only its instructor controls the run; "
            "leave the class to explore on your own board",
            code=klass.code,
        )


def _still_open(code):
    """Tell whether another process still has a class (assume so while Redis cannot say)."""
    try:
        return directory().exists(code)
    except Unavailable:
        return True


def followed():
    """Return the class the requesting page follows, or refuse: it follows none."""
    klass = classes().followed_by(request.sid)
    if klass is None:
        raise Refusal("class.not_following", NOT_FOLLOWING)
    return klass


def students_following(klass):
    """Return how many students follow a class, through every process (through this one alone
    while Redis does not answer)."""
    try:
        elsewhere = directory().students(klass.code)
    except Unavailable:
        elsewhere = 0
    return classes().students(klass) + elsewhere


def tell_students(klass):
    """Tell a class's instructor how many students follow it now."""
    if klass is not None and not klass.remote and klass.instructor is not None:
        socketio.emit("class_students", {"students": students_following(klass)}, to=klass.instructor)


def on_gone(sid):
    """Note that a page has gone: a follower leaves its room; an instructor leaves its class,
    whose run waits, paused, for them to come back."""
    app_guesses().forget(sid)  # its address's bucket stays: reconnecting must not refill it
    classes().drop_second(sid)
    klass, followed = classes().led_by(sid), classes().followed_by(sid)
    classes().left(sid)
    tell_students(followed)
    if klass is not None:
        with klass.lock:
            player = klass.main.player
            if player is not None and runs().release(sid) is player:
                player.pause()
            klass.state = "away"
            socketio.emit("class_control", klass.control(), to=klass.room)
