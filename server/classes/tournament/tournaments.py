"""A class's tournament: each student's ordering searched on the same boards, board by board.

The instructor sets the boards (square boards from smallest to largest side, each searched from
a corner) and the backtracks a board may take. Each student enters one ordering (a new one
replaces theirs), under a nickname or none, until the instructor closes the entries. The boards
of every entry are searched in turns, one board of each entry after another, so that the whole
class's entries fill in together; what each board's search came to is kept as it comes.

An entry is known by an id made from its student's voter id: a student's page, which knows its
own, finds itself in the standings, and nobody else can tell whose an entry is.

As with a question's answers (questions/polls.py), an entry from a voter whose pass was issued
once the tournament opened is late: its page joined after, as a script's many pages do. Late
entries are taken, flagged and ranked apart, with a limit of their own, so that they never take
the place of a student who was there. With seats handed out, the instructor may take entries
from seats only; and an entry the instructor removes bars its voter from the tournament.
"""

import hashlib
import re
import threading
import time
from collections import deque

from ...engine.orderings import check_order
from ...engine.survey import BACKTRACKED, CLEAN, LOST, NONE, STOPPED
from ...replies import Refusal
from ...wire import shown
from ..passes import Passes
from .checks import check_name, check_title

MAX_ENTRIES = 500  # a lecture hall's students present when it opened
MAX_LATE = 500  # entries of those who joined after it opened, apart: they never crowd out the others
ID = re.compile(r"[0-9a-f]{12}")
# A board's end in one letter, as the standings carry it; "." for a board not searched yet.
CODES = {CLEAN: "c", BACKTRACKED: "b", STOPPED: "s", NONE: "n", LOST: "l"}
WAITING = "."

NOT_OPEN = "the tournament is not taking entries: the instructor has closed it, or opened none"
FULL = f"the tournament has {MAX_ENTRIES} entries, as many as it takes"
LATE_FULL = (
    f"the tournament has {MAX_LATE} entries from pages that joined after it opened, "
    "as many as it takes of those"
)
SEATS_ONLY = "the tournament takes entries from students' seats only: open your seat's link, then join again"
REMOVED = "the instructor removed your entry: you cannot enter this tournament again"
NO_ENTRY = "there is no entry with that id"
AGAIN_MS = 2000  # between two entries of one student: a script's flood of them is a few a second
TOO_SOON = "you entered an ordering a moment ago: wait a second or two before entering another"


def entry_id(voter):
    """Return the id of a voter's entry: its student's page can tell it, nobody else whose it is."""
    return hashlib.sha256(f"entry:{voter}".encode()).hexdigest()[:12]


class Entry:
    """One student's ordering (and the name they gave it, or None), its nickname (None: anonymous),
    whether it is late (its voter joined after the tournament opened) or a seat's, and what each
    board came to."""

    def __init__(self, id, order, name, submitted, boards, title=None, late=False, seated=False):
        self.id, self.order, self.name, self.submitted, self.title = id, order, name, submitted, title
        self.late, self.seated = late, seated
        self.hidden = False  # its nickname and title, hidden by the instructor
        self.codes = [WAITING] * boards
        self.backtracks = [0] * boards
        self.next = 0  # its next board to search

    def row(self):
        """Return the entry as the room is told it (a hidden nickname and title left out)."""
        return {
            "id": self.id,
            "name": None if self.hidden else self.name,
            "title": None if self.hidden else self.title,
            "hidden": self.hidden,
            "order": self.order,
            "submitted": self.submitted,
            "late": self.late,
            "seated": self.seated,
            "outcomes": "".join(self.codes),
            "backtracks": list(self.backtracks),
        }


class Tournament:
    """A class's tournament: its rules, whether it takes entries, and its entries by id.

    opened: the millisecond it opened (Unix time; now if None), after which a voter's pass is
    late; present: how many students followed the class then (None: not known); removed: the ids
    of entries the instructor removed, whose voters enter no more.
    """

    def __init__(self, number, rules, *, opened=None, present=None, removed=()):
        self.number = number  # the class's how-manieth: news of an earlier one is told apart
        self.rules = rules
        self.boards = rules.boards()  # (side, start square) of each board, in the order searched
        self.open = True
        self.opened = int(time.time() * 1000) if opened is None else opened
        self.present = present
        self.removed = set(removed)
        self.entries = {}
        self._turns = deque()  # the entries with boards to search, the next in turn first
        self._news = {"entries": {}, "cells": [], "removed": []}  # what the room has not been told yet
        # Entries come from the handlers, boards' ends from the helpers' answers.
        self._lock = threading.Lock()

    def late(self, voter):
        """Tell whether a voter's pass was issued once the tournament opened (a seat's never is)."""
        return Passes.issued(voter) >= self.opened

    def enter(self, id, order, name, submitted=None, title=None, *, voter=None, late=False, seated=False):
        """Take (or replace) an entry: order checked, name a nickname or None, title the
        ordering's name or None; return it. voter: the student's voter id, which tells whether
        the entry is late and a seat's (without it, as late and seated say: a restored entry)."""
        with self._lock:
            if not self.open:
                raise Refusal("tournament.closed", NOT_OPEN)
            check_order(order)
            name, title = check_name(name), check_title(title)
            if voter is not None:
                late, seated = self.late(voter), Passes.seated(voter)
            if id in self.removed:
                raise Refusal("tournament.removed", REMOVED)
            if voter is not None and self.rules.seats and not seated:
                raise Refusal("tournament.seats_only", SEATS_ONLY)
            if id not in self.entries:
                # Each kind has its own limit: late entries never fill the places of the others.
                alike = sum(1 for entry in self.entries.values() if entry.late == late)
                if late and alike >= MAX_LATE:
                    raise Refusal("tournament.late_full", LATE_FULL)
                if not late and alike >= MAX_ENTRIES:
                    raise Refusal("tournament.full", FULL)
            now = int(time.time() * 1000)
            before = self.entries.get(id)
            if submitted is None and before is not None and now - before.submitted < AGAIN_MS:
                raise Refusal("tournament.too_soon", TOO_SOON)
            when = now if submitted is None else submitted
            entry = Entry(id, order, name, when, len(self.boards), title, late, seated)
            self.entries.pop(id, None)
            # The same nickname and title again stay hidden: the instructor hid them, not the ordering.
            entry.hidden = (
                before is not None and before.hidden and (before.name, before.title) == (name, title)
            )
            self.entries[id] = entry
            self._turns.append(entry)
            self._news["entries"][id] = entry
            return entry

    def hide(self, id, hidden):
        """Hide (or show again) an entry's nickname."""
        with self._lock:
            entry = self.entries.get(id)
            if entry is None:
                raise Refusal("tournament.no_entry", NO_ENTRY)
            entry.hidden = hidden
            self._news["entries"][id] = entry

    def remove(self, id):
        """Drop an entry (its boards are searched no more) and take no other from its voter."""
        with self._lock:
            if self.entries.pop(id, None) is None:
                raise Refusal("tournament.no_entry", NO_ENTRY)
            self.removed.add(id)
            self._news["entries"].pop(id, None)
            self._news["removed"].append(id)

    def close(self):
        """Take no more entries; those taken are searched to the end."""
        with self._lock:
            self.open = False

    def take(self):
        """Return the next board to search, ((entry, index), (rows, cols, start, order, seed,
        budget)), one entry's after another's, or None if every board is searched or at it."""
        with self._lock:
            while self._turns:
                entry = self._turns.popleft()
                if self.entries.get(entry.id) is not entry or entry.next >= len(entry.codes):
                    continue  # replaced since, or every board of it asked for
                index, entry.next = entry.next, entry.next + 1
                if entry.next < len(entry.codes):
                    self._turns.append(entry)
                side, start = self.boards[index]
                return (entry, index), (side, side, start, entry.order, 0, self.rules.budget)
            return None

    def record(self, key, result):
        """Note what an entry's board came to (survey.cell); an entry since replaced is let be."""
        with self._lock:
            entry, index = key
            if self.entries.get(entry.id) is not entry:
                return False
            entry.codes[index] = CODES.get(result["outcome"], CODES[LOST])
            entry.backtracks[index] = result["backtracks"]
            self._news["cells"].append([entry.id, index, entry.codes[index], entry.backtracks[index]])
            return True

    def state(self):
        """Return the whole tournament as the room is told it."""
        with self._lock:
            return {
                "tournament": self.number,
                "open": self.open,
                **self.rules.payload(),
                "opened": self.opened,
                "present": self.present,
                "removed": sorted(self.removed),
                "entries": [entry.row() for entry in self.entries.values()],
            }

    def news(self):
        """Return what changed since the last news: entries new or changed, boards ended, and
        entries removed."""
        with self._lock:
            entries, cells, removed = self._news["entries"], self._news["cells"], self._news["removed"]
            self._news = {"entries": {}, "cells": [], "removed": []}
            rows = [entry.row() for id, entry in entries.items() if self.entries.get(id) is entry]
            changed = {row["id"] for row in rows}
            # A new entry's row has its boards so far: only later boards come apart.
            cells = [cell for cell in cells if cell[0] not in changed and cell[0] in self.entries]
            return {
                "tournament": self.number,
                "open": self.open,
                "entries": rows,
                "cells": cells,
                "removed": removed,
            }

    def restore(self, rows):
        """Take back the entries of a tournament the class had before its server restarted (as its
        instructor's page kept them: id, order, name, title, submitted, hidden, late, seated); their
        boards are searched again."""
        if not isinstance(rows, list) or len(rows) > MAX_ENTRIES + MAX_LATE:
            raise ValueError(f"entries must be a list of at most {MAX_ENTRIES + MAX_LATE}, not {shown(rows)}")
        for row in rows:
            id = row.get("id") if isinstance(row, dict) else None
            if not isinstance(id, str) or not ID.fullmatch(id):
                raise ValueError(f"an entry needs the id of an entry, not {shown(row)}")
            submitted = row.get("submitted")
            if type(submitted) is not int or not 0 <= submitted < 2**53:
                raise ValueError(f"an entry's submitted is a millisecond, not {shown(submitted)}")
            flags = {key: row.get(key) is True for key in ("late", "seated")}
            entry = self.enter(id, row.get("order"), row.get("name"), submitted, row.get("title"), **flags)
            entry.hidden = row.get("hidden") is True
