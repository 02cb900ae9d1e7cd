"""A class's questions in the slot it keeps for them: its poll book, and the count of answers
its instructor is sent, paced."""

from ...extension import socketio
from ...replies import Refusal
from ..registry import classes
from ..sessions import Slot
from ..throttle import Throttle
from .polls import PollBook

NAME = "poll"  # the slot's name in a class
COUNT_EVERY = 0.2  # seconds between two counts sent to the instructor: 5 a second at most
QUESTION_OPEN = "a question is open: reveal or cancel it first"


class Questions(Slot):
    """A class's poll book (of another process's class: as heard here), and its tally, which
    sends the instructor the count of answers."""

    def __init__(self, klass):
        self.book = PollBook()
        self.tally = Throttle(
            lambda: _send_count(klass), COUNT_EVERY, socketio.start_background_task, socketio.sleep
        )

    def welcome(self):
        return {"poll": self.book.question()}


def book(klass):
    """Return a class's poll book."""
    return klass.slots[NAME].book


def count(klass):
    """Let the instructor know how many have answered, soon."""
    klass.slots[NAME].tally.poke()


def _send_count(klass):
    with klass.lock:
        poll, sid = book(klass).open, klass.instructor
        if poll is not None and sid is not None:
            payload = {"id": poll.id, **poll.count()}
            socketio.emit("poll_count", payload, to=sid, ignore_queue=True)  # connected here


def check_unasked(sid):
    """Raise ValueError if sid leads a class with an open question: the run waits for its answer."""
    klass = classes().led_by(sid)
    if klass is not None and book(klass).open is not None:
        raise Refusal("question.open", QUESTION_OPEN)
