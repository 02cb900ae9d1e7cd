"""What a question's requests must be, checked as they arrive: ids, squares, rounds, stages,
turns, timers and how a question is asked."""

from ...engine.symmetry import BAD_TURN, TURNS
from ...replies import Refusal
from ...wire import MAX_SIDE

MAX_SERIES = 20
ANY_BOARD = MAX_SIDE * MAX_SIDE  # squares of the largest board, while a board's own is not known
BAD_SQUARE = "square must be a square of the board"
BAD_ID = "id must be a question's number"
BAD_SERIES = f"series must be a whole number from 1 to {MAX_SERIES}"
BAD_FLAG = "peer and confidence must be true or false"
BAD_ROUND = "round must be 1 or 2"
BAD_SURE = "sure must be true or false, and only for a question that asks how sure you are"
TIMER_SECONDS = (10, 600)  # a soft timer's shortest and longest
BAD_TIMER = f"seconds must be a whole number from {TIMER_SECONDS[0]} to {TIMER_SECONDS[1]}"
# A two-round question (Peer Instruction) goes through these stages; a one-round one stays in the first.
FIRST, DISCUSS, SECOND = "first", "discuss", "second"
NEXT_STAGE = {FIRST: DISCUSS, DISCUSS: SECOND}
BAD_STAGE_NAME = f"stage must be '{DISCUSS}' or '{SECOND}'"


def check_id(value):
    """Return value if it can be a question's number, else raise ValueError."""
    if type(value) is not int or value < 1:
        raise ValueError(BAD_ID)
    return value


def check_square(value, squares=None):
    """Return value if it is a square of a board of that many squares (any board: None)."""
    if type(value) is not int or not 0 <= value < (squares or ANY_BOARD):
        raise Refusal("question.bad_square", BAD_SQUARE)
    return value


def check_asking(data):
    """Return what a poll_open asks: (the length of a series to start or None to go on, whether the
    question has two rounds, whether each answer says how sure it is)."""
    if data is None:
        return None, False, False
    if not isinstance(data, dict):
        raise ValueError(BAD_SERIES)
    series = data.get("series")
    if series is not None and (type(series) is not int or not 1 <= series <= MAX_SERIES):
        raise ValueError(BAD_SERIES)
    peer, confidence = data.get("peer", False), data.get("confidence", False)
    if type(peer) is not bool or type(confidence) is not bool:
        raise ValueError(BAD_FLAG)
    return series, peer, confidence


def check_timer(value):
    """Return the seconds of a soft timer, or raise ValueError."""
    if type(value) is not int or not TIMER_SECONDS[0] <= value <= TIMER_SECONDS[1]:
        raise ValueError(BAD_TIMER)
    return value


def check_round(value):
    """Return the round an answer is for (None: the round open), or raise ValueError."""
    if value is not None and (type(value) is not int or value not in (1, 2)):
        raise ValueError(BAD_ROUND)
    return value


def check_sure(value):
    """Return how sure an answer says it is (None: not said), or raise ValueError."""
    if value is not None and type(value) is not bool:
        raise Refusal("question.bad_sure", BAD_SURE)
    return value


def check_stage(value):
    """Return the stage a poll_stage moves a question on to, or raise ValueError."""
    if value not in (DISCUSS, SECOND):
        raise ValueError(BAD_STAGE_NAME)
    return value


def check_turn(value):
    """Return how a poll_transfer turns the board, or raise ValueError."""
    if value not in TURNS:
        raise ValueError(BAD_TURN)
    return value
