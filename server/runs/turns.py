"""Turns at the worker's core for searches that run flat out: one slice at a time, shared
round robin by share (a browser, or a class: see audience.py), then by run.

A gevent worker serves every client from one thread. A search gives way after each slice of
its events (under a millisecond), but with many searches ready at once, each page's batch
waited behind a slice of every one of them: 200 skips held a class's stream back 400 ms. Taking
turns, only one search is ever ready to run, so a page waits for one slice at most; and a
browser with many searches (a prankster's script) gets no more of the core than any other.
"""

import threading
import time
from collections import OrderedDict, deque
from contextlib import contextmanager

# Seconds of searching, a slice after another, before a turn gives way again: each time costs
# a lone fast run a turn of the worker's loop, and what waits on the loop waits this long at most.
GIVE_WAY_EVERY = 0.005


class Lines:
    """What waits, in one line per share, served round robin: the oldest of the next share in
    line, which then goes to the back. Its owner locks it."""

    def __init__(self):
        self._lines = OrderedDict()  # share -> what it has waiting, oldest first
        # Counted as they come and go: a turn released asks, and lines kept empty are many.
        self._waiting = 0

    def __len__(self):
        return self._waiting

    def join(self, share, waiting):
        """Put waiting at the end of share's line."""
        self._lines.setdefault(share, deque()).append(waiting)
        self._waiting += 1

    def next(self):
        """Take the next that is served out of its line (the lines must not all be empty)."""
        share, line = self._lines.popitem(last=False)
        while not line:  # a share that had nothing waiting for a whole round: its place is gone
            share, line = self._lines.popitem(last=False)
        served = line.popleft()
        self._waiting -= 1
        # To the back, even with nothing left waiting: a run served comes straight back (its next
        # slice, its next leg), and keeps its share's place in the round.
        self._lines[share] = line
        return served


class Turns:
    """Grant one turn at a time: to the next waiting share in line, to its longest-waiting run."""

    def __init__(self, give_way=lambda: None, every=GIVE_WAY_EVERY, clock=time.monotonic):
        # Called as a turn begins, every so often: under gevent, gevent.idle, so that a search
        # waits until the worker has nothing else to do (no socket to read or write, no timer due).
        self._give_way, self._every, self._clock = give_way, every, clock
        self._gave_way = clock()
        self._lock = threading.Lock()
        self._taken = False
        self._waiting = Lines()  # the Events of the runs waiting for a turn

    def waiting(self):
        """Return how many runs wait for a turn."""
        with self._lock:
            return len(self._waiting)

    def acquire(self, share):
        """Wait for a turn of share's."""
        with self._lock:
            granted = None if not self._taken else threading.Event()
            self._taken = True
            if granted is not None:
                self._waiting.join(share, granted)
        if granted is not None:
            granted.wait()  # the turn is handed over still taken
        if self._clock() - self._gave_way >= self._every:
            self._give_way()
            self._gave_way = self._clock()

    def release(self):
        """End a turn: hand it to the next share in line, which then goes to the back."""
        with self._lock:
            if not self._waiting:
                self._taken = False
                return
            granted = self._waiting.next()
        granted.set()

    @contextmanager
    def turn(self, share):
        """Hold a turn of share's for the body of a with statement."""
        self.acquire(share)
        try:
            yield
        finally:
            self.release()
