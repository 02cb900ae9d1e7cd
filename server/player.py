"""One run of a search: pacing, pause, step, speed and batching of its events."""

import threading
import time

from .search import BACKTRACK, FOUND, VISIT

WINDOW = 2  # batches sent but not yet acknowledged, at most
MAX_BATCH = 4096  # events in one batch, at most
TICK = 1 / 30  # seconds between batches when the speed allows more than one event each


class Tally:
    """Counters and the current path of a run, kept from the events it has produced."""

    def __init__(self):
        self.visits = 0
        self.backtracks = 0
        self.tours = 0
        self.path = []

    def add(self, event):
        """Account for one event."""
        kind, vertex, _ = event
        if kind is VISIT:
            self.visits += 1
            self.path.append(vertex)
        elif kind is BACKTRACK:
            self.backtracks += 1
            self.path.pop()
        elif kind is FOUND:
            self.tours += 1

    def summary(self):
        """Return the counters and path as a plain dict."""
        return {
            "found": self.tours > 0,
            "tours": self.tours,
            "path": list(self.path),
            "visits": self.visits,
            "backtracks": self.backtracks,
        }


class Player:
    """Pull events from a search and hand them to send() in paced, acknowledged batches.

    send(batch, on_ack) delivers a list of events and calls on_ack() once the receiver
    has taken them; finish(summary) is called after the last batch. Both are called from
    the player's own thread, which start_task(fn) starts.
    """

    def __init__(self, events, send, finish, speed=0, paused=False, clock=time.monotonic):
        self._events = iter(events)
        self._next = next(self._events, None)
        self._send = send
        self._finish = finish
        self._clock = clock
        self._cond = threading.Condition()
        self._speed = speed
        self._paused = paused
        self._steps = 0
        self._in_flight = 0
        self._credit = 0.0
        self._credited_at = clock()
        self._stopped = False
        self.tally = Tally()
        self.done = False

    # Controls: each may be called from any thread.

    def start(self, start_task):
        """Run the player on a thread made by start_task(fn)."""
        start_task(self._run)

    def pause(self):
        """Stop pulling events until resume() or step()."""
        with self._cond:
            self._paused = True

    def resume(self):
        """Go on at the current speed."""
        with self._cond:
            self._paused = False
            self._credited_at = self._clock()
            self._cond.notify_all()

    def step(self):
        """Pause, then release exactly one more event."""
        with self._cond:
            self._paused = True
            self._steps += 1
            self._cond.notify_all()

    def set_speed(self, speed):
        """Change the pace: events per second, 0 for as fast as they are acknowledged."""
        with self._cond:
            self._accrue()
            self._speed = speed
            self._cond.notify_all()

    def acked(self):
        """Record that the receiver has taken one batch."""
        with self._cond:
            self._in_flight = max(0, self._in_flight - 1)
            self._cond.notify_all()

    def stop(self):
        """End the run; the player's thread exits soon after."""
        with self._cond:
            self._stopped = True
            self._cond.notify_all()

    @property
    def paused(self):
        return self._paused

    # The player's thread.

    def _accrue(self):
        """Add the events earned since the last call to the credit, capped at one tick."""
        now = self._clock()
        if self._speed and not self._paused:
            cap = max(1.0, self._speed * TICK * 2)
            self._credit = min(cap, self._credit + (now - self._credited_at) * self._speed)
        self._credited_at = now

    def _next_allowance(self):
        """Return how many events to send now, or the seconds to wait (as a negative)."""
        if self._in_flight >= WINDOW:
            return None
        if self._steps:
            self._steps -= 1
            return 1
        if self._paused:
            return None
        if not self._speed:
            return MAX_BATCH
        self._accrue()
        # Below the tick rate one event goes at a time; above it, a tick's worth at once.
        wanted = 1 if self._speed <= 1 / TICK else self._speed * TICK
        if self._credit >= wanted:
            count = min(MAX_BATCH, int(self._credit))
            self._credit -= count
            return count
        return -(wanted - self._credit) / self._speed

    def _run(self):
        while True:
            with self._cond:
                while not self._stopped:
                    allowance = self._next_allowance()
                    if allowance is not None and allowance > 0:
                        break
                    self._cond.wait(None if allowance is None else -allowance)
                if self._stopped:
                    return
                batch = self._pull(allowance)
                if batch:
                    self._in_flight += 1
            if batch:
                self._send(batch, self.acked)
            if self.done:
                self._finish(self.tally.summary())
                return

    def _pull(self, count):
        """Take up to count events from the search, noting whether it has ended."""
        batch = []
        add, events, event = self.tally.add, self._events, self._next
        while event is not None and len(batch) < count:
            add(event)
            batch.append(event)
            event = next(events, None)
        # One event is read ahead so that the end is known with the batch that reaches it.
        self._next = event
        self.done = event is None
        return batch
