"""Class sessions: an instructor's run followed live by a room of students."""

import secrets
import threading
import time
from collections import OrderedDict

from ..replies import Refusal

# Join codes avoid letters and digits that read alike (0/O, 1/I/L).
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
# Seven of them: 27.5 billion codes, so that guessing one takes years even from ten addresses, each
# with its browsers' own few wrong codes (docs/protocol.md#wrong-codes works it out).
CODE_LENGTH = 7
ENDED_KEPT = 65536  # ended classes remembered, so that their tokens and tickets open nothing


NO_SUCH_CLASS = "there is no class with that code: check it with your instructor"
CLASS_ENDED = "that class has ended"


def already_leading(code):
    """Return the refusal of a page that leads class code already."""
    return Refusal("class.already_leading", f"you already lead class {code}; end it first", code=code)


class NoSuchClass(Refusal):
    """A code names no class: to a guesser, a miss."""

    def __init__(self):
        super().__init__("class.no_such_class", NO_SUCH_CLASS)


def normal(code):
    """Return a class code as typed, in the form codes take (None if it is not text)."""
    return code.upper().strip() if isinstance(code, str) else None


class Claim:
    """What a claim did: the class claimed, the page it took the class from (if any), and
    whether the class was led from another process, or none, until now."""

    def __init__(self, klass, displaced, reopened=False):
        self.klass = klass
        self.displaced = displaced
        self.reopened = reopened


class Feed:
    """A run that a class's room is sent: its 'started', its player while it runs, its result."""

    def __init__(self):
        self.started = None  # the run's 'started' payload
        self.player = None  # its player, while it runs
        self.result = None  # its 'finished' payload, once it has ended
        self.summarising = False  # the room gets snapshots, not events
        self.snapshot_at = 0.0
        # The outline of the tree of the batches the room was not sent (see relay.py), or None;
        # UNKNOWN once a batch without one was left out.
        self.outline = None

    def news(self):
        """Return the run, where it is, and how it ended, as a joining follower needs them."""
        snapshot = self.player.snapshot() if self.player else None
        return {"run": self.started, "snapshot": snapshot, "result": self.result}


class Slot:
    """A feature's own part of a class, made with the class by the factory the feature gave
    Classes.add_slot: what a joining follower needs of it, and what it runs until the class goes."""

    def welcome(self):
        """Return the feature's part of what a joining follower is sent."""
        return {}

    def reclaimed(self):
        """Return the feature's part of what an instructor taking the class back is answered,
        beyond the welcome: what only the instructor is told (a tally, say)."""
        return {}

    def close(self):
        """Stop what it runs: the class is closed here."""

    def hand_off(self):
        """Let go of what the class's instructor's page brings to the process that leads it now."""


class ClassSession:
    """One class: its code, its instructor, its followers and the run they watch.

    A class opened by another process (sharing a message queue) is known here only by its
    code and its followers in this process: remote, with no token and no run.
    """

    def __init__(self, code, nonce, instructor, remote=False, slots=()):
        self.remote = remote
        self.code = code
        self.nonce = nonce  # the class's own, in its passes: see passes.py
        self.instructor = instructor  # the instructor's sid, None while disconnected
        self.followers = set()
        # The class's run. Its player outlives its instructor's connection (paused while they
        # are away) until they come back or the class is ended.
        self.main = Feed()
        self.state = "idle"  # idle, playing, paused, skipping, finished, or away
        self.speed = None
        self.lock = threading.Lock()  # orders joins against what the room is sent
        self.touched = time.monotonic()
        self.second_sid = None  # in a race, the instructor page's second connection (see relay.py)
        # Of another process's class: the pages that joined here and wait for their welcome from
        # its owner (see events.py, the owner's death).
        self.unwelcomed = set()
        # Each feature's own part of the class, by the name it was given (see Classes.add_slot).
        self.slots = {name: make(self) for name, make in slots}

    def settle(self):
        """Set the state from the run, now that the instructor is there to drive it."""
        player = self.main.player
        if player is not None:
            self.state, self.speed = player.state(), player.speed
        else:
            self.state = "finished" if self.main.result else "idle"

    @property
    def room(self):
        return f"class:{self.code}"

    def control(self):
        """Return how the run goes, as followers are told."""
        return {"code": self.code, "state": self.state, "speed": self.speed}

    def welcome(self):
        """Return what a joining follower needs: the run, where it is, and how it goes."""
        welcome = {**self.control(), **self.main.news()}
        for slot in self.slots.values():
            welcome.update(slot.welcome())
        return welcome

    def reclaimed(self):
        """Return what an instructor taking the class back is told beyond its welcome."""
        told = {}
        for slot in self.slots.values():
            told.update(slot.reclaimed())
        return told


class Classes:
    """The class sessions of one app, by code, by instructor and by follower."""

    def __init__(self, idle_seconds, orphan_seconds, passes):
        self.idle_seconds = idle_seconds
        self.orphan_seconds = orphan_seconds
        self.passes = passes
        self._by_code = {}
        self._led = {}  # instructor sid -> code
        self._following = {}  # follower sid -> code
        # Pages waiting, with a ticket, for their class to come back (after a restart): by
        # code, the sids and when they began; and each waiting sid's code.
        self._waiting = {}
        self._waits = {}
        self._seconds = {}  # sid of an instructor page's second connection -> code
        # Each follower's (or waiting page's) voter id, from its voter's pass: see passes.py.
        self._voters = {}
        # The (code, nonce) of classes ended here, oldest first: see end().
        self._ended = OrderedDict()
        self._slots = {}  # each feature's factory of its slot in a class, by name
        self._lock = threading.Lock()

    def __len__(self):
        return len(self._by_code)

    def add_slot(self, name, make):
        """Give every class made from now on a slot for a feature: make(klass) makes it, a Slot."""
        self._slots[name] = make

    def _session(self, code, nonce, instructor, remote=False):
        return ClassSession(code, nonce, instructor, remote, self._slots.items())

    def open(self, sid):
        """Open a class led by sid and return it."""
        with self._lock:
            if sid in self._led:
                raise already_leading(self._led[sid])
            if sid in self._following:
                raise Refusal(
                    "class.following",
                    f"you are following class {self._following[sid]}; leave it first",
                    code=self._following[sid],
                )
            code = self._new_code()
            klass = self._session(code, self.passes.nonce(), sid)
            self._by_code[code] = klass
            self._led[sid] = code
        return klass

    def token(self, klass):
        """Return the instructor's token of a class."""
        return self.passes.token(klass.code, klass.nonce)

    def ticket(self, klass):
        """Return a follower's ticket of a class, to wait for it with should it go away."""
        return self.passes.ticket(klass.code, klass.nonce)

    def _new_code(self):
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if code not in self._by_code:
                return code

    def find(self, code, elsewhere=None):
        """Return the class with this code (elsewhere(code): another process has it), or raise."""
        code = code.upper().strip() if isinstance(code, str) else None
        klass = self._by_code.get(code) if code else None
        # Another process's class is asked about again: known here, it may have ended since.
        if elsewhere is not None and code and (klass is None or klass.remote):
            if not elsewhere(code):
                klass = None
            elif klass is None:
                with self._lock:
                    klass = self._by_code.setdefault(code, self._session(code, None, None, remote=True))
        if klass is None:
            raise NoSuchClass()
        return klass

    def owned(self, code):
        """Return the class with this code if it was opened in this process, or None."""
        klass = self._by_code.get(code)
        return klass if klass is not None and not klass.remote else None

    def known_remote(self, code):
        """Return another process's class with this code, if it is known here, or None."""
        klass = self._by_code.get(code)
        return klass if klass is not None and klass.remote else None

    def led_by(self, sid):
        """Return the class sid leads, or None."""
        code = self._led.get(sid)
        return self._by_code.get(code) if code else None

    def followed_by(self, sid):
        """Return the class sid follows, or None."""
        code = self._following.get(sid)
        return self._by_code.get(code) if code else None

    def claim(self, sid, code, token, elsewhere=lambda code: False, ended=lambda code, nonce: False):
        """Give the instructor's rights to sid, which holds the class's token; return a Claim.

        A class this process does not own is led from here from now on: one that no process
        has (its server restarted) opens again with its code, unless it was ended (here, or
        elsewhere: ended(code, nonce)); another process's (elsewhere(code)) is taken from it.
        The page that led it here until now, if it is still connected, becomes a follower.
        """
        code = normal(code)
        klass = self._by_code.get(code) if code else None
        nonce = self.passes.leads(code, token) if code else None
        if nonce is None or (klass is not None and not klass.remote and nonce != klass.nonce):
            # Asked only now: whether a code names a class is told to a right token only.
            if klass is None and not (code and elsewhere(code)):
                raise NoSuchClass()
            raise Refusal(
                "class.wrong_token",
                "that token does not match the class: "
                "only the instructor who started this class can control it",
            )
        owned = klass is not None and not klass.remote
        if not owned and self.was_ended(code, nonce, ended):
            raise Refusal("class.ended", CLASS_ENDED)
        with self._lock:
            if sid in self._led and self._led[sid] != code:
                raise already_leading(self._led[sid])
            klass = self._by_code.get(code)
            if klass is None:
                klass = self._by_code[code] = self._session(code, nonce, None)
            elif klass.remote:  # its followers here follow it as led from here
                klass.remote, klass.nonce = False, nonce
            self._drop_follower(sid)
            displaced = klass.instructor if klass.instructor not in (None, sid) else None
            if displaced is not None:
                self._led.pop(displaced, None)
                self._following[displaced] = code
                klass.followers.add(displaced)
            klass.instructor = sid
            klass.touched = time.monotonic()
            self._led[sid] = code
        return Claim(klass, displaced, reopened=not owned)

    def hand_off(self, code):
        """Let go of a class owned here that another process leads now: it is known here as that
        process's, and the page that led it here follows it. Return (the class, that page's sid),
        or (None, None) if no class with this code is owned here."""
        with self._lock:
            klass = self._by_code.get(code)
            if klass is None or klass.remote:
                return None, None
            klass.remote = True
            displaced = klass.instructor
            klass.instructor = None
            if displaced is not None:
                self._led.pop(displaced, None)
                self._following[displaced] = code
                klass.followers.add(displaced)
            self._seconds.pop(klass.second_sid, None)
            klass.second_sid = None
        return klass, displaced

    def follow(self, sid, code, elsewhere=lambda code: False, ticket=None, ended=lambda code, nonce: False):
        """Make sid a follower of the class with this code, and return it.

        With the ticket of a class that is not open (its server restarted), sid waits for it
        instead, and None is returned: admit() makes it a follower when the class is back. A
        ticket of a class that was ended (here, or elsewhere: ended(code, nonce)) waits for nothing.
        """
        if sid in self._led:
            code = self._led[sid]
            raise Refusal("class.leading", f"you lead class {code}; you cannot follow another", code=code)
        try:
            klass = self.find(code, elsewhere)
        except NoSuchClass:
            nonce = self.passes.admits(normal(code), ticket)
            if nonce is None:
                raise
            if self.was_ended(normal(code), nonce, ended):
                raise Refusal("class.ended", CLASS_ENDED) from None
            with self._lock:
                self._drop_follower(sid)
                self._waits[sid] = normal(code)
                self._waiting.setdefault(normal(code), {})[sid] = (nonce, time.monotonic())
            return None
        with self._lock:
            self._drop_follower(sid)
            self._following[sid] = klass.code
            klass.followers.add(sid)
        return klass

    def vote_as(self, sid, voter):
        """Let sid, which follows (or waits for) a class, answer its questions as voter."""
        with self._lock:
            if sid in self._following or sid in self._waits:
                self._voters[sid] = voter

    def voter_of(self, sid):
        """Return the id a follower answers questions as (a page that joined without: its sid's)."""
        return self._voters.get(sid) or f"sid:{sid}"

    def students(self, klass):
        """Return how many students follow a class here: its followers' voters (a browser's tabs are one)."""
        with self._lock:
            return len({self._voters.get(sid) or sid for sid in list(klass.followers)})

    def admit(self, klass):
        """Make the pages waiting for this class (not an earlier one of its code) its followers.

        Return their sids.
        """
        with self._lock:
            waiting = self._waiting.get(klass.code, {})
            sids = [sid for sid, (nonce, _) in waiting.items() if nonce == klass.nonce]
            for sid in sids:
                self._stop_waiting(sid)
                self._following[sid] = klass.code
                klass.followers.add(sid)
        return sids

    def waiting_for(self):
        """Return the codes pages wait for, each with its sids' (nonce, when they began waiting)."""
        with self._lock:
            return {code: dict(sids) for code, sids in self._waiting.items()}

    def stop_waiting(self, sid):
        """Stop sid waiting for its class; return the code it waited for, or None."""
        with self._lock:
            self._voters.pop(sid, None)
            return self._stop_waiting(sid)

    def _stop_waiting(self, sid):
        code = self._waits.pop(sid, None)
        if code is not None:
            sids = self._waiting[code]
            del sids[sid]
            if not sids:
                del self._waiting[code]
        return code

    def _drop_follower(self, sid):
        """Make sid follow and wait for nothing (the lock is held)."""
        self._stop_waiting(sid)
        self._voters.pop(sid, None)
        code = self._following.pop(sid, None)
        if code in self._by_code:
            self._by_code[code].followers.discard(sid)

    def _forget_remote(self, klass):
        with self._lock:
            if self._by_code.get(klass.code) is klass:
                del self._by_code[klass.code]

    def unfollow(self, sid):
        """Stop sid following (or waiting for) its class; return the class, or None."""
        with self._lock:
            code = self._following.get(sid)
            self._drop_follower(sid)
            return self._by_code.get(code) if code else None

    def left(self, sid):
        """Note that sid has gone; return the class it led (now without instructor), or None."""
        self.unfollow(sid)
        with self._lock:
            code = self._led.pop(sid, None)
            klass = self._by_code.get(code) if code else None
            if klass:
                klass.instructor = None
                klass.touched = time.monotonic()
        return klass

    def second_of(self, sid):
        """Return the class whose race's second board sid runs, or None."""
        code = self._seconds.get(sid)
        return self._by_code.get(code) if code else None

    def add_second(self, sid, code, token):
        """Let sid, the second connection of the instructor's page, run the race's other board."""
        klass = self._by_code.get(normal(code))
        if klass is None or klass.remote or self.passes.leads(klass.code, token) != klass.nonce:
            raise ValueError("only the instructor's page can run the second board of its class's race")
        with self._lock:
            if klass.second_sid is not None:
                self._seconds.pop(klass.second_sid, None)
            klass.second_sid = sid
            self._seconds[sid] = klass.code
        return klass

    def drop_second(self, sid):
        """Forget sid as the second board of a class's race; return the class, or None."""
        with self._lock:
            klass = self._by_code.get(self._seconds.pop(sid, None))
            if klass is not None and klass.second_sid == sid:
                klass.second_sid = None
        return klass

    def proves(self, code, nonce, elsewhere=lambda code: False):
        """Tell whether a pass (a token or a ticket) of the class of this code and nonce shows
        that its holder knows the code of the class open now: it is that class's, or no class has
        the code (its holder waits for its own to come back). Another process's class cannot be
        checked (elsewhere(code): one has it), nor can one that ended and gave its code to
        another: such a pass proves nothing."""
        if nonce is None:
            return False
        klass = self._by_code.get(code)
        if klass is not None:
            return not klass.remote and klass.nonce == nonce
        return not elsewhere(code)

    def was_ended(self, code, nonce, elsewhere=lambda code, nonce: False):
        """Tell whether the class of this code and nonce was ended, here or elsewhere."""
        return (code, nonce) in self._ended or elsewhere(code, nonce)

    def end(self, klass):
        """Close a class for good: its token and its tickets will not open it again."""
        self.close(klass)
        with self._lock:
            self._ended[klass.code, klass.nonce] = True
            while len(self._ended) > ENDED_KEPT:
                self._ended.popitem(last=False)

    def close(self, klass):
        """Forget a class and everyone's part in it; stop its run if nobody holds it."""
        with self._lock:
            self._by_code.pop(klass.code, None)
            if klass.instructor is not None:
                self._led.pop(klass.instructor, None)
            for sid in klass.followers:
                self._following.pop(sid, None)
                self._voters.pop(sid, None)
            self._seconds.pop(klass.second_sid, None)
        if klass.instructor is None and klass.main.player is not None:
            klass.main.player.stop()
        for slot in klass.slots.values():
            slot.close()

    def stale(self, now=None):
        """Return the classes to end: idle too long, or left by their instructor too long."""
        now = time.monotonic() if now is None else now
        return [
            klass
            for klass in list(self._by_code.values())
            if not klass.remote
            and now - klass.touched > (self.idle_seconds if klass.instructor else self.orphan_seconds)
        ]

    def shared(self):
        """Return the classes opened here, and those known here as another process's."""
        classes = list(self._by_code.values())
        return [k for k in classes if not k.remote], [k for k in classes if k.remote]

    def drop_remote(self, code):
        """Forget another process's class, and its followers here; return it (or None)."""
        with self._lock:
            klass = self._by_code.get(code)
            if klass is None or not klass.remote:
                return None
            del self._by_code[code]
            for sid in klass.followers:
                self._following.pop(sid, None)
                self._voters.pop(sid, None)
            self._seconds.pop(klass.second_sid, None)
        return klass
