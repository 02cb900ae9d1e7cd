"""The relay of an instructor's run to the class's room: what starts, moves and ends."""

import time

from . import socketio
from .class_events import classes

# Above this pace a room gets snapshots a few times a second instead of every event:
# what a class can watch, and what 300 browsers can take from one server.
FOLLOW_MAX_SPEED = 2000
SNAPSHOT_EVERY = 0.1  # seconds between two snapshots sent to a room
SMALL_BATCH = 64  # events; a batch this small (a step, a slow pace) always reaches the room


class Relay:
    """Pass an instructor's run on to the class's room: what starts, moves and ends."""

    def __init__(self, klass, run):
        self.klass = klass
        self.run = run

    def started(self, payload, player):
        """Tell the room a new run has begun."""
        with self.klass.lock:
            self.klass.started, self.klass.player, self.klass.result = payload, player, None
            self.klass.summarising = False
            self._control(player)
            socketio.emit("started", payload, to=self.klass.room)

    def batch(self, payload, player):
        """Pass a batch of events on, or, at paces a class cannot watch, a snapshot now and then."""
        klass = self.klass
        with klass.lock:
            if klass.player is not player:
                return
            if len(payload["events"]) <= SMALL_BATCH or 0 < player.speed <= FOLLOW_MAX_SPEED:
                if klass.summarising:  # the room is behind: bring it up to date first
                    self._snapshot(player)
                    klass.summarising = False
                socketio.emit("events", payload, to=klass.room)
            elif time.monotonic() - klass.snapshot_at >= SNAPSHOT_EVERY:
                self._snapshot(player)
                klass.summarising = True

    def progress(self, snapshot):
        """Pass on the progress of a skip."""
        socketio.emit("progress", {"run": self.run, **snapshot}, to=self.klass.room)

    def finished(self, payload, player):
        """Tell the room the run has ended, and how."""
        with self.klass.lock:
            if self.klass.player is player:
                self.klass.player, self.klass.result, self.klass.state = None, payload, "finished"
                socketio.emit("finished", payload, to=self.klass.room)
                socketio.emit("class_control", self.klass.control(), to=self.klass.room)

    def control(self, player):
        """Tell the room the run was paused, resumed, stepped, sped up or skipped."""
        with self.klass.lock:
            if self.klass.player is player:
                if self.klass.summarising:
                    self._snapshot(player)
                self._control(player)

    def _control(self, player):
        self.klass.state, self.klass.speed = player.state(), player.speed
        self.klass.touched = time.monotonic()
        socketio.emit("class_control", self.klass.control(), to=self.klass.room)

    def _snapshot(self, player):
        self.klass.snapshot_at = time.monotonic()
        socketio.emit("snapshot", {"run": self.run, **player.snapshot()}, to=self.klass.room)


class NoRelay:
    """The relay of a run nobody follows."""

    def started(self, payload, player):
        pass

    def batch(self, payload, player):
        pass

    def progress(self, snapshot):
        pass

    def finished(self, payload, player):
        pass

    def control(self, player):
        pass


def relay_for(sid, run):
    """Return the relay of a run that sid starts: to its class's room, if it leads one."""
    klass = classes().led_by(sid)
    return Relay(klass, run) if klass else NoRelay()
