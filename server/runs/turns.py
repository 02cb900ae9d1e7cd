"""Turns at the worker's core for searches that run flat out: one slice at a time, shared
round robin by address, then by run.

A gevent worker serves every client from one thread. A search gives way after each slice of
its events (under a millisecond), but with many searches ready at once, each page's batch
waited behind a slice of every one of them: 200 skips held a class's stream back 400 ms. Taking
turns, only one search is ever ready to run, so a page waits for one slice at most; and an
address with many searches (a prankster's script) gets no more of the core than any other.
"""

import threading
import time
from collections import OrderedDict, deque
from contextlib import contextmanager

# Seconds of searching, a slice after another, before a turn gives way again: each time costs
# a lone fast run a turn of the worker's loop, and what waits on the loop waits this long at most.
GIVE_WAY_EVERY = 0.005


class Turns:
    """Grant turns, `slots` at a time (one by default): to the next waiting address in line, to its
    longest-waiting run. (The pool of helper processes grants its helpers so: see pool.py.)"""

    def __init__(self, give_way=lambda: None, every=GIVE_WAY_EVERY, clock=time.monotonic, slots=1):
        # Called as a turn begins, every so often: under gevent, gevent.idle, so that a search
        # waits until the worker has nothing else to do (no socket to read or write, no timer due).
        self._give_way, self._every, self._clock = give_way, every, clock
        self._gave_way = clock()
        self._lock = threading.Lock()
        self._free = slots  # turns that may be taken at once, less those taken
        self._waiting = OrderedDict()  # address -> the Events of its waiting runs, in line

    def waiting(self):
        """Return how many runs wait for a turn."""
        with self._lock:
            return sum(len(each) for each in self._waiting.values())

    def acquire(self, address):
        """Wait for a turn of address's."""
        with self._lock:
            granted = None if self._free else threading.Event()
            if granted is None:
                self._free -= 1
            else:
                self._waiting.setdefault(address, deque()).append(granted)
        if granted is not None:
            granted.wait()  # the turn is handed over still taken
        if self._clock() - self._gave_way >= self._every:
            self._give_way()
            self._gave_way = self._clock()

    def release(self):
        """End a turn: hand it to the next address in line, which then goes to the back."""
        with self._lock:
            if not self._waiting:
                self._free += 1
                return
            address, line = self._waiting.popitem(last=False)
            granted = line.popleft()
            if line:
                self._waiting[address] = line
        granted.set()

    @contextmanager
    def turn(self, address):
        """Hold a turn of address's for the body of a with statement."""
        self.acquire(address)
        try:
            yield
        finally:
            self.release()
