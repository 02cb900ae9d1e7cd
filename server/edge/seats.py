"""Seats: a student's own place on the server, handed out by an instructor, that no neighbour can
multiply.

Behind a school's NAT the server cannot tell a script's many browsers from a class's: a badge
is free, or costs a fraction of a second of CPU, so a script holding one connection on each of a
few hundred badges can fill its address's connections, and every newcomer is refused. A seat is
what a script cannot make for itself: an instructor who has the server's instructor key (printed
by `python -m server`) prints a sheet of seat links, one for each student, or sends them out
through the course's site. A student opens theirs once; the browser keeps the seat in a cookie
for the term, and its connections are let in whether or not its address is full: at most
PER_SEAT of them at once, a newer one closing its seat's oldest. A browser given the instructor
key has a seat of its own, so that the instructor gets their class back, too.

Seats and keys are signed with the server's secret and checked by their signature alone: a seat
is "<roster>~<number>.<signature>", where a roster is one instructor's sheet.
"""

import base64
import hashlib
import hmac
import re
import secrets

from .badges import ENVIRON_KEY, cookie

COOKIE = "knights_seat"
INSTRUCTOR_COOKIE = "knights_instructor"
MAX_AGE = 200 * 24 * 3600  # seconds a browser keeps its seat, or its instructor key: a term and more
MAX_ROSTER = 1000  # seats on one sheet
PER_SEAT = 3  # connections a seat keeps open at once: a page, a race's second board, a reload
ROSTER = re.compile(r"([A-Za-z0-9_-]{8})~(\d{1,4})")  # a roster's id, then its size or a seat's number


class Seats:
    """Issue and check instructor keys, rosters and seats."""

    def __init__(self, secret):
        self._secret = secret

    def _sign(self, purpose, text):
        digest = hmac.new(self._secret, f"{purpose}:{text}".encode(), hashlib.sha256).digest()
        return f"{text}.{base64.urlsafe_b64encode(digest[:18]).decode()}"

    def _text(self, purpose, signed):
        """Return what a signed value says, if its signature is right, or None."""
        if not (isinstance(signed, str) and signed.isascii() and len(signed) < 100):
            return None
        text = signed.rpartition(".")[0]
        return text if text and hmac.compare_digest(signed, self._sign(purpose, text)) else None

    def instructor_key(self):
        """Return the server's instructor key: whoever has it may hand out seats."""
        return self._sign("instructor", "key").partition(".")[2]

    def is_instructor(self, environ):
        """Tell whether a request comes from a browser that was given the instructor key."""
        return hmac.compare_digest(cookie(environ, INSTRUCTOR_COOKIE), self.instructor_key())

    def roster(self, size):
        """Return a new roster of size seats (a signed "<id>~<size>")."""
        return self._sign("roster", f"{secrets.token_urlsafe(6)}~{size}")

    def seats(self, roster):
        """Return the seats of a roster, in order, or None if it is no roster."""
        match = ROSTER.fullmatch(self._text("roster", roster) or "")
        if match is None or not 1 <= int(match[2]) <= MAX_ROSTER:
            return None
        return [self._sign("seat", f"{match[1]}~{number}") for number in range(1, int(match[2]) + 1)]

    def seat(self, signed):
        """Return the seat a signed seat names ("<roster>~<number>"), or None if it is no seat."""
        text = self._text("seat", signed)
        return text if text is not None and ROSTER.fullmatch(text) else None

    def of(self, environ):
        """Return the seat a request's browser holds, or None."""
        return self.seat(cookie(environ, COOKIE))

    def held(self, environ):
        """Return the seat a connection takes: its student's, or an instructor's browser's own (by
        its badge, which the guard has read), or None."""
        seat = self.of(environ)
        if seat is None and self.is_instructor(environ):
            seat = f"instructor {environ.get(ENVIRON_KEY)}"
        return seat


def number(seat):
    """Return a seat's number on its sheet."""
    return int(seat.partition("~")[2])
