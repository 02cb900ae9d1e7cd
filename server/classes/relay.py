"""The relay of an instructor's run to the class's room: what starts, moves and ends.

With several processes, what the room is sent reaches the other processes through Redis, and
the run never waits for it: see message_queue.py for what happens when Redis is slow or away.
"""

import time

from ..engine.outline import Outline
from ..extension import socketio
from ..runs.audience import Nobody
from .mirror import mirror
from .registry import classes
from .sessions import Feed, Slot

# Above this pace a room gets snapshots a few times a second instead of every event:
# what a class can watch, and what 300 browsers can take from one server.
FOLLOW_MAX_SPEED = 2000
SNAPSHOT_EVERY = 0.1  # seconds between two snapshots sent to a room
SMALL_BATCH = 64  # events; a batch this small (a step, a slow pace) always reaches the room
# Nodes a stretch of the outline sent with a snapshot holds at least (see engine/outline.py):
# coarser than a skip's, as a snapshot goes to every follower ten times a second.
ROOM_STRETCH = 4096
SECOND = "second"  # the slot's name in a class


class Lane(Slot):
    """A race's other board: the run of the instructor page's second connection, as its room sees it."""

    def __init__(self, klass):
        self.feed = Feed()

    def welcome(self):
        return {"second": self.feed.news()}

    def hand_off(self):
        if self.feed.player is not None:
            self.feed.player.stop()
        self.feed = Feed()


def second(klass):
    """Return the feed of a class's race's other board."""
    return klass.slots[SECOND].feed


class Relay:
    """Pass an instructor's run on to the class's room: what starts, moves and ends.

    The run is the class's own (its feed is klass.main), or in a race the other board's (Lane), whose
    news the room gets marked with its lane ("second"); how the run goes (class_control) is
    the class's own run's.
    """

    def __init__(self, klass, run, lane=None):
        self.klass = klass
        self.run = run
        self.lane = lane
        self.feed = second(klass) if lane else klass.main

    def _emit(self, event, payload):
        socketio.emit(event, {**payload, "lane": self.lane} if self.lane else payload, to=self.klass.room)

    def started(self, payload, player):
        """Tell the room a new run has begun."""
        with self.klass.lock:
            feed = self.feed
            feed.started, feed.player, feed.result, feed.summarising = payload, player, None, False
            feed.outline = None
            shown = mirror(self.klass)
            if not self.lane and shown.view is not None:
                # The instructor's page shows the new run: a welcome must not say otherwise
                # before its next view arrives.
                shown.view = {**shown.view, "run": payload["run"], "at": None}
            self._control(player)
            self._emit("started", payload)

    outlines = True

    def batch(self, payload, player, outline=None):
        """Pass a batch of events on, or, at paces a class cannot watch, a snapshot now and then
        with the outline of the tree of the batches left out (see engine/outline.py), so that
        the room's pages still draw the whole search tree."""
        feed = self.feed
        with self.klass.lock:
            if feed.player is not player:
                return
            watched = len(payload["events"]) <= SMALL_BATCH or 0 < player.speed <= FOLLOW_MAX_SPEED
            if feed.summarising or not watched:
                # The snapshot before the room is sent events again counts this batch too.
                feed.outline = _outlined(feed.outline, outline)
            if watched:
                if feed.summarising:  # the room is behind: bring it up to date first
                    self._snapshot(player)
                    feed.summarising = False
                feed.outline = None
                self._emit("events", payload)
            elif time.monotonic() - feed.snapshot_at >= SNAPSHOT_EVERY:
                self._snapshot(player)
                feed.summarising = True

    def progress(self, snapshot):
        """Pass on the progress of a skip."""
        self._emit("progress", {"run": self.run, **snapshot})

    def finished(self, payload, player):
        """Tell the room the run has ended, and how (with the outline of the batches it was
        not sent since the last snapshot)."""
        with self.klass.lock:
            feed = self.feed
            if feed.player is player:
                feed.player, feed.result = None, payload
                outline = _taken(feed)
                self._emit("finished", payload if outline is None else {**payload, "outline": outline})
                if not self.lane:
                    self.klass.state = "finished"
                    socketio.emit("class_control", self.klass.control(), to=self.klass.room)

    def control(self, player):
        """Tell the room the run was paused, resumed, stepped, sped up or skipped."""
        with self.klass.lock:
            if self.feed.player is player:
                if self.feed.summarising:
                    self._snapshot(player)
                self._control(player)

    def stalled(self, player, stalled):
        """Tell the room the instructor's page has stopped taking the run's batches (its
        connection stalls: state "stalled"), or takes them again."""
        if self.lane:
            return  # the class's own run says how the class goes
        with self.klass.lock:
            if self.feed.player is not player:
                return
            if stalled and self.klass.state == "playing" and player.state() == "playing":
                self.klass.state = "stalled"
            elif not stalled and self.klass.state == "stalled":
                self.klass.state = player.state()
            else:
                return  # paused, away or ended meanwhile: the room was told so
            socketio.emit("class_control", self.klass.control(), to=self.klass.room)

    def _control(self, player):
        if self.lane:
            return  # the room follows the state of the class's own run
        self.klass.state, self.klass.speed = player.state(), player.speed
        self.klass.touched = time.monotonic()
        socketio.emit("class_control", self.klass.control(), to=self.klass.room)

    def _snapshot(self, player):
        self.feed.snapshot_at = time.monotonic()
        outline = _taken(self.feed)
        self._emit(
            "snapshot",
            {"run": self.run, **player.snapshot(), **({} if outline is None else {"outline": outline})},
        )


UNKNOWN = "unknown"  # a feed's outline once a batch left out came without one


def _outlined(outline, part):
    """Return a feed's outline with a batch's outline part added to it (see Feed.outline)."""
    if part is None or outline is UNKNOWN:
        return UNKNOWN
    if outline is None:
        return Outline.of(part, ROOM_STRETCH)
    if part["from"] != outline.nodes:
        return UNKNOWN
    outline.merge(part)
    return outline


def _taken(feed):
    """Return what a feed's outline holds that the room was not sent yet, or None if it has none."""
    return feed.outline.take() if isinstance(feed.outline, Outline) else None


def relay_for(sid, run):
    """Return the relay of a run that sid starts: to the room of the class it leads, if any."""
    registry = classes()
    klass = registry.led_by(sid)
    if klass is not None:
        return Relay(klass, run)
    klass = registry.second_of(sid)
    return Relay(klass, run, "second") if klass is not None else Nobody()
