"""Seats: a student's own place on the server, handed out by an instructor, that no neighbour can
multiply.

Behind a school's NAT the server cannot tell a script's many browsers from a class's: a badge
is free, or costs a fraction of a second of CPU, so a script holding one connection on each of a
few hundred badges can fill its address's connections, and every newcomer is refused. A seat is
what a script cannot make for itself: an instructor who has the server's instructor key (kept in
the instance folder; `python -m server` prints it) prints a sheet of seat links, one for each
student, or sends them out through the course's site. A student opens theirs once; the browser
keeps the seat in a cookie for the term, and once its address is full its connections are let
in still, ALLOWANCE of them beyond the address's limit. Browsers given the instructor key share
a seat of their own, so that the instructor gets their class back too.

Everything here is signed with the instructor key and checked by its signature alone: a seat is
"<roster>~<number>.<signature>", where a roster is one sheet. A new key (delete the file and
restart) takes back every sheet and every instructor's browser at once.
"""

import base64
import hashlib
import hmac
import re
import secrets

from .badges import cookie

COOKIE = "knights_seat"
INSTRUCTOR_COOKIE = "knights_instructor"
KEY_FILE = "instructor-key"  # in the app's instance folder, made on first use (or INSTRUCTOR_KEY)
MAX_AGE = 200 * 24 * 3600  # seconds a browser keeps its seat, or its instructor's cookie: a term and more
MAX_ROSTER = 1000  # seats on one sheet
INSTRUCTOR = "instructor"  # the seat of every browser given the key
# Connections a seat may have beyond its address's limit: a page, a race's second board, a reload;
# the instructors' seat, a presenter's page and a laptop's, each with a race.
ALLOWANCE = {INSTRUCTOR: 6}
PER_SEAT = 3
ROSTER = re.compile(r"([A-Za-z0-9_-]{8})~([0-9]{1,4})")  # a roster's id, then its size or a seat's number


def new_key():
    """Return a new instructor key (bytes of text, to print and to type)."""
    return secrets.token_urlsafe(18).encode()


def allowance(seat):
    """Return how many connections a seat may have beyond its address's limit."""
    return ALLOWANCE.get(seat, PER_SEAT)


class Seats:
    """Issue and check the instructor's cookie, rosters and seats, with the instructor key."""

    def __init__(self, key):
        self._key = key

    def _sign(self, purpose, text):
        digest = hmac.new(self._key, f"{purpose}:{text}".encode(), hashlib.sha256).digest()
        return f"{text}.{base64.urlsafe_b64encode(digest[:18]).decode()}"

    def _text(self, purpose, signed):
        """Return what a signed value says, if its signature is right, or None."""
        if not (isinstance(signed, str) and signed.isascii() and len(signed) < 100):
            return None
        text = signed.rpartition(".")[0]
        return text if text and hmac.compare_digest(signed, self._sign(purpose, text)) else None

    def is_key(self, typed):
        """Tell whether typed (text) is the instructor key."""
        return isinstance(typed, str) and typed.isascii() and hmac.compare_digest(typed.encode(), self._key)

    def instructor_cookie(self):
        """Return the cookie of a browser given the key: made with it, so a new key takes it back."""
        return self._sign(INSTRUCTOR, "browser")

    def is_instructor(self, environ):
        """Tell whether a request comes from a browser given the instructor key."""
        return self._text(INSTRUCTOR, cookie(environ, INSTRUCTOR_COOKIE)) == "browser"

    def roster(self, size):
        """Return a new roster of size seats (a signed "<id>~<size>")."""
        return self._sign("roster", f"{secrets.token_urlsafe(6)}~{size}")

    def seats(self, roster):
        """Return (number, signed seat) of each of a roster's seats, in order, or None if it is no roster."""
        match = ROSTER.fullmatch(self._text("roster", roster) or "")
        if match is None or not 1 <= int(match[2]) <= MAX_ROSTER:
            return None
        numbers = range(1, int(match[2]) + 1)
        return [(number, self._sign("seat", f"{match[1]}~{number}")) for number in numbers]

    def seat(self, signed):
        """Return the seat a signed seat names ("<roster>~<number>"), or None if it is no seat."""
        text = self._text("seat", signed)
        return text if text is not None and ROSTER.fullmatch(text) else None

    def of(self, environ):
        """Return the student's seat a request's browser holds, or None."""
        return self.seat(cookie(environ, COOKIE))

    def held(self, environ):
        """Return the seat a connection takes: the instructors', or its student's, or None."""
        return INSTRUCTOR if self.is_instructor(environ) else self.of(environ)


def number(seat):
    """Return a seat's number on its sheet."""
    return int(seat.partition("~")[2])
