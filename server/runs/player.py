"""One run of a search: pacing, pause, step, speed, skipping and batching of its events."""

import itertools
import threading
import time
from collections import deque
from contextlib import nullcontext

from ..engine import legs
from ..engine.lookahead import upcoming as next_event
from ..engine.search import Compact, compact

WINDOW = 2  # batches sent but not yet acknowledged, at most
# Events in one batch, at most: the fastest speed sends full batches, each taken a slice at a time
# (see SKIP_SLICE). A page pays for each message it takes, so fewer, larger ones go faster.
MAX_BATCH = 4 * 4096
# Events in a receiver's first batches: each batch acknowledged within LATE seconds lets the next
# hold GROWTH times as many, up to MAX_BATCH, and one acknowledged later halves it. A healthy
# page's batches are full after three round trips, and a client that never acknowledges holds
# two of these (about 2 KB of text) rather than two full ones (about 480 KB with their copies).
FIRST_BATCH = 256
GROWTH = 4
LATE = 0.5
# Seconds between batches when the speed allows more than one event each: ten batches a
# second keep a lecture hall of browsers (hundreds of clients on one process) within reach.
TICK = 0.1
# Events searched between two looks at the controls while skipping (under 1 ms): a gevent
# worker serves nobody else during a slice, so a skip must not hold it for longer.
SKIP_SLICE = 1 << 12
SKIP_REPORT = 0.2  # seconds between two progress reports while skipping
# Seconds a batch may wait for its acknowledgement before a playing run counts as stalled: a
# healthy page acknowledges within milliseconds, one whose connection has gone never does.
STALL = 1.0


class Player:
    """Pull events from a Search and hand them on in paced, acknowledged batches.

    send(batch, on_ack) delivers a list of events; report(snapshot, on_ack) delivers the
    progress of a skip, with the outline of the tree it searched since the last report (see
    engine/outline.py); finish(summary) follows the last batch; stalled(True) says that a
    playing run waits on a batch unacknowledged for STALL seconds, stalled(False) that it goes
    on. All are called from the player's own thread, which start_task(fn) starts; on_ack()
    must be called once the receiver has taken what was sent.

    turn() gives a context in which the player may search one slice of many: see turns.py. A
    batch of a slice or less (a paced run's, a step's) is taken at once. leg(search, state,
    limit, keep=False), if given, asks for unsent events (a skip's, a catch-up's) to be searched
    a leg at a time somewhere else, and returns a Future of the state reached; with keep, for a
    larger batch's events to be searched there and kept, and a Future of the state and the
    events, written compactly (see runs/pool.py); if that fails with OSError, the player
    searches the leg itself. With outline_batches, each batch comes written compactly with the
    outline of its tree as batch.outline (see engine/outline.py): a class's room, sent
    snapshots instead of batches at fast paces, is sent their outlines.
    """

    def __init__(
        self,
        search,
        send,
        report,
        finish,
        *,
        speed=0,
        paused=False,
        budget=None,
        resume_at=0,
        clock=time.monotonic,
        stalled=lambda stalled: None,
        turn=nullcontext,
        leg=None,
        outline_batches=False,
    ):
        self.search = search
        self._turn, self._leg, self._outline_batches = turn, leg, outline_batches
        self._events = None  # the search's events from self.last on: see _stream
        self._send, self._report, self._finish = send, report, finish
        self._clock = clock
        self._cond = threading.Condition()
        self._speed = speed
        self._paused = paused
        self._skipping = False
        self._outline = None  # the outline of a skip's tree not yet reported
        self._steps = 0
        self._in_flight = 0
        self._sent = deque()  # when each batch in flight was sent, oldest first
        self._batch = FIRST_BATCH  # the most events the next batch may hold
        self._stalled_hook = stalled
        self._stalled = False  # the receiver has been told the run stalled, and not that it goes on
        # One event's credit up front: at slow speeds the first move shows at once, not a tick later.
        self._credit = 1.0
        self._credited_at = clock()
        self._stopped = False
        self.budget = budget
        self.events = 0  # events taken from the search so far
        self.last = None  # the last event taken from the search, None before any
        self.done = False
        self._exhausted = False  # the search itself has ended (not just the budget)
        # Events the receiver holds already, from an earlier run of the same search: they are
        # searched again without being sent, and the run goes on from there.
        self._resume_at = resume_at

    # Controls: each may be called from any thread.

    def start(self, start_task):
        """Run the player on a thread made by start_task(fn)."""
        start_task(self._run)

    def pause(self):
        """Stop pulling events (ending a skip, and dropping steps not yet taken) until resume() or step()."""
        with self._cond:
            self._paused = True
            self._skipping = False
            # A step still waiting for its window must not play after the pause: a question
            # asked about the paused position would see its answer played unrevealed.
            self._steps = 0
            self._cond.notify_all()  # a leg waited for elsewhere is given up at once

    def resume(self):
        """Go on at the current speed."""
        with self._cond:
            self._paused = False
            self._credit = max(self._credit, 1.0)
            self._credited_at = self._clock()
            self._cond.notify_all()

    def step(self):
        """Pause, then release exactly one more event."""
        with self._cond:
            self._paused = True
            self._skipping = False
            self._steps += 1
            self._cond.notify_all()

    def skip(self):
        """Search the rest of the run without sending its events, reporting progress."""
        with self._cond:
            self._skipping = True
            self._paused = False
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
            if self._sent:
                took = self._clock() - self._sent.popleft()
                grown = self._batch * GROWTH if took <= LATE else self._batch // 2
                self._batch = min(MAX_BATCH, max(FIRST_BATCH, grown))
            self._cond.notify_all()

    def reattach(self):
        """Forget the batches sent to a receiver that has gone: a new one takes the run on."""
        with self._cond:
            self._in_flight = 0
            self._sent.clear()
            self._batch = FIRST_BATCH  # nothing is known yet of how the new one takes them
            self._stalled = False  # the new receiver is told how the run goes when it takes it
            self._cond.notify_all()

    def stop(self):
        """End the run; the player's thread exits soon after."""
        with self._cond:
            self._stopped = True
            self._cond.notify_all()

    @property
    def speed(self):
        return self._speed

    def settled(self):
        """Tell whether the run is paused with nothing on its way: no step still to take, and every
        batch it sent acknowledged (what it has taken, its receiver has)."""
        with self._cond:
            return self._paused and not self._skipping and not self._steps and not self._in_flight

    def state(self):
        """Return how the run goes: playing, paused, skipping or finished."""
        if self.done:
            return "finished"
        return "skipping" if self._skipping else "paused" if self._paused else "playing"

    def snapshot(self):
        """Return the run's counters and current path, as of the last events taken."""
        with self._cond:
            return self._snapshot()

    def upcoming(self):
        """Return the events taken so far, the path, the last event and the event the search makes next."""
        with self._cond:
            search = self.search
            path, last = list(search.path), self.last
            return {"events": self.events, "path": path, "last": last, "next": next_event(search, last)}

    def _snapshot(self):
        search, events = self.search, self.events
        # Each visit adds a square to the path and each backtrack removes one.
        on_path, tours = len(search.path), search.tours
        return {
            "events": events,
            "visits": (events - tours + on_path) // 2,
            "backtracks": (events - tours - on_path) // 2,
            "tours": tours,
            "path": list(search.path),
        }

    def summary(self):
        """Return the result of a finished run (with the outline of the tree a skip searched
        after its last report)."""
        search = self.search
        outline, self._outline = self._outline, None
        return {
            **self._snapshot(),
            "found": search.tours > 0,
            "tour": search.last_tour,
            "stopped": None if self._exhausted else "budget",
            **({} if outline is None else {"outline": outline.take()}),
        }

    # The player's thread.

    def _accrue(self):
        """Add the events earned since the last call to the credit, capped at two ticks."""
        now = self._clock()
        if self._speed and not self._paused:
            cap = max(1.0, self._speed * TICK * 2)
            self._credit = min(cap, self._credit + (now - self._credited_at) * self._speed)
        self._credited_at = now

    def _allowance(self):
        """Return how many events to send now, None to wait, or the seconds to wait (< 0)."""
        if self._skipping:
            return SKIP_SLICE
        if self._in_flight >= WINDOW:
            return None
        if self._steps:
            self._steps -= 1
            return 1
        if self._paused:
            return None
        if not self._speed:
            return self._batch
        self._accrue()
        # Below the tick rate one event goes at a time; above it, a tick's worth at once.
        wanted = 1 if self._speed <= 1 / TICK else min(self._speed * TICK, self._batch)
        if self._credit >= wanted:
            count = min(self._batch, int(self._credit))
            self._credit -= count
            return count
        return -(wanted - self._credit) / self._speed

    def _stall_in(self):
        """Return the seconds until a playing run stalls (0: it has), or None while it waits on nothing."""
        if not self._sent or self._paused or self._skipping:
            return None
        return max(0.0, self._sent[0] + STALL - self._clock())

    def _run(self):
        self._catch_up()
        while not self.done:
            news = None  # a stall begun (True) or ended (False), to tell outside the lock
            with self._cond:
                while not self._stopped:
                    allowance = self._allowance()
                    stall = self._stall_in()
                    if (stall == 0) != self._stalled:
                        self._stalled = news = stall == 0
                        break
                    if allowance is not None and allowance > 0:
                        break
                    waits = [] if allowance is None else [-allowance]
                    if stall is not None and not self._stalled:
                        waits.append(stall)
                    self._cond.wait(min(waits) if waits else None)
                if self._stopped:
                    return
                if news is None:
                    skipping = self._skipping
                    if not skipping:
                        # A slice or more is taken in turns (see _fill), outside this lock.
                        batch = self._take(allowance) if allowance < SKIP_SLICE else []
                        self._in_flight += 1
                        self._sent.append(self._clock())
            if news is not None:
                self._stalled_hook(news)
            elif skipping:
                self._skip()
            elif batch := self._fill(batch, allowance):
                with self._cond:
                    # A batch's wait for its acknowledgement begins now, not before a helper
                    # searched it (a leg may wait its turn).
                    self._sent[-1] = self._clock()
                    if self._outline_batches and not isinstance(batch, Compact):
                        outline = legs.outline_of(batch, self.search, self.events)
                        batch = Compact(compact(batch))
                        batch.outline = outline
                self._send(batch, self.acked)
            else:  # paused, skipped or stopped before a slice was taken: nothing goes
                with self._cond:
                    self._in_flight -= 1
                    self._sent.pop()
        self._finish(self.summary())

    def _room(self, count):
        """Return count, cut to what the budget has left."""
        return count if self.budget is None else min(count, self.budget - self.events)

    def _stream(self):
        """Return the search's events after the last taken, going on from its path if it was
        searched elsewhere meanwhile."""
        if self._events is None:
            self._events = legs.go_on(self.search, legs.where(self.search, self.events, self.last))
        return self._events

    def _take(self, count):
        """Take up to count events from the search."""
        batch = list(itertools.islice(self._stream(), self._room(count)))
        self.events += len(batch)
        if batch:
            self.last = batch[-1]
        self._note_end(batch[-1] if batch else None)
        return batch

    def _fill(self, batch, count):
        """Take more events into batch, up to count in all: a flat-out batch from a helper if
        there is one, else a slice at a time here; stop early if the run is paused, skipped or
        stopped meanwhile. Return batch."""
        if not batch and self._leg is not None:
            kept = self._search_elsewhere(self.events + self._room(count), keep=True)
            if kept is not None:
                return kept
        while len(batch) < count and not self.done:
            time.sleep(0)  # let other clients' work in between slices, under gevent too
            with self._turn(), self._cond:
                if self._stopped or self._paused or self._skipping:
                    break
                batch += self._take(min(SKIP_SLICE, count - len(batch)))
        return batch

    def _note_end(self, last):
        """Mark the run done if the search or the budget has ended."""
        self._exhausted = last is None or self.search.is_last(last)
        self.done = self._exhausted or self.events == self.budget

    def _advance(self, count, outline=None):
        """Search up to count events without keeping them but in outline (the lock is held)."""
        if outline is None:
            self.events, taken = legs.advance(self.search, self._stream(), count, self.events)
        else:
            self.events, taken = legs.skim(self.search, self.events, self.last, count, outline)
            self._events = None  # skimmed: the events here go on from its path
        self.last = taken or self.last
        self._note_end(taken)

    def _search_unsent(self, until=None):
        """Search on without sending, toward `until` events (None: on and on, a skip) and the
        budget: a leg elsewhere if there is somewhere to search it, else a slice here in turns."""
        limit = min((n for n in (until, self.budget) if n is not None), default=None)
        if self._leg is not None and self._search_elsewhere(limit, skip=until is None) is not None:
            return
        outline = self._outline if until is None else None
        with self._turn(), self._cond:  # held for a slice (under 1 ms), so snapshots stay whole
            self._advance(SKIP_SLICE if limit is None else min(SKIP_SLICE, limit - self.events), outline)

    def _search_elsewhere(self, limit, skip=False, keep=False):
        """Have a leg searched elsewhere and take on the state it reached; return its events if
        kept (see legs.kept), else []; or None if it must be searched here (its helper was lost)."""
        with self._cond:
            state = legs.where(self.search, self.events, self.last)
        if skip or (keep and self._outline_batches):
            state["outline"] = True
        leg = self._leg(self.search, state, limit, keep=keep)
        leg.add_done_callback(lambda _: self._wake())

        def given_up():
            # A skip paused, a run played flat out paused or skipped, or any run stopped, stops
            # waiting for its leg at once, however many wait before it: a leg still waiting is
            # never searched.
            if skip:
                return self._stopped or not self._skipping
            return self._stopped or (keep and (self._paused or self._skipping))

        with self._cond:
            self._cond.wait_for(lambda: leg.done() or given_up())
            # Checked with the lock held until the state is taken on: a leg done after a pause
            # is dropped, so that nothing moves the run past where it was paused (a question
            # asked there must not see its answer played).
            if not leg.done() or given_up():
                leg.cancel()
                return []
            try:
                reached, events = leg.result() if keep else (leg.result(), [])
            except OSError:
                return None  # its helper was lost: the next leg goes to a new one
            self.last = legs.take_over(self.search, reached)
            self.events = reached["events"]
            if skip:
                self._outline.merge(reached["outline"])
            self._events = None  # searched elsewhere: the events here go on from its path
            self._note_end(self.last)
        batch = Compact(events)
        batch.outline = reached.get("outline") if keep else None
        return batch

    def _wake(self):
        """Wake the player's thread: a leg it waits for is done."""
        with self._cond:
            self._cond.notify_all()

    def _catch_up(self):
        """Search, unsent, the events the receiver already holds."""
        while self.events < self._resume_at and not (self._stopped or self.done):
            self._search_unsent(self._resume_at)
            time.sleep(0)  # let other clients' work in between slices, under gevent too

    def _skip(self):
        """Search without sending events until done, paused or stopped, reporting progress."""
        began = reported = self._clock()
        first = self.events
        with self._cond:
            self._outline = legs.outline_at(legs.where(self.search, self.events, self.last))
        waiting = threading.Event()  # set while a report is out and not yet acknowledged
        while True:
            self._search_unsent()
            with self._cond:
                if self.done or self._stopped:
                    return
                cancelled = not self._skipping
            now = self._clock()
            if cancelled or (now - reported >= SKIP_REPORT and not waiting.is_set()):
                reported = now
                waiting.set()
                self._report(
                    {
                        **self._snapshot(),
                        "skipping": not cancelled,
                        "elapsed": now - began,
                        "rate": (self.events - first) / max(now - began, 1e-9),
                        "outline": self._outline.take(),
                    },
                    waiting.clear,
                )
            if cancelled:
                self._outline = None
                return
            time.sleep(0)  # let other clients' work in between slices, under gevent too
