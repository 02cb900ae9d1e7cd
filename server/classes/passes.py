"""Class passes: an instructor's token, a follower's ticket and a student's voter pass, signed
with the server's secret.

A pass is checked by its signature alone, so it outlives the process that issued it: after a
restart, the instructor's page reopens its class with its token, and the students' pages wait
for it with their tickets, with nothing kept on the server in between.
"""

import base64
import hashlib
import hmac
import secrets
import time

SEATED = "seat-"  # how a seat's voter id begins: no time in it, so it is issued at 0, never late


class Passes:
    """Issue and check the passes of classes: "<nonce>.<signature of purpose, code and nonce>".

    The nonce is the class's own: a later class given the same code has another, so the passes
    of an ended class open nothing of the next one. A voter's pass carries the student's own id
    in its place: bound to the code alone, it can be checked by every process sharing the secret,
    which know another process's class by its code. The id begins with the millisecond the pass
    was issued, in hex, so that any process can tell a voter who joined after a question was asked.
    """

    def __init__(self, secret):
        self._secret = secret

    @staticmethod
    def nonce():
        """Return a new class's nonce."""
        return secrets.token_urlsafe(6)

    def _sign(self, purpose, code, nonce):
        digest = hmac.new(self._secret, f"{purpose}:{code}:{nonce}".encode(), hashlib.sha256).digest()
        return f"{nonce}.{base64.urlsafe_b64encode(digest[:24]).decode()}"

    def token(self, code, nonce):
        """Return the instructor's token of a class: whoever holds it controls the class."""
        return self._sign("lead", code, nonce)

    def ticket(self, code, nonce):
        """Return a follower's ticket of a class: proof that this class was open."""
        return self._sign("follow", code, nonce)

    def voter(self, code, now=time.time):
        """Return a new voter's pass of a class: one student's, to answer each question once."""
        return self._sign("vote", code, f"{int(now() * 1000):x}-{secrets.token_urlsafe(9)}")

    def seated_voter(self, code, seat):
        """Return the voter's pass of a class for a browser holding a seat (edge/seats.py): the
        same for each of its joins, so that a seat answers each question once, and never late.
        Its id is the seat's signature, so that no classmate can tell whose seat an id is."""
        digest = hmac.new(self._secret, f"seat:{seat}".encode(), hashlib.sha256).digest()
        return self._sign("vote", code, SEATED + base64.urlsafe_b64encode(digest[:12]).decode())

    @staticmethod
    def seated(voter_id):
        """Tell whether a voter id is a seat's."""
        return voter_id.startswith(SEATED)

    @staticmethod
    def issued(voter_id):
        """Return the millisecond (Unix time) a voter's pass was issued, 0 for one that does not say."""
        head, dash, _ = voter_id.partition("-")
        try:
            return int(head, 16) if dash else 0
        except ValueError:
            return 0

    def _nonce(self, purpose, code, given):
        """Return the nonce of a valid pass, or None."""
        # compare_digest takes str only if it is ASCII, as a pass is: anything else is wrong.
        if not (isinstance(given, str) and given.isascii() and given.count(".") == 1 and len(given) < 100):
            return None
        nonce = given.split(".")[0]
        return nonce if hmac.compare_digest(given, self._sign(purpose, code, nonce)) else None

    def leads(self, code, token):
        """Return the class nonce that token leads for code, or None if it is no such token."""
        return self._nonce("lead", code, token)

    def admits(self, code, ticket):
        """Return the class nonce that ticket follows for code, or None if it is no such ticket."""
        return self._nonce("follow", code, ticket)

    def votes(self, code, voter):
        """Return the voter id of a valid voter's pass of code, or None."""
        return self._nonce("vote", code, voter)
