"""Token buckets: how much a client, or an address, may ask for, and how fast."""

import threading
import time

MAX_MESSAGE_BYTES = 16 * 1024  # the largest request a page sends is well under 1 KB
RATE = 30.0  # requests a second, on average (a held arrow key repeats about 30 times a second)
BURST = 60  # requests at once, after a quiet spell
# Frames a second a WebSocket peer may send that are not whole Socket.IO messages (those count
# as requests): pings, pongs, Engine.IO packets, fragments. A page sends a pong every 25 s and
# nothing else of the kind; a script sending pings flat out on connection after connection
# costs the worker this many frames' parsing each time before it is closed.
FRAME_RATE = 20.0
FRAME_BURST = 50
KEEP = 4096  # keys kept before the full buckets among them are forgotten


class Buckets:
    """A token bucket per key: rate tokens a second on average, burst at once."""

    def __init__(self, rate=RATE, burst=BURST, clock=time.monotonic, keep=KEEP):
        self.rate, self.burst, self.clock, self.keep = rate, burst, clock, keep
        self._buckets = {}  # key -> [tokens, when last filled]
        self._lock = threading.Lock()

    def __len__(self):
        return len(self._buckets)

    def _level(self, bucket, now):
        """Return the tokens a bucket holds now (a missing bucket is full)."""
        if bucket is None:
            return self.burst
        tokens, then = bucket
        return min(self.burst, tokens + (now - then) * self.rate)

    def level(self, key):
        """Return the tokens key holds now, without taking one."""
        with self._lock:
            return self._level(self._buckets.get(key), self.clock())

    def take(self, key, sink=True, tokens=1):
        """Take tokens (one by default) for key; return the tokens left, below 0 when it asks too
        often.

        With sink, refused takes still cost a token, so a client that keeps asking sinks further
        below 0. Without, a refused take costs nothing: a key many clients share (a school's
        address) is open again as soon as one of them stops asking too often.
        """
        now = self.clock()
        with self._lock:
            level = self._level(self._buckets.get(key), now)
            left = level - tokens
            kept = left if sink or left >= 0 else level
            self._keep(key, max(kept, -2 * self.burst), now)
            return left

    def reserve(self, key, within, tokens=1):
        """Take tokens (one by default) for key, owing them if too few are left; return the
        seconds until they are paid for (0 when there were enough), or None, taking nothing, if
        that would be more than within.

        Owed tokens are paid in the order they were reserved: a key's waiting clients are served
        first come, first served, at rate a second.
        """
        now = self.clock()
        with self._lock:
            left = self._level(self._buckets.get(key), now) - tokens
            wait = self._paid_in(left)
            if wait > within:
                return None
            self._keep(key, left, now)
            return wait

    def waits(self, key, tokens=1):
        """Return the seconds a reserve of tokens for key would wait now, taking none."""
        with self._lock:
            return self._paid_in(self._level(self._buckets.get(key), self.clock()) - tokens)

    def _paid_in(self, left):
        """Return the seconds until a bucket left with `left` tokens holds none owed."""
        return max(0.0, -left / self.rate)

    def _keep(self, key, tokens, now):
        """Store key's tokens as of now (the lock is held)."""
        if key not in self._buckets and len(self._buckets) >= self.keep:
            self._make_room(now)
        self._buckets[key] = (tokens, now)

    def _make_room(self, now):
        """Forget the buckets that are full again; if too few are, keep the most drained half."""
        levels = {key: self._level(bucket, now) for key, bucket in self._buckets.items()}
        # A full bucket is what a forgotten one becomes, so forgetting it changes no answer. Only
        # keys beyond the table's size (a guesser with many addresses) lose the least drained.
        drained = sorted((key for key, level in levels.items() if level < self.burst), key=levels.get)
        self._buckets = {key: self._buckets[key] for key in drained[: self.keep // 2]}

    def forget(self, key):
        """Drop what is kept about a key (a client that has gone)."""
        with self._lock:
            self._buckets.pop(key, None)
