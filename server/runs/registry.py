"""The runs of one app's clients: at most one player per client, stopped when replaced."""

import threading

from flask import current_app

from .audience import Alone
from .pool import Pool
from .shares import group
from .turns import Turns


class OnePerPage:
    """What pages have under way, by client sid: at most one each, stopped when replaced."""

    def __init__(self):
        self._held = {}
        self._lock = threading.Lock()

    def __len__(self):
        return len(self._held)

    def get(self, sid):
        """Return what the client has under way, or None."""
        return self._held.get(sid)

    def replace(self, sid, held):
        """Make held the client's, stopping what it had."""
        with self._lock:
            old, self._held[sid] = self._held.get(sid), held
        if old is not None:
            old.stop()

    def drop(self, sid, held=None):
        """Forget and stop what the client has (only if it is held, when given)."""
        with self._lock:
            if held is None or self._held.get(sid) is held:
                held = self._held.pop(sid, None)
            else:
                held = None
        if held is not None:
            held.stop()


class Runs(OnePerPage):
    """The players of one app's clients, by client sid."""

    def __init__(self, give_way=lambda: None, pool=None):
        super().__init__()
        # Who else sees a run and who may drive it (see audience.py): a run alone by default.
        self.seams = Alone()
        self.turns = Turns(give_way, group=group)  # at searching flat out, shared by every run of the app
        self.pool = pool  # helper processes for skips, or None: see pool.py
        self.strips = OnePerPage()  # each page's strip under way: see strips.py

    def close(self):
        """End the helper processes, if there are any (a worker's end does it by itself)."""
        if self.pool is not None:
            self.pool.close()

    def players(self):
        """Return the players of every client, as they are now."""
        with self._lock:
            return list(self._held.values())

    def release(self, sid):
        """Forget the client's player without stopping it (a class's run outlives its page)."""
        with self._lock:
            return self._held.pop(sid, None)

    def hand_over(self, player, sid):
        """Make a running player the client's (and no other client's)."""
        with self._lock:
            for holder in [holder for holder, held in self._held.items() if held is player]:
                del self._held[holder]
        self.replace(sid, player)

    def discard(self, player):
        """Forget a player that has ended, whichever client holds it."""
        with self._lock:
            for holder in [holder for holder, held in self._held.items() if held is player]:
                del self._held[holder]


def _give_way(async_mode):
    """Return what a search calls as each of its turns begins (see turns.py)."""
    if async_mode == "gevent":
        # One thread serves every client: a search waits until it has nothing else to do.
        from gevent import idle

        return idle
    return lambda: None  # threads take turns at the core by themselves


def init_app(app):
    """Give an app its own registry of runs."""
    helpers = app.config["SEARCH_PROCESSES"]
    pool = Pool(helpers, group) if helpers else None
    app.extensions["knights_tour_runs"] = Runs(_give_way(app.config["ASYNC_MODE"]), pool)


def runs(app=None):
    """Return the registry of runs of an app (the current one by default)."""
    return (app or current_app).extensions["knights_tour_runs"]
