"""Pace the HTTP requests that are not Socket.IO's: the page, its files, the embed, the QR code.

Each costs the one worker that serves the class about a millisecond (gunicorn, Flask, a file or
a template), and a script loading the page flat out from a school's address held that worker
for as long as it liked. A request now goes through at once on its browser's own budget (its
badge: see badges.py), or else on its address's; past both, it waits its turn, the address's
requests being served first come, first served, at ADDRESS_RATE a second. A request that would
wait longer than MAX_WAIT, or find MAX_WAITING requests of every address waiting, is answered at
once that the network is busy, and to try again.

So one address costs the worker at most about ADDRESS_RATE requests a second once its burst is
spent, whatever it sends; a student's browser, with its badge, loads the page and its files
without waiting behind a neighbour's flood; and a browser new to the server waits behind the
address's queue for the page, at most MAX_WAIT, and for nothing else: the files the page names by
their content (assets.py) have a budget of their own, since a browser asks for each once and
keeps it (a page's reload asks for the page alone, not seventy-odd files).
"""

import threading
import time

from .limits import Buckets

ADDRESS_RATE = 100.0  # requests a second served to one address once its burst is spent
# A lecture hall's first loads at once: a page and its files (about 75 requests) for 300 browsers
# are on their badges but for the page itself.
ADDRESS_BURST = 2_000
# The page's files named by their content (assets.py) have a budget of their own: a browser asks
# for each once and keeps it, so a lecture hall's first loads need about 75 each, badge or not
# (an embed whose site keeps the badge's cookie from it has none).
FILE_RATE = 50.0
FILE_BURST = 30_000
MAX_WAIT = 10.0  # seconds a request may wait for its turn; the address's queue is full beyond
# Requests waiting at once, from every address: each holds one of the worker's connections, and
# a few addresses' full queues must not take them all.
MAX_WAITING = 2_000
# A browser's own: most of a load of the page and its files (about 75 requests: its first, or a
# cache cleared; the last few are taken from the address's files), filled again in ten minutes;
# a reload asks for the page alone. A script with many badges (an address is given 600 at once)
# gets this from each but once, then one request every ten seconds from each.
BROWSER_BURST = 64
BROWSER_RATE = BROWSER_BURST / 600
RETRY_AFTER = 5  # seconds a refused browser is told to wait before it tries again
BUSY = "too many requests from your network at once: try again in a few seconds"


class Pacing:
    """When each request that is not Socket.IO's is served: at once, after a wait, or not now."""

    def __init__(
        self,
        badges=None,
        addresses=None,
        browsers=None,
        files=None,
        named=None,
        cost=None,
        max_wait=MAX_WAIT,
        max_waiting=MAX_WAITING,
    ):
        self.badges, self.max_wait, self.max_waiting = badges, max_wait, max_waiting
        self.named = named  # environ -> whether it asks for one of the page's files by its content
        self.cost = cost  # environ -> how many turns it takes (one, but for what is costly to make)
        self.waiting = 0  # requests waiting for their turn now
        self._lock = threading.Lock()
        # Buckets has a length: an empty table is falsy, so compare with None.
        self.addresses = Buckets(ADDRESS_RATE, ADDRESS_BURST) if addresses is None else addresses
        self.browsers = Buckets(BROWSER_RATE, BROWSER_BURST, keep=50_000) if browsers is None else browsers
        self.files = Buckets(FILE_RATE, FILE_BURST) if files is None else files

    def wait(self, environ, address):
        """Return the seconds a request must wait for its turn (0: none), or None if its address's
        queue is full, or every address's together; take its place."""
        tokens = self._turns(environ)
        if self._on_badge(environ, tokens, take=True):
            return 0.0
        return self._lane(environ).reserve(address, self._longest(), tokens)

    def _turns(self, environ):
        """Return how many turns a request takes (one, but for what is costly to make)."""
        return 1 if self.cost is None else self.cost(environ)

    def _lane(self, environ):
        """Return the address's budget a request is served on past its badge's."""
        return self.files if self.named is not None and self.named(environ) else self.addresses

    def _longest(self):
        """Return the longest wait a request may be given now: none once every place is taken."""
        return self.max_wait if self.waiting < self.max_waiting else 0.0

    def charge(self, address):
        """Take a place in an address's queue for a request answered without the app (one it
        cannot read, or too large), if there is one: such a flood is paced as any other."""
        self.addresses.reserve(address, self._longest())

    def sleep(self, seconds):
        """Wait a request's turn, counted among those waiting."""
        with self._lock:
            self.waiting += 1
        try:
            time.sleep(seconds)  # a greenlet's sleep in the worker: the queue costs no CPU
        finally:
            with self._lock:
                self.waiting -= 1

    def open_to(self, address):
        """Tell whether an address's queues have room for one more request each (taking none)."""
        return all(self._room(lane, address) for lane in (self.addresses, self.files))

    def admits(self, environ, address):
        """Tell whether a request would be served now or after a wait (taking nothing)."""
        tokens = self._turns(environ)
        return self._on_badge(environ, tokens, take=False) or self._room(self._lane(environ), address, tokens)

    def _room(self, lane, address, tokens=1):
        """Tell whether a reserve of tokens on lane would be given a place (taking none)."""
        return lane.waits(address, tokens) <= self._longest()

    def _on_badge(self, environ, tokens, take):
        badge = None if self.badges is None else self.badges.of(environ)
        if badge is None:
            return False
        if take:
            return self.browsers.take(badge, sink=False, tokens=tokens) >= 0
        return self.browsers.level(badge) - tokens >= 0
