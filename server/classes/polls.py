"""A class's poll book: its questions about the next move of its run, their answers and results.

The owner of a class keeps the whole book. A process whose students follow another process's
class keeps a book too, of what it heard: the open question, the board's size, and the answers
given through it, so that it can check them before forwarding them to the owner.
"""

import time
from collections import Counter, deque

from ..engine.search import FOUND, VISIT
from ..replies import Refusal
from ..wire import MAX_SIDE
from .passes import Passes

HISTORY = 200  # revealed results a class keeps, the oldest dropped first
MAX_SERIES = 20
ANY_BOARD = MAX_SIDE * MAX_SIDE  # squares of the largest board, while a board's own is not known

ALREADY_OPEN = "a question is open already: reveal or cancel it first"
ENDED = "the search has ended: there is no next move to predict"
COMPLETE = "the tour is complete: the next event reports it, not a move"
NONE_OPEN = "there is no open question"
CLOSED = "that question is closed"
ANSWERED = "you have answered this question already"
BAD_SQUARE = "square must be a square of the board"
BAD_ID = "id must be a question's number"
BAD_SERIES = f"series must be a whole number from 1 to {MAX_SERIES}"


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


def check_series(data):
    """Return the length of the series a poll_open asks to start, or None to go on."""
    if data is None:
        return None
    if not isinstance(data, dict):
        raise ValueError(BAD_SERIES)
    series = data.get("series")
    if series is None:
        return None
    if type(series) is not int or not 1 <= series <= MAX_SERIES:
        raise ValueError(BAD_SERIES)
    return series


def board_squares(started):
    """Return how many squares the board of a run's 'started' payload has (None: no run)."""
    if not isinstance(started, dict):
        return None
    rows, cols = started.get("rows"), started.get("cols")
    return rows * cols if type(rows) is int and type(cols) is int else None


def prediction(ahead):
    """Return (square, answer, kind) of a question about a run's next event, or raise ValueError.

    ahead is Player.upcoming(): the knight's square (None before the first event), the square
    it goes to next, and "visit" or "back" (a backtrack, to the square before it on the path).
    """
    path, upcoming = ahead["path"], ahead["next"]
    if upcoming is None:
        raise Refusal("question.search_ended", ENDED)
    kind, vertex, depth = upcoming
    if kind == FOUND:
        raise Refusal("question.tour_complete", COMPLETE)
    square = path[-1] if path else None
    if kind == VISIT:
        return square, vertex, "visit"
    if depth == 0:  # out of the start square: the search is over
        raise Refusal("question.search_ended", ENDED)
    return square, path[-2], "back"


class Poll:
    """One question: where the run stands, its next move (if known here), and answers by voter.

    The owner's copy also knows when it was asked and how many students followed the class
    then: a voter whose pass was issued later joined after the question, and is counted apart.
    """

    def __init__(
        self,
        id,
        run,
        at,
        square,
        index,
        of,
        series,
        *,
        answer=None,
        kind=None,
        squares=None,
        asked=None,
        present=None,
    ):
        self.id, self.run, self.at, self.square = id, run, at, square
        self.index, self.of, self.series = index, of, series
        self.answer, self.kind, self.squares = answer, kind, squares
        self.asked, self.present = asked, present
        self.answers = {}  # voter -> square

    def late(self, voter):
        """Tell whether a voter's pass was issued once the question was asked."""
        return self.asked is not None and Passes.issued(voter) >= self.asked

    def tally(self):
        """Return (answers of the voters present when it was asked, by square; answers of later ones)."""
        counts, late = Counter(), 0
        for voter, square in self.answers.items():
            if self.late(voter):
                late += 1
            else:
                counts[square] += 1
        return counts, late

    @classmethod
    def heard(cls, question, squares):
        """Return the question another process opened, as its room was told it."""
        fields = ("id", "run", "at", "square", "index", "of", "series")
        return cls(*(question.get(name) for name in fields), squares=squares, asked=question.get("asked"))

    def question(self):
        """Return the question as the room is told it."""
        return {
            "id": self.id,
            "run": self.run,
            "at": self.at,
            "square": self.square,
            "index": self.index,
            "of": self.of,
            "series": self.series,
            "asked": self.asked,  # so that any process can tell a late answer (see late)
        }

    def count(self):
        """Return how many have answered: those present when it was asked, those who joined later,
        and how many students followed the class when it was asked."""
        counts, late = self.tally()
        return {"answered": counts.total(), "late": late, "present": self.present}

    def result(self):
        """Return the question with its answer and how the class answered (late voters apart)."""
        counts, _ = self.tally()
        return {
            **self.question(),
            **self.count(),
            "answer": self.answer,
            "kind": self.kind,
            "counts": [[square, n] for square, n in sorted(counts.items())],
            "right": counts[self.answer],
        }


class PollBook:
    """A class's questions: the open one, its series, and the results of those revealed."""

    def __init__(self):
        self.open = None
        self.history = deque(maxlen=HISTORY)
        self.squares = None  # the board's size, as heard from another process's run
        self._last_id = 0
        # The class's latest series: its number, its length, and its questions revealed so far.
        self._series, self._of, self._done = 0, 0, 0

    def question(self):
        """Return the open question as the room is told it, or None."""
        return self.open.question() if self.open is not None else None

    def answered(self):
        """Return how many have answered the open question, as Poll.count() (None with none open)."""
        return self.open.count() if self.open is not None else None

    def results(self):
        """Return the results of the revealed questions, oldest first."""
        return list(self.history)

    def pose(self, run, at, move, squares, series=None, *, present=None, asked=None):
        """Open a question about the move (square, answer, kind) that follows event `at` of run.

        series: start a series of that many questions; None goes on with an unfinished series,
        or asks a single question. present: how many students follow the class now; asked: the
        millisecond it is asked (Unix time), now if None.
        """
        if self.open is not None:
            raise Refusal("question.open_already", ALREADY_OPEN)
        if series is not None:
            self._series, self._of, self._done = self._series + 1, series, 0
        elif self._done >= self._of:
            self._series, self._of, self._done = self._series + 1, 1, 0
        self._last_id += 1
        square, answer, kind = move
        self.open = Poll(
            self._last_id,
            run,
            at,
            square,
            self._done + 1,
            self._of,
            self._series,
            answer=answer,
            kind=kind,
            squares=squares,
            asked=int(time.time() * 1000) if asked is None else asked,
            present=present,
        )
        return self.open

    def _asked(self, id):
        """Return the open question if it is number id, else raise ValueError."""
        if self.open is None:
            raise Refusal("question.none_open", NONE_OPEN)
        if id != self.open.id:
            raise Refusal("question.closed", CLOSED)
        return self.open

    def answer(self, voter, id, square):
        """Take a voter's answer to question id: one each, a square of the board. Return whether
        it is late: counted apart, the voter having joined after the question was asked."""
        poll = self._asked(id)
        check_square(square, poll.squares)
        if voter in poll.answers:
            raise Refusal("question.answered", ANSWERED)
        poll.answers[voter] = square
        return poll.late(voter)

    def withdraw(self, voter, id):
        """Forget a voter's answer to question id (it could not be passed on)."""
        if self.open is not None and self.open.id == id:
            self.open.answers.pop(voter, None)

    def answer_of(self, voter):
        """Return the voter's answer to the open question, or None."""
        return self.open.answers.get(voter) if self.open is not None else None

    def reveal(self, id):
        """Close question id and return its result, kept in the history."""
        poll = self._asked(id)
        self.open = None
        self._done += 1
        result = poll.result()
        self.history.append(result)
        return result

    def cancel(self, id):
        """Drop question id unanswered: its place in its series goes to the next question."""
        poll = self._asked(id)
        self.open = None
        return poll

    def heard(self, event, payload):
        """Note what the owner of a class told its room: its run's board, and its questions."""
        if not isinstance(payload, dict):
            return
        if event == "started" and not payload.get("lane"):
            self.squares = board_squares(payload)
        elif event == "class_state":
            self.squares = board_squares(payload.get("run"))
            self._heard_open(payload.get("poll"))
        elif event == "poll_opened":
            self._heard_open(payload)
        elif event in ("poll_revealed", "poll_closed") and self.open is not None:
            if payload.get("id") == self.open.id:
                self.open = None

    def _heard_open(self, question):
        if not isinstance(question, dict):
            self.open = None
        elif self.open is None or self.open.id != question.get("id"):
            # The same question heard again (a room brought up to date) keeps its answers.
            self.open = Poll.heard(question, self.squares)
