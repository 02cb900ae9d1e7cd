"""What a code exercise's requests must be, checked as they arrive: the exercise asked and its
board, and a student's verdict on their own code."""

from ...codelab.exercises import EXERCISES
from ...replies import Refusal
from ...wire import MAX_SIDE, integer

EXERCISE_IDS = tuple(exercise["id"] for exercise in EXERCISES)
# What may stop a student's code before its search ends (server/codelab/runner.py's sentences).
PROBLEMS = frozenset(
    {
        "lab.syntax",
        "lab.error",
        "lab.noMain",
        "lab.halted",
        "lab.recursion",
        "lab.offBoard",
        "lab.onPath",
        "lab.notAMove",
        "lab.notTheStart",
        "lab.notTheEnd",
        "lab.notAnEvent",
    }
)
# A student's page sends its verdict after each run of theirs, at most once in this many seconds
# (the last one waits its turn): 300 pages cost the worker what their answers to a question do.
VERDICT_EVERY = 3.0
MAX_EVENTS = 2**53 - 1  # a count the page's numbers hold exactly
MAX_CODE_BYTES = 12_000  # a student's code shown to the instructor (the book's is 2.1 KB)
SHOW_NEEDS = "'exercise_show' needs an object with id and code (your code, as text)"
CODE_TOO_LONG = f"the code shown to the instructor may be at most {MAX_CODE_BYTES:,} bytes"
BAD_EXERCISE = f"exercise must be one of {', '.join(EXERCISE_IDS)}"
BAD_VERDICT = (
    "'exercise_verdict' needs an object with id, matched (true or false), events (how many your "
    "search made), differs ([event, square or null] or null) and problem (null or why it stopped)"
)


def check_opening(data):
    """Return (exercise id, rows, cols, start) of an exercise_open, or raise ValueError."""
    if not isinstance(data, dict):
        raise ValueError(BAD_EXERCISE)
    exercise = data.get("exercise")
    if exercise not in EXERCISE_IDS:
        raise Refusal("exercise.unknown", BAD_EXERCISE)
    rows = integer("rows", data.get("rows"), 1, MAX_SIDE)
    cols = integer("cols", data.get("cols"), 1, MAX_SIDE)
    start = integer("start", data.get("start"), 0, rows * cols - 1)
    return exercise, rows, cols, start


def check_number(data):
    """Return the exercise number a request names (its id), or raise ValueError."""
    number = data.get("id") if isinstance(data, dict) else None
    if type(number) is not int or number < 1:
        raise ValueError("id must be an exercise's number")
    return number


def check_shown(data):
    """Return (exercise number, code) of a student's exercise_show, or raise ValueError."""
    code = data.get("code") if isinstance(data, dict) else None
    if not isinstance(code, str):
        raise ValueError(SHOW_NEEDS)
    try:
        number = check_number(data)
    except ValueError:
        raise ValueError(SHOW_NEEDS) from None
    if len(code.encode()) > MAX_CODE_BYTES:
        raise Refusal("exercise.code_too_long", CODE_TOO_LONG, bytes=MAX_CODE_BYTES)
    return number, code


def check_verdict(data, squares):
    """Return a student's verdict on a board of that many squares as the instructor is told it:
    {id, matched, events, differs, problem}, or raise ValueError.

    differs is [the event where the student's search first parted from the engine's, the square
    of the student's event there (None: their search had ended)], or None if it did not part."""
    if not isinstance(data, dict):
        raise ValueError(BAD_VERDICT)
    number, matched, events = data.get("id"), data.get("matched"), data.get("events")
    differs, problem = data.get("differs"), data.get("problem")
    if type(number) is not int or number < 1 or type(matched) is not bool:
        raise ValueError(BAD_VERDICT)
    if type(events) is not int or not 0 <= events <= MAX_EVENTS:
        raise ValueError(BAD_VERDICT)
    if problem is not None and problem not in PROBLEMS:
        raise ValueError(BAD_VERDICT)
    if differs is not None:
        if not isinstance(differs, list) or len(differs) != 2:
            raise ValueError(BAD_VERDICT)
        at, square = differs
        if type(at) is not int or not 0 <= at <= events:
            raise ValueError(BAD_VERDICT)
        if square is not None and (type(square) is not int or not 0 <= square < squares):
            raise ValueError(BAD_VERDICT)
    if matched and (differs is not None or problem is not None):
        raise ValueError(BAD_VERDICT)
    return {"id": number, "matched": matched, "events": events, "differs": differs, "problem": problem}
