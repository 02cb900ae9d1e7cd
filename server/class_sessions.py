"""Class sessions: an instructor's run followed live by a room of students."""

import secrets
import threading
import time

# Join codes avoid letters and digits that read alike (0/O, 1/I/L).
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 5


class NoSuchClass(ValueError):
    """A code names no class: to a guesser, a miss."""


class ClassSession:
    """One class: its code, its instructor, its followers and the run they watch.

    A class opened by another process (sharing a message queue) is known here only by its
    code and its followers in this process: remote, with no token and no run.
    """

    def __init__(self, code, token, instructor, remote=False):
        self.remote = remote
        self.code = code
        self.token = token
        self.instructor = instructor  # the instructor's sid, None while disconnected
        self.followers = set()
        self.started = None  # the 'started' payload of the class's current run
        self.player = None  # the player of that run, while it runs
        self.result = None  # the 'finished' payload of that run, once it has ended
        self.state = "idle"  # idle, playing, paused, skipping or finished
        self.speed = None
        self.lock = threading.Lock()  # orders joins against what the room is sent
        self.touched = time.monotonic()
        self.summarising = False  # the room gets snapshots, not events
        self.snapshot_at = 0.0

    @property
    def room(self):
        return f"class:{self.code}"

    def control(self):
        """Return how the run goes, as followers are told."""
        return {"code": self.code, "state": self.state, "speed": self.speed}

    def welcome(self):
        """Return what a joining follower needs: the run, where it is, and how it goes."""
        snapshot = self.player.snapshot() if self.player else None
        return {**self.control(), "run": self.started, "snapshot": snapshot, "result": self.result}


class Classes:
    """The class sessions of one app, by code, by instructor and by follower."""

    def __init__(self, idle_seconds, orphan_seconds, per_client=1):
        self.idle_seconds = idle_seconds
        self.orphan_seconds = orphan_seconds
        self.per_client = per_client
        self._by_code = {}
        self._led = {}  # instructor sid -> code
        self._following = {}  # follower sid -> code
        self._lock = threading.Lock()

    def __len__(self):
        return len(self._by_code)

    def open(self, sid):
        """Open a class led by sid and return it."""
        with self._lock:
            if sid in self._led:
                raise ValueError(f"you already lead class {self._led[sid]}; end it first")
            if sid in self._following:
                raise ValueError(f"you are following class {self._following[sid]}; leave it first")
            code = self._new_code()
            klass = ClassSession(code, secrets.token_urlsafe(24), sid)
            self._by_code[code] = klass
            self._led[sid] = code
        return klass

    def _new_code(self):
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if code not in self._by_code:
                return code

    def find(self, code, elsewhere=lambda code: False):
        """Return the class with this code (elsewhere(code): another process has it), or raise."""
        code = code.upper().strip() if isinstance(code, str) else None
        klass = self._by_code.get(code) if code else None
        if klass is None and code and elsewhere(code):
            with self._lock:
                klass = self._by_code.setdefault(code, ClassSession(code, None, None, remote=True))
        if klass is None:
            raise NoSuchClass("there is no class with that code: check it with your instructor")
        return klass

    def owned(self, code):
        """Return the class with this code if it was opened in this process, or None."""
        klass = self._by_code.get(code)
        return klass if klass is not None and not klass.remote else None

    def led_by(self, sid):
        """Return the class sid leads, or None."""
        code = self._led.get(sid)
        return self._by_code.get(code) if code else None

    def followed_by(self, sid):
        """Return the class sid follows, or None."""
        code = self._following.get(sid)
        return self._by_code.get(code) if code else None

    def claim(self, sid, code, token):
        """Give the instructor's rights back to sid, which knows the class's token."""
        klass = self.find(code)
        if klass.remote:
            raise ValueError("this class is led through another server: reconnect to that one")
        # compare_digest takes str only if it is ASCII, as a token is: anything else is wrong.
        if not (isinstance(token, str) and token.isascii() and secrets.compare_digest(token, klass.token)):
            raise ValueError(
                "that token does not match the class: "
                "only the instructor who started this class can control it"
            )
        with self._lock:
            if sid in self._led and self._led[sid] != klass.code:
                raise ValueError(f"you already lead class {self._led[sid]}; end it first")
            self._following.pop(sid, None)
            klass.followers.discard(sid)
            if klass.instructor is not None:
                self._led.pop(klass.instructor, None)
            klass.instructor = sid
            klass.touched = time.monotonic()
            self._led[sid] = klass.code
        return klass

    def follow(self, sid, code, elsewhere=lambda code: False):
        """Make sid a follower of the class with this code, and return it."""
        klass = self.find(code, elsewhere)
        with self._lock:
            if sid in self._led:
                raise ValueError(f"you lead class {self._led[sid]}; you cannot follow another")
            self._following[sid] = klass.code
            klass.followers.add(sid)
        return klass

    def unfollow(self, sid):
        """Stop sid following its class; return the class, or None."""
        with self._lock:
            code = self._following.pop(sid, None)
            klass = self._by_code.get(code) if code else None
            if klass:
                klass.followers.discard(sid)
        return klass

    def left(self, sid):
        """Note that sid has gone: it follows nothing, and leads its class no more."""
        self.unfollow(sid)
        with self._lock:
            code = self._led.pop(sid, None)
            klass = self._by_code.get(code) if code else None
            if klass:
                klass.instructor = None
                klass.touched = time.monotonic()
        return klass

    def close(self, klass):
        """Forget a class and everyone's part in it."""
        with self._lock:
            self._by_code.pop(klass.code, None)
            if klass.instructor is not None:
                self._led.pop(klass.instructor, None)
            for sid in klass.followers:
                self._following.pop(sid, None)

    def stale(self, now=None):
        """Return the classes to end: idle too long, or left by their instructor too long."""
        now = time.monotonic() if now is None else now
        return [
            klass
            for klass in list(self._by_code.values())
            if not klass.remote
            and now - klass.touched > (self.idle_seconds if klass.instructor else self.orphan_seconds)
        ]
