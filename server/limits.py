"""Limits on what one client may send: how big a message, and how many a second."""

import json
import threading
import time

from flask import current_app

MAX_MESSAGE_BYTES = 16 * 1024  # the largest request a page sends is well under 1 KB
RATE = 30.0  # requests a second, on average (a held arrow key repeats about 30 times a second)
BURST = 60  # requests at once, after a quiet spell


class Limits:
    """A token bucket per client, and a size check, for every request a handler takes."""

    def __init__(self, rate=RATE, burst=BURST, max_bytes=MAX_MESSAGE_BYTES, clock=time.monotonic):
        self.rate, self.burst, self.max_bytes = rate, burst, max_bytes
        self.clock = clock
        self._buckets = {}  # sid -> [tokens, when last filled]
        self._lock = threading.Lock()

    def __len__(self):
        return len(self._buckets)

    def check(self, sid, args):
        """Raise ValueError if sid sends too often, or sends too much at once."""
        now = self.clock()
        with self._lock:
            tokens, then = self._buckets.get(sid, (self.burst, now))
            tokens = min(self.burst, tokens + (now - then) * self.rate)
            if tokens < 1:
                self._buckets[sid] = [tokens, now]
                raise ValueError(f"too many requests: at most {self.rate:g} a second; wait a moment")
            self._buckets[sid] = [tokens - 1, now]
        size = len(json.dumps(args, default=repr))
        if size > self.max_bytes:
            raise ValueError(f"that request is too large ({size:,} bytes; the limit is {self.max_bytes:,})")

    def forget(self, sid):
        """Drop what is kept about a client that has gone."""
        with self._lock:
            self._buckets.pop(sid, None)


def limits(app=None):
    """Return the limits on clients' requests of an app (the current one by default)."""
    return (app or current_app).extensions["knights_tour_limits"]
