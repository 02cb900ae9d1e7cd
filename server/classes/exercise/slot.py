"""A class's code exercise in the slot it keeps for it: the exercise open, each student's latest
verdict on their own code, and the tally its instructor is sent, paced.

The owner of a class keeps the verdicts. A process whose students follow another process's class
keeps the exercise it heard of (from what the owner sends the room), to check its students'
verdicts and their pace before passing them on.
"""

import time
from collections import Counter

from ...extension import socketio
from ...replies import Refusal
from ..sessions import Slot
from ..throttle import Throttle
from .checks import VERDICT_EVERY

NAME = "exercise"  # the slot's name in a class
COUNT_EVERY = 0.5  # seconds between two tallies sent to the instructor: two a second at most
NONE_OPEN = "there is no code exercise open"
CLOSED = "that code exercise is closed"
TOO_SOON = f"one verdict every {VERDICT_EVERY:g} seconds: your page sends its last one in a moment"
HEARD = ("exercise_opened", "exercise_closed")  # what a process hears of another's class
BOARD = ("id", "rows", "cols", "start")  # what an exercise heard of must name
# Codes kept for an instructor's page that comes back: 200 of MAX_CODE_BYTES are 2.4 MB at most
# a class, however many pages a script joins. Past them, codes still reach the page live.
KEPT_CODES = 200


class Exercise(Slot):
    """A class's code exercise (None until one is opened), its verdicts by voter, and the tally."""

    def __init__(self, klass):
        self.open = None  # {id, exercise, rows, cols, start}
        self.number = 0
        self._forget()
        self.tally = Throttle(
            lambda: _send_tally(klass), COUNT_EVERY, socketio.start_background_task, socketio.sleep
        )

    def welcome(self):
        return {"exercise": self.open}

    def reclaimed(self):
        # A reloaded instructor's page has the tally and the codes shown again at once, not as
        # the next verdict and the next code shown come.
        if not self.open:
            return {}
        codes = [{"id": self.open["id"], "number": n, "code": code} for n, code in sorted(self.codes.items())]
        return {"exercise_count": self.count(), "exercise_codes": codes}

    def _forget(self):
        """Forget what the students sent of the exercise open."""
        self.verdicts = {}  # voter -> their latest verdict (checks.check_verdict)
        self.sent_at = {}  # (what, voter) -> when their last verdict (or code shown) was taken
        self.shown = {}  # voter -> the anonymous number their code is shown to the instructor under
        self.codes = {}  # number -> the latest code shown under it (KEPT_CODES at most)

    def hand_off(self):
        self.open = None
        self._forget()

    def begin(self, exercise, rows, cols, start):
        """Open an exercise (in place of the one open, whose verdicts go); return it."""
        self.number += 1
        self.open = {"id": self.number, "exercise": exercise, "rows": rows, "cols": cols, "start": start}
        self._forget()
        return self.open

    def end(self, number):
        """Close the exercise open, if it is number's (or refuse)."""
        self.open_one(number)
        self.open = None

    def open_one(self, number):
        """Return the exercise open if it is number's, or refuse."""
        if self.open is None:
            raise Refusal("exercise.none", NONE_OPEN)
        if number != self.open["id"]:
            raise Refusal("exercise.closed", CLOSED)
        return self.open

    def take_turn(self, voter, now=None, what="verdict"):
        """Take a voter's turn to send a verdict (or show their code), or refuse: their last was
        too recent."""
        now = time.monotonic() if now is None else now
        if now - self.sent_at.get((what, voter), -VERDICT_EVERY) < VERDICT_EVERY:
            raise Refusal("exercise.too_soon", TOO_SOON, seconds=VERDICT_EVERY)
        self.sent_at[(what, voter)] = now

    def give_back(self, voter, what="verdict"):
        """Return a voter's turn: what they sent could not be passed on."""
        self.sent_at.pop((what, voter), None)

    def keep_shown(self, voter, code):
        """Keep the code a voter shows (in place of the one they showed before); return what the
        instructor is sent of it, under the voter's number, kept while the exercise is open."""
        number = self.shown.setdefault(voter, len(self.shown) + 1)
        if number in self.codes or len(self.codes) < KEPT_CODES:
            self.codes[number] = code
        return {"id": self.open["id"], "number": number, "code": code}

    def record(self, voter, verdict):
        """Keep a voter's verdict on the exercise open (their earlier one goes); tell whether it was."""
        if self.open is None or verdict["id"] != self.open["id"]:
            return False
        self.verdicts[voter] = verdict
        return True

    def count(self):
        """Return the tally of the exercise open (of those who follow, class_students tells the
        instructor): how many sent a verdict, matched, parted from
        the engine's search (heat: [square, how many] of the squares where they did), or stopped
        with a problem; and every verdict, anonymous, in an order that names nobody."""
        rows = [
            [v["matched"], v["events"], *(v["differs"] or (None, None)), v["problem"]]
            for v in self.verdicts.values()
        ]
        heat = Counter(square for matched, _, _, square, _ in rows if square is not None and not matched)
        rows.sort(key=lambda row: (not row[0], row[2] if row[2] is not None else -1, row[1], row[4] or ""))
        return {
            "id": self.open["id"] if self.open else None,
            "sent": len(rows),
            "matched": sum(row[0] for row in rows),
            "differ": sum(not row[0] and row[4] is None for row in rows),
            "stopped": sum(row[4] is not None for row in rows),
            "heat": sorted(heat.items()),
            "verdicts": rows,
        }

    def heard(self, event, payload):
        """Note what the class's owner told its room of its exercise."""
        if event in ("exercise_opened", "class_state"):
            heard = payload if event == "exercise_opened" else payload.get("exercise")
            fits = isinstance(heard, dict) and all(type(heard.get(key)) is int for key in BOARD)
            self.open = heard if fits else None
        elif event == "exercise_closed" and self.open is not None and payload.get("id") == self.open["id"]:
            self.open = None


def exercise(klass):
    """Return a class's Exercise."""
    return klass.slots[NAME]


def _send_tally(klass):
    with klass.lock:
        held, sid = exercise(klass), klass.instructor
        if held.open is not None and sid is not None:
            socketio.emit("exercise_count", held.count(), to=sid, ignore_queue=True)  # connected here
