"""Browser badges: a signed cookie with which a page connects on a handshake budget of its own.

Behind a school's NAT every page shares one address, and so the address's budget of new
connections: a script opening connections flat out spends it for everyone. A page is given a
badge (a random id, signed) in a cookie when it loads; its WebSocket handshakes carry the cookie,
and a badge with handshakes left is let in whatever its address has spent, so that a student
coming back after a blip, or the instructor reloading, gets in while a neighbour floods. A badge
that has spent its own falls back on its address's budget, as a page without one does.

A script can collect badges too, by loading the page: an address is given MINT_BURST at once and
MINT_RATE a second after, and each badge only BADGE_BURST handshakes at once and one every
1 / BADGE_RATE seconds, so that what badges add to an address's handshakes stays near its own
budget. The id begins with the second it was given (hex), so that what a badge allows for a
while after it was given (a few wrong class codes: classes/guesses.py) is kept only that long; a
page loaded with a badge older than RENEW is given a new one.
"""

import hashlib
import hmac
import secrets
import time

from werkzeug.http import parse_cookie

from .limits import Buckets

COOKIE = "knights_badge"
MAX_AGE = 30 * 24 * 3600  # seconds a browser keeps its badge
BADGE_BURST = 6  # handshakes a badge may make at once: reloads, a blip, a race's second board
BADGE_RATE = 1 / 20  # and one every 20 s after
MINT_BURST = 600  # badges given to one address at once: twice a lecture hall of browsers
MINT_RATE = 1.0  # and one a second after
RENEW = 3600  # seconds after which a page's load gives its browser a new badge
KEEP = 50_000  # badges whose budgets are kept before the full ones are forgotten
# Where the guard leaves the id of the valid badge a connection carries (see `browser`).
ENVIRON_KEY = "knights_tour.badge"


def browser(environ):
    """Return who a connection is, as far as the server can tell: its address, and its badge if it
    carries one. Behind one NAT, it tells a hall's browsers apart (a script that sends no badge is
    one browser, however many connections it opens)."""
    badge = environ.get(ENVIRON_KEY)
    address = environ.get("REMOTE_ADDR", "")
    return address if badge is None else f"{address} {badge}"


def given(badge):
    """Return the second (Unix time) a badge's id was given, or None for an id without one."""
    try:
        return int(badge[:8], 16) if len(badge) == 28 else None
    except ValueError:
        return None


class Badges:
    """Issue badges, and let a handshake with one in on its own budget."""

    def __init__(self, secret, wall=time.time, mint_burst=MINT_BURST):
        self._secret, self.wall = secret, wall
        self.handshakes = Buckets(BADGE_RATE, BADGE_BURST, keep=KEEP)
        self.minted = Buckets(MINT_RATE, mint_burst)

    def _sign(self, nonce):
        digest = hmac.new(self._secret, f"badge:{nonce}".encode(), hashlib.sha256).hexdigest()[:32]
        return f"{nonce}.{digest}"

    def of(self, environ):
        """Return the id of the valid badge a request carries, or None."""
        header = environ.get("HTTP_COOKIE", "")
        if COOKIE not in header:
            return None
        try:
            value = parse_cookie(header).get(COOKIE, "")
        except UnicodeDecodeError:  # a header of bytes that are no text: no badge in it
            return None
        nonce = value.partition(".")[0]
        if not (value.isascii() and len(value) < 100 and nonce):
            return None
        return nonce if hmac.compare_digest(value, self._sign(nonce)) else None

    def issue(self, environ, address):
        """Return a new badge's cookie value for a page that has none, or one given more than RENEW
        seconds ago; or None (it has a recent one, or its address has been given all it may be now)."""
        badge, now = self.of(environ), self.wall()
        if badge is not None and now - (given(badge) or 0) < RENEW:
            return None
        if self.minted.take(address, sink=False) < 0:
            return None
        return self._sign(f"{int(now):08x}{secrets.token_hex(10)}")

    def has_left(self, environ):
        """Tell whether a request carries a badge with handshakes of its own left (spending none)."""
        badge = self.of(environ)
        return badge is not None and self.handshakes.level(badge) >= 1

    def admits(self, environ):
        """Tell whether a handshake carries a badge with handshakes of its own left (spending one);
        note the badge in environ for `browser`."""
        badge = environ[ENVIRON_KEY] = self.of(environ)
        return badge is not None and self.handshakes.take(badge, sink=False) >= 0
