"""Turns at the worker's core for searches that run flat out: one slice at a time, shared by
cost (the seconds each share has had) between the groups of shares and then between the shares
of a group (see shares.py: a class's own run, browsers known, browsers new), then by run.

A gevent worker serves every client from one thread. A search gives way after each slice of
its events (under a millisecond), but with many searches ready at once, each page's batch
waited behind a slice of every one of them: 200 skips held a class's stream back 400 ms. Taking
turns, only one search is ever ready to run, so a page waits for one slice at most; and a
browser with many searches (a prankster's script) gets no more of the core than any other.
The helpers (pool.py) are shared in the same lines, where a strip's board costs as much as
twenty skip legs: what a share has had is counted in seconds, not in turns.
"""

import threading
import time
from collections import deque
from contextlib import contextmanager

# Seconds of searching, a slice after another, before a turn gives way again: each time costs
# a lone fast run a turn of the worker's loop, and what waits on the loop waits this long at most.
GIVE_WAY_EVERY = 0.005
# Shares with nothing waiting whose seconds are kept, at most: beyond, those that have had the
# least are forgotten (they would come back level with the others anyway, as a newcomer does).
KEPT = 4096


def together(share):
    """Put every share in one group (see Lines)."""
    return None, 1


class Lines:
    """What waits, in one line per share: served the oldest of the share that has had the least
    seconds in the group that has had the least, each group's seconds divided by its weight.
    group(share) gives (group, weight). Its owner locks it, and tells it what each took (charge).

    A share that comes to wait again is put no further behind the last one of its group served
    (as it was when it was served) than `grace` seconds: a run served that comes back a little
    late (its next leg asked for once its page was told of the last) keeps its place, but no
    share saves up more of a claim by going quiet, and none that took much sheds it so. A group
    that comes to wait again is put level with the last group served: none saves up a claim.
    """

    def __init__(self, group=together, grace=0.0):
        self._group, self._grace = group, grace
        self._lines = {}  # share -> what it has waiting, oldest first
        self._of = {}  # share -> its (group, weight), while it has a line
        self._had = {}  # share -> seconds it has had, against the others of its group
        self._group_had = {}  # group -> seconds it has had / its weight
        self._level = {}  # group -> seconds had by the share it served last
        self._groups_level = 0.0  # seconds had (by weight) by the group served last
        # Counted as they come and go: a turn released asks, and lines kept empty are many.
        self._waiting = 0

    def __len__(self):
        return self._waiting

    def join(self, share, waiting):
        """Put waiting at the end of share's line."""
        line = self._lines.get(share)
        if line is None:
            group, weight = self._group(share)
            if not any(self._of[other][0] == group for other in self._lines):
                self._group_had[group] = max(self._group_had.get(group, 0.0), self._groups_level)
            self._had[share] = max(self._had.get(share, 0.0), self._level.get(group, 0.0) - self._grace)
            self._of[share] = (group, weight)
            line = self._lines[share] = deque()
        line.append(waiting)
        self._waiting += 1

    def waits(self, share):
        """Tell whether share has something waiting."""
        return share in self._lines

    def favours(self, share):
        """Tell whether share would be served before those waiting, if it asked now: its group
        has had no more than theirs, and it no more than the others of its group."""
        group = (self._of.get(share) or self._group(share))[0]
        groups = [self._group_had[self._of[other][0]] for other in self._lines]
        if groups and self._group_had.get(group, 0.0) > min(groups):
            return False
        mates = [self._had[other] for other in self._lines if self._of[other][0] == group]
        return not mates or self._had.get(share, 0.0) <= min(mates)

    def next(self):
        """Take the next to be served (some line must have something): return (its share, it)."""
        # The group, then the share, that has had the least; of equals, the line made first.
        share = min(self._lines, key=lambda s: (self._group_had[self._of[s][0]], self._had[s]))
        group = self._of[share][0]
        line = self._lines[share]
        served = line.popleft()
        self._waiting -= 1
        del self._lines[share]  # to the back of equals, if it has more waiting
        if line:
            self._lines[share] = line
        self._level[group], self._groups_level = self._had[share], self._group_had[group]
        return share, served

    def charge(self, share, seconds):
        """Count seconds as had by share (served by next)."""
        group, weight = self._of.get(share) or self._group(share)
        self._had[share] = self._had.get(share, 0.0) + seconds
        self._group_had[group] = self._group_had.get(group, 0.0) + seconds / weight
        if len(self._had) > KEPT:
            self._forget()

    def _forget(self):
        """Forget the shares with nothing waiting that are least behind, down to half of KEPT."""
        idle = sorted((s for s in self._had if s not in self._lines), key=self._had.__getitem__)
        for share in idle[: len(self._had) - KEPT // 2]:
            del self._had[share]
            self._of.pop(share, None)


class Turns:
    """Grant one turn at a time: to the next waiting share in line (see Lines), to its
    longest-waiting run; each turn is charged the seconds it was held."""

    def __init__(self, give_way=lambda: None, every=GIVE_WAY_EVERY, clock=time.monotonic, group=together):
        # Called as a turn begins, every so often: under gevent, gevent.idle, so that a search
        # waits until the worker has nothing else to do (no socket to read or write, no timer due).
        self._give_way, self._every, self._clock = give_way, every, clock
        self._gave_way = clock()
        self._lock = threading.Lock()
        self._taken = False
        self._held = None  # (share, when) of the turn taken
        # The Events of the runs waiting for a turn; a run back within a few turns keeps its place.
        self._waiting = Lines(group, 10 * every)

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
        self._held = (share, self._clock())

    def release(self):
        """End a turn, charged to its share: hand it to the next in line."""
        with self._lock:
            share, since = self._held
            self._waiting.charge(share, self._clock() - since)
            if not self._waiting:
                self._taken = False
                return
            _, granted = self._waiting.next()
        granted.set()

    @contextmanager
    def turn(self, share):
        """Hold a turn of share's for the body of a with statement."""
        self.acquire(share)
        try:
            yield
        finally:
            self.release()
