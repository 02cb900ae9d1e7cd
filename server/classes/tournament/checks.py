"""What a tournament's requests must be, checked as they arrive: its rules, a student's nickname
and ordering's name, an entry hidden, a tournament brought back after a restart."""

import re
from dataclasses import asdict, dataclass

from ...replies import Refusal
from ...wire import DEFAULT_STRIP_BUDGET, MAX_STRIP_BUDGET, MAX_STRIP_SIDE, integer, shown

# Letters in a nickname and in an ordering's name (the page's fields and checks are given it).
MAX_NAME = 24
# A nickname: letters (any script) and digits first, then those, spaces and a few marks.
NAME = re.compile(r"[^\W_][\w .'+-]*")
NAME_RULE = f"at most {MAX_NAME} letters, digits, spaces and . ' + - _, beginning with a letter or digit"
BAD_NAME = f"a nickname has {NAME_RULE}"
BAD_TITLE = f"an ordering's name has {NAME_RULE}"


def check_name(name, code="tournament.bad_name", rule=BAD_NAME):
    """Return a nickname (or, with the code and rule of a title, an ordering's name) tidied, None
    for none, or raise a Refusal saying what it may be."""
    if name is None:
        return None
    if not isinstance(name, str):
        raise Refusal(code, rule)
    tidy = " ".join(name.split())
    if tidy == "":
        return None
    if len(tidy) > MAX_NAME or not NAME.fullmatch(tidy):
        raise Refusal(code, rule)
    return tidy


def check_title(title):
    """Return the name a student gave their ordering tidied (None for none), or raise a Refusal."""
    return check_name(title, "tournament.bad_title", BAD_TITLE)


# A tournament: every entry searched on the same square boards, from a corner or the centre.
TOURNAMENT_STARTS = ("corner", "centre")
# Backtracks an entry may take over all its boards: what one student's entry may cost the helpers.
MAX_ENTRY_BUDGET = 1_000_000


@dataclass(frozen=True)
class TournamentRules:
    """What every entry is searched on: square boards of sides smallest to largest, each from a
    corner or the centre, each stopped once it has backtracked `budget` times; and whether it
    takes entries from students' seats only (edge/seats.py)."""

    smallest: int
    largest: int
    budget: int
    start: str = "corner"
    seats: bool = False

    def boards(self):
        """Return the boards, (side, start square), in the order searched."""
        sides = range(self.smallest, self.largest + 1)
        return [(n, 0 if self.start == "corner" else (n // 2) * n + n // 2) for n in sides]

    def payload(self):
        """Return the rules as the room is told them."""
        return asdict(self)


def parse_tournament(data):
    """Check the rules of 'tournament_open' and return its TournamentRules."""
    if not isinstance(data, dict):
        raise ValueError(f"'tournament_open' needs smallest and largest, not {shown(data)}")
    smallest = integer("smallest", data.get("smallest"), 1, MAX_STRIP_SIDE)
    largest = integer("largest", data.get("largest"), smallest, MAX_STRIP_SIDE)
    budget = integer("budget", data.get("budget", DEFAULT_STRIP_BUDGET), 1, MAX_STRIP_BUDGET)
    start = data.get("start", "corner")
    if start not in TOURNAMENT_STARTS:
        raise ValueError(f"start must be one of {', '.join(TOURNAMENT_STARTS)}, not {shown(start)}")
    seats = data.get("seats", False)
    if not isinstance(seats, bool):
        raise ValueError(f"seats is true or false, not {shown(seats)}")
    boards = largest - smallest + 1
    if boards * budget > MAX_ENTRY_BUDGET:
        raise ValueError(
            f"{boards} boards of {budget} backtracks each is more than an entry may take "
            f"({MAX_ENTRY_BUDGET:,} backtracks in all): fewer boards or a smaller budget"
        )
    return TournamentRules(smallest, largest, budget, start, seats)


def parse_entry(data, event):
    """Return the entry's id that event's payload names, or raise ValueError."""
    if not isinstance(data, dict) or not isinstance(data.get("entry"), str):
        raise ValueError(f"'{event}' needs an object with an entry's id, not {shown(data)}")
    return data["entry"]


def parse_hide(data):
    """Check the payload of 'tournament_hide' and return (the entry's id, whether it is hidden)."""
    parse_entry(data, "tournament_hide")
    if not isinstance(data.get("hidden", True), bool):
        raise ValueError("'tournament_hide' takes hidden true or false")
    return data.get("entry"), data.get("hidden", True)


def check_restore(restore):
    """Return a tournament brought back after a restart (its number, entries and whether it is
    open, and when it opened, who was present and the entries removed, if it says), or raise
    ValueError if it has no number or says any of these wrong."""
    if not isinstance(restore, dict) or type(restore.get("tournament")) is not int:
        raise ValueError(f"restore needs the tournament's number and entries, not {shown(restore)}")
    opened, present = restore.get("opened"), restore.get("present")
    if opened is not None and not (type(opened) is int and 0 <= opened < 2**53):
        raise ValueError(f"opened is a millisecond, not {shown(opened)}")
    if present is not None and not (type(present) is int and 0 <= present < 2**31):
        raise ValueError(f"present is a count of students, not {shown(present)}")
    removed = restore.get("removed", [])
    if not isinstance(removed, list) or len(removed) > MAX_REMOVED or not all(map(_an_id, removed)):
        raise ValueError(f"removed is a list of at most {MAX_REMOVED} entries' ids, not {shown(removed)}")
    return restore


MAX_REMOVED = 2000  # entries' ids a restored tournament bars: more than it could ever have taken
ENTRY_ID = re.compile(r"[0-9a-f]{12}")


def _an_id(value):
    return isinstance(value, str) and ENTRY_ID.fullmatch(value) is not None
