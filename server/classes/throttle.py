"""Sends paced for a room: the latest news at most so often, the last poke never lost."""

import logging
import math
import threading
import time

log = logging.getLogger(__name__)


class Throttle:
    """Call send() soon after each poke, at most once every `every` seconds, the last poke never lost.

    The calls come from a task of start_task's, which sleep() paces and which ends once a
    quiet spell of `every` seconds has passed.
    """

    def __init__(self, send, every, start_task, sleep, clock=time.monotonic):
        self._send, self._every = send, every
        self._start_task, self._sleep, self._clock = start_task, sleep, clock
        self._lock = threading.Lock()
        self._due = False  # poked since the last send
        self._running = False
        self._sent_at = -math.inf

    def poke(self):
        """Ask for a send: now if the last was long enough ago, else as soon as it may."""
        with self._lock:
            self._due = True
            if self._running:
                return
            self._running = True
        self._start_task(self._run)

    def _run(self):
        while True:
            with self._lock:
                wait = self._sent_at + self._every - self._clock()
                if wait <= 0:
                    if not self._due:
                        self._running = False
                        return
                    self._due, self._sent_at = False, self._clock()
            if wait > 0:
                self._sleep(wait)
                continue
            try:
                self._send()
            except Exception:  # this send only: the next poke must still be served
                log.exception("cannot send the news it paces")
