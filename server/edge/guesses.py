"""Limits on guessing class codes: failed joins slow their connection, then spend their browser's
own few, then drain their address."""

import ipaddress
import math
import threading
import time

from ..replies import Refusal
from .badges import given
from .limits import Buckets

FREE_FAILURES = 3  # a student may mistype a code a few times without waiting
MAX_DELAY = 60.0  # seconds, the longest a connection waits after a failure
# A school's 300 students behind one NAT share an address: they may mistype 100 codes at once,
# and get 10 more a minute. docs/protocol.md works out what that leaves a brute-force guesser.
BURST = 100
PER_MINUTE = 10.0
MAX_ADDRESSES = 4096  # address buckets kept before the full ones are forgotten
# A browser (by its badge) may type a few wrong codes of its own before its address's are spent
# for it, in the hours after its page gave it the badge: what a neighbour spends of the address's
# never stops a student typing the code. An address is given a badge a second at most, so these
# add at most 5 a second to what a guesser there has: docs/protocol.md works it out.
BROWSER_GUESSES = 5
BROWSER_WINDOW = 3 * 3600  # seconds after its badge was given
MAX_BROWSERS = 100_000  # browsers' counts kept; past that, newcomers draw on their address's


def address_key(address):
    """Return the key of the bucket an address draws on: itself, or its /64 network for IPv6."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return str(address)  # no address (a Unix socket): every such client shares one bucket
    if ip.version == 6 and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if ip.version == 6:
        # An IPv6 host is usually given a whole /64: each of its addresses must not be a new bucket.
        return str(ipaddress.IPv6Network((int(ip) >> 64 << 64, 64)))
    return str(ip)


def whole_seconds(wait):
    """Return a wait as the whole seconds a person reads, rounded up."""
    return max(1, math.ceil(wait - 1e-9))


def _seconds(wait):
    """Return a wait in words: "1 second", "5 seconds"."""
    n = whole_seconds(wait)
    return f"{n} second{'s' if n != 1 else ''}"


class Guesses:
    """The failed joins of each connection, browser and address, and when they may guess again.

    A connection's first FREE_FAILURES failures cost it nothing; after each later one it waits
    1, 2, 4 ... seconds, up to max_delay. A failure is then counted against its browser's own
    browser_guesses, while its badge is younger than window seconds, and once those are spent
    against its address: a bucket of burst failures that refills at per_minute a minute; while
    it holds less than one, no connection from there without guesses of its own may guess.
    """

    def __init__(
        self,
        burst=BURST,
        per_minute=PER_MINUTE,
        free=FREE_FAILURES,
        max_delay=MAX_DELAY,
        max_addresses=MAX_ADDRESSES,
        browser_guesses=BROWSER_GUESSES,
        window=BROWSER_WINDOW,
        max_browsers=MAX_BROWSERS,
        clock=time.monotonic,
        wall=time.time,
    ):
        if burst < 1 or per_minute <= 0:
            raise ValueError("JOIN_FAILURES_BURST must be at least 1 and JOIN_FAILURES_PER_MINUTE above 0")
        self.free, self.max_delay = free, max_delay
        self._connections = {}  # sid -> (failures, when the last one was)
        self._addresses = Buckets(per_minute / 60, burst, clock, keep=max_addresses)
        self.browser_guesses, self.window, self.max_browsers = browser_guesses, window, max_browsers
        self.wall = wall  # Unix time: a badge's id carries the second it was given
        self._browsers = {}  # badge -> wrong codes it has typed, kept while it is within its window
        self._lock = threading.Lock()

    def __len__(self):
        """Return how many connections have failed guesses kept: none once they have gone."""
        return len(self._connections)

    @property
    def clock(self):
        """The clock of both the connections' delays and the addresses' buckets."""
        return self._addresses.clock

    @clock.setter
    def clock(self, clock):
        self._addresses.clock = clock

    @property
    def burst(self):
        return self._addresses.burst

    @property
    def rate(self):
        """Failures an address may make a second, once its burst is spent."""
        return self._addresses.rate

    @property
    def addresses(self):
        """Return how many addresses have a bucket that is not known to be full."""
        return len(self._addresses)  # the Buckets' table

    @property
    def browsers(self):
        """Return how many browsers' own wrong codes are kept."""
        return len(self._browsers)

    def delay(self, failures):
        """Return the seconds a connection waits after its failures-th failure."""
        if failures <= self.free:
            return 0.0
        # The exponent is capped so that a very long-lived connection cannot overflow it.
        return min(self.max_delay, 2.0 ** min(failures - self.free - 1, 64))

    def _own(self, badge):
        """Return how many wrong codes a browser may still type on its own (the lock is held)."""
        since, now = given(badge) if badge is not None else None, self.wall()
        if since is None or now - since >= self.window:
            return 0
        if badge not in self._browsers and len(self._browsers) >= self.max_browsers:
            # Badges past their window count for nothing: forget them. If the table is still full
            # (a guesser with many addresses), a newcomer draws on its address as a script does.
            self._browsers = {b: n for b, n in self._browsers.items() if now - given(b) < self.window}
            if len(self._browsers) >= self.max_browsers:
                return 0
        return self.browser_guesses - self._browsers.get(badge, 0)

    def check(self, sid, address, badge=None):
        """Raise ValueError if sid, or its browser and its address, must wait before it guesses a
        code again."""
        now = self.clock()
        with self._lock:
            failures, last = self._connections.get(sid, (0, now))
            wait = last + self.delay(failures) - now
            if wait > 0:
                raise Refusal(
                    "class.wait",
                    f"too many wrong class codes: wait {_seconds(wait)} before trying again "
                    "(check the code with your instructor)",
                    seconds=whole_seconds(wait),
                )
            tokens = self._addresses.level(address_key(address))
            if tokens < 1 and self._own(badge) < 1:
                wait = (1 - tokens) / self.rate
                raise Refusal(
                    "class.wait_network",
                    f"too many wrong class codes from your network: wait {_seconds(wait)} "
                    "before trying again, or open the class's link or QR code",
                    seconds=whole_seconds(wait),
                )

    def failed(self, sid, address, badge=None):
        """Count a guess that named no class against sid, and against its browser's own or else
        its address's."""
        now = self.clock()
        with self._lock:
            failures, _ = self._connections.get(sid, (0, now))
            self._connections[sid] = (failures + 1, now)
            if self._own(badge) > 0:
                self._browsers[badge] = self._browsers.get(badge, 0) + 1
                return
        # Connections guessing at once may each pass check() and take the bucket below zero:
        # that only lengthens their address's wait.
        self._addresses.take(address_key(address))

    def forget(self, sid):
        """Drop what is kept about a connection that has gone (its address's bucket stays)."""
        with self._lock:
            self._connections.pop(sid, None)
