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
while after it was given (a few wrong class codes: guesses.py) is kept only that long; a
page loaded with a badge older than RENEW is given a new one.

A page that finds its address's badges all given (a script took them) earns one instead, with a
proof of work: a SHA-256 with PROOF_BITS leading zero bits, a fraction of a second in a page. So
a neighbour can no longer leave a newcomer without a badge; it can only pay as much again for
each badge it takes. An earned badge has handshakes and page loads of its own, as any badge, but
no wrong class codes of its own (its id says it was earned): what a guesser's CPU buys must not
loosen the guessing bound of docs/protocol.md. A proof names the minute it was made in and a
salt of the page's choosing, and each salt earns one badge.
"""

import hashlib
import hmac
import itertools
import re
import secrets
import threading
import time

from werkzeug.http import parse_cookie

from ..replies import Refusal
from .limits import Buckets

COOKIE = "knights_badge"
MAX_AGE = 30 * 24 * 3600  # seconds a browser keeps its badge
BADGE_BURST = 6  # handshakes a badge may make at once: reloads, a blip, a race's second board
BADGE_RATE = 1 / 20  # and one every 20 s after
MINT_BURST = 600  # badges given to one address at once: twice a lecture hall of browsers
MINT_RATE = 1.0  # and one a second after
RENEW = 3600  # seconds after which a page's load gives its browser a new badge
KEEP = 50_000  # badges whose budgets are kept before the full ones are forgotten
PROOF_BITS = 17  # leading zero bits of an earned badge's proof: 131,072 hashes on average
PROOF_TAG = "knights-badge"  # what a proof's hash begins with, so it proves nothing elsewhere
PROOF = re.compile(r"(\d{1,12})\.([A-Za-z0-9_-]{8,32})\.([A-Za-z0-9_-]{1,16})")  # minute.salt.nonce
EARNED = "e"  # the last letter of an earned badge's id, which no given badge has
MAX_SPENT = 200_000  # salts kept as spent for the two minutes a proof is good; past that, none earn
# Where the guard leaves the id of the valid badge a connection carries (see `browser`).
ENVIRON_KEY = "knights_tour.badge"


def browser(environ):
    """Return who a connection is, as far as the server can tell: its address, and its badge if it
    carries one. Behind one NAT, it tells a hall's browsers apart (a script that sends no badge is
    one browser, however many connections it opens)."""
    badge = environ.get(ENVIRON_KEY)
    address = environ.get("REMOTE_ADDR", "")
    return address if badge is None else f"{address} {badge}"


def cookie(environ, name):
    """Return the value of a request's cookie, or "" (for none, or a header of bytes that are no text)."""
    header = environ.get("HTTP_COOKIE", "")
    if name not in header:
        return ""
    try:
        return parse_cookie(header).get(name, "")
    except UnicodeDecodeError:
        return ""


def given(badge):
    """Return the second (Unix time) a badge's id was given, or None for an id without one (an
    earned badge's, or one of the form before ids began with it)."""
    try:
        return int(badge[:8], 16) if len(badge) == 28 else None
    except ValueError:
        return None


class Badges:
    """Issue badges, and let a handshake with one in on its own budget."""

    def __init__(self, secret, wall=time.time, mint_burst=MINT_BURST, proof_bits=PROOF_BITS):
        self._secret, self.wall, self.proof_bits = secret, wall, proof_bits
        self.handshakes = Buckets(BADGE_RATE, BADGE_BURST, keep=KEEP)
        self.minted = Buckets(MINT_RATE, mint_burst)
        self._spent = {}  # salt of each proof that earned a badge -> its minute
        self._swept = 0  # the minute _spent was last rid of salts too old to be offered again
        self._lock = threading.Lock()

    def _sign(self, nonce):
        digest = hmac.new(self._secret, f"badge:{nonce}".encode(), hashlib.sha256).hexdigest()[:32]
        return f"{nonce}.{digest}"

    def of(self, environ):
        """Return the id of the valid badge a request carries, or None."""
        value = cookie(environ, COOKIE)
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
        return self._new(now)

    def _new(self, now, kind=""):
        """Return a new badge's cookie value: an id of the second now, random, then kind."""
        return self._sign(f"{int(now):08x}{secrets.token_hex(10)}{kind}")

    def asked(self):
        """Return what a page is asked to prove to earn a badge: its bits, and the minute now."""
        return {"bits": self.proof_bits, "minute": int(self.wall() // 60)}

    def earn(self, proof):
        """Return a new earned badge's cookie value for a proof of work ("minute.salt.nonce"), or
        raise Refusal saying what is wrong with it."""
        match = PROOF.fullmatch(proof) if isinstance(proof, str) else None
        if match is None:
            raise Refusal(
                "badge.bad_proof", "a proof is minute.salt.nonce: digits, then 8-32 and 1-16 letters"
            )
        wall = self.wall()
        now = int(wall // 60)
        minute, salt = int(match[1]), match[2]
        if minute not in (now, now - 1):
            raise Refusal("badge.stale_proof", "the proof is not of this minute or the last: make a new one")
        if not proves(proof, self.proof_bits):
            raise Refusal(
                "badge.weak_proof",
                f"the proof's SHA-256 does not begin with {self.proof_bits} zero bits",
                bits=self.proof_bits,
            )
        with self._lock:
            if self._swept != now:
                # A minute has gone by: salts too old to be offered again are forgotten.
                self._spent = {s: m for s, m in self._spent.items() if m >= now - 1}
                self._swept = now
            if salt in self._spent:
                raise Refusal("badge.spent_proof", "this proof has earned its badge already: make a new one")
            if len(self._spent) >= MAX_SPENT:
                raise Refusal("badge.busy", "too many badges are being earned: try again in a minute")
            self._spent[salt] = minute
        return self._new(wall, EARNED)

    def has_left(self, environ):
        """Tell whether a request carries a badge with handshakes of its own left (spending none)."""
        badge = self.of(environ)
        return badge is not None and self.handshakes.level(badge) >= 1

    def admits(self, environ):
        """Tell whether a handshake carries a badge with handshakes of its own left (spending one);
        note the badge in environ for `browser`."""
        badge = environ[ENVIRON_KEY] = self.of(environ)
        return badge is not None and self.handshakes.take(badge, sink=False) >= 0


def zero_led(digest, bits):
    """Tell whether a digest (bytes) begins with bits zero bits."""
    return int.from_bytes(digest[:8], "big") >> (64 - bits) == 0


def proves(proof, bits):
    """Tell whether a proof's SHA-256 (after PROOF_TAG) begins with bits zero bits."""
    return zero_led(hashlib.sha256(f"{PROOF_TAG}:{proof}".encode()).digest(), bits)


def find_proof(asked, salt):
    """Return a proof for what a page is asked (`Badges.asked`) with salt, found as a page finds
    one (static/js/badge.js): what a client other than the page, a test or a benchmark, runs."""
    bits, minute = asked["bits"], asked["minute"]
    head = hashlib.sha256(f"{PROOF_TAG}:{minute}.{salt}.".encode())
    for n in itertools.count():
        nonce = f"{n:x}"
        digest = head.copy()
        digest.update(nonce.encode())
        if zero_led(digest.digest(), bits):
            return f"{minute}.{salt}.{nonce}"
