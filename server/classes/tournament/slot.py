"""A class's tournament in the slot it keeps for it: the tournament, the feed searching its
boards, and the standings' news told to the room, paced."""

from ...extension import socketio
from ...replies import Refusal
from ..sessions import Slot
from ..throttle import Throttle

NAME = "tournament"  # the slot's name in a class
NEWS_EVERY = 0.5  # seconds between two news of the standings: two a second at most
NONE_YET = "the class has no tournament"


class Contest(Slot):
    """A class's tournament (None until one is opened), the feed searching its boards
    (runs/cells.py), and the standings, which tell everyone its news."""

    def __init__(self, klass):
        self.tournament = None
        self.feed = None
        self.standings = Throttle(
            lambda: _send_news(klass), NEWS_EVERY, socketio.start_background_task, socketio.sleep
        )

    def welcome(self):
        return {"tournament": self.tournament.state() if self.tournament is not None else None}

    def close(self):
        """Stop searching the boards of its tournament, which nobody here will be told of."""
        if self.feed is not None:
            self.feed.stop()

    def hand_off(self):
        self.close()
        self.tournament = self.feed = None


def contest(klass):
    """Return a class's Contest."""
    return klass.slots[NAME]


def tournament_of(klass):
    """Return a class's tournament, or refuse: it has none."""
    tournament = contest(klass).tournament
    if tournament is None:
        raise Refusal("tournament.none", NONE_YET)
    return tournament


def everyone(klass):
    """Return who is told the tournament's news: the room, and its instructor, who is not in it."""
    return [klass.room] + ([klass.instructor] if klass.instructor is not None else [])


def _send_news(klass):
    tournament = contest(klass).tournament
    if tournament is not None:
        socketio.emit("tournament_news", tournament.news(), to=everyone(klass))
