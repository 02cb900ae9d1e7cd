"""A class's poll book: its questions about the next move of its run, their answers and results.

The owner of a class keeps the whole book. A process whose students follow another process's
class keeps a book too, of what it heard: the open question, the board's size, and the answers
given through it, so that it can check them before forwarding them to the owner.
"""

import time
from collections import Counter, deque
from contextlib import suppress

from ...engine.search import FOUND, VISIT
from ...replies import Refusal
from ..passes import Passes
from .checks import BAD_SURE, DISCUSS, FIRST, NEXT_STAGE, SECOND, check_square

HISTORY = 200  # revealed results a class keeps, the oldest dropped first

ALREADY_OPEN = "a question is open already: reveal or cancel it first"
ENDED = "the search has ended: there is no next move to predict"
COMPLETE = "the tour is complete: the next event reports it, not a move"
NONE_OPEN = "there is no open question"
CLOSED = "that question is closed"
ANSWERED = "you have answered this question already"
DISCUSSING = "the class is discussing: answers open again with the second round"
ROUND_CLOSED = "that round is closed"
ONE_ROUND = "this question has one round: reveal it"
NO_TRANSFER = "only the question revealed last can be asked again turned, and not a turned one"
NOT_ARRIVING = "only a question asked as the knight arrives on a square can be asked again turned"
MAX_TURNED = 400  # squares of the largest board asked about turned: its path goes to every student
TOO_LARGE = f"only a board of at most {MAX_TURNED} squares can be asked about turned"
BAD_STAGE = "a question with two rounds goes from the first round to the discussion, then to the second round"


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
    A two-round question (peer) takes answers alone, closes them while the class discusses,
    then takes everyone's answer again; confidence: each answer may say whether it is sure.
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
        peer=False,
        confidence=False,
        stage=FIRST,
        position=None,
        transfer=None,
    ):
        self.id, self.run, self.at, self.square = id, run, at, square
        self.index, self.of, self.series = index, of, series
        self.answer, self.kind, self.squares = answer, kind, squares
        self.asked, self.present = asked, present
        self.peer, self.confidence, self.stage = peer, confidence, stage
        self.rounds = [{} for _ in range(2 if stage == SECOND else 1)]  # each: voter -> (square, sure)
        # The owner's: (path, last event, search) where it was asked, to ask it again turned.
        self.position = position
        # A question asked again on the board turned: {"of": the question's id, "turn", "path"}.
        self.transfer = transfer
        # A soft timer the instructor started: (its seconds, when it ends on time.monotonic()).
        # It closes nothing: it tells the room how long the instructor means to wait.
        self.timer = None

    @property
    def answers(self):
        """Return the answers of the round open (the first one's while the class discusses)."""
        return self.rounds[-1]

    def late(self, voter):
        """Tell whether a voter's pass was issued once the question was asked."""
        return self.asked is not None and Passes.issued(voter) >= self.asked

    def counted(self, answers):
        """Return the answers of a round from the voters present when it was asked, by voter."""
        return {voter: given for voter, given in answers.items() if not self.late(voter)}

    def advance(self, stage):
        """Go on to the stage asked for: the discussion after the first round, then the second round."""
        if not self.peer:
            raise Refusal("question.one_round", ONE_ROUND)
        if stage not in NEXT_STAGE.values() or NEXT_STAGE.get(self.stage) != stage:
            raise Refusal("question.bad_stage", BAD_STAGE)
        self.stage = stage
        if stage == SECOND:
            self.rounds.append({})

    @classmethod
    def heard(cls, question, squares):
        """Return the question another process opened, as its room was told it."""
        fields = ("id", "run", "at", "square", "index", "of", "series")
        flags = {name: question.get(name) is True for name in ("peer", "confidence")}
        stage = question.get("stage")
        transfer = question.get("transfer")
        return cls(
            *(question.get(name) for name in fields),
            squares=squares,
            asked=question.get("asked"),
            transfer=transfer if isinstance(transfer, dict) else None,
            stage=stage if stage in (FIRST, DISCUSS, SECOND) else FIRST,
            **flags,
        )

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
            "peer": self.peer,
            "confidence": self.confidence,
            "stage": self.stage,
            "round": len(self.rounds),
            "transfer": self.transfer,
            "timer": self.timer_news(),
        }

    def start_timer(self, seconds, now):
        """Start (or start again) a soft timer of that many seconds."""
        self.timer = (seconds, now + seconds)

    def timer_news(self, now=None):
        """Return the soft timer as a page is told it: its seconds and those left (None: no timer)."""
        if self.timer is None:
            return None
        seconds, ends = self.timer
        left = max(0.0, ends - (time.monotonic() if now is None else now))
        return {"seconds": seconds, "left": round(left, 1)}

    def count(self):
        """Return how many have answered the round open: those present when it was asked (and of
        them, seats), those who joined later, and how many students followed the class when it was asked."""
        return {**self._tallied(self.answers), "present": self.present}

    def _tallied(self, answers):
        """Return how many of a round's answers count, how many are late, and how many of those
        that count are students' seats' (which no script's are)."""
        counted = self.counted(answers)
        return {
            "answered": len(counted),
            "late": len(answers) - len(counted),
            "seated": sum(map(Passes.seated, counted)),
        }

    def _side(self, square):
        return "right" if square == self.answer else "wrong"

    def _round(self, answers):
        """Return how the class answered one round: counts by square, right, and how sure."""
        counted = self.counted(answers)
        counts = Counter(square for square, _ in counted.values())
        tally = {
            **self._tallied(answers),
            "counts": [[square, n] for square, n in sorted(counts.items())],
            "right": counts[self.answer],
        }
        if self.confidence:
            sure = {key: {"sure": 0, "unsure": 0, "unsaid": 0} for key in ("right", "wrong")}
            for square, said in counted.values():
                sure[self._side(square)]["unsaid" if said is None else "sure" if said else "unsure"] += 1
            tally["sure"] = sure
        return tally

    def shift(self):
        """Return how the voters counted in both rounds moved: [from, to, n] by pair of squares,
        and how many stayed right, went from wrong to right, from right to wrong, stayed wrong."""
        first, second = (self.counted(answers) for answers in self.rounds)
        pairs = Counter((first[voter][0], square) for voter, (square, _) in second.items() if voter in first)
        moved = Counter()
        for (was, now), n in pairs.items():
            moved[f"{self._side(was)}_{self._side(now)}"] += n
        keys = ("right_right", "wrong_right", "right_wrong", "wrong_wrong")
        return [[was, now, n] for (was, now), n in sorted(pairs.items())], {key: moved[key] for key in keys}

    def result(self):
        """Return the question with its answer and how the class answered: each round, and the
        last round's at the top (late voters apart)."""
        rounds = [self._round(answers) for answers in self.rounds]
        last = rounds[-1]
        result = {
            **self.question(),
            "present": self.present,
            "answer": self.answer,
            "kind": self.kind,
            **{key: last[key] for key in ("answered", "late", "seated", "counts", "right")},
            "rounds": rounds,
        }
        if len(self.rounds) == 2:
            result["shift"], result["moved"] = self.shift()
        return result


class PollBook:
    """A class's questions: the open one, its series, and the results of those revealed."""

    def __init__(self):
        self.open = None
        self.history = deque(maxlen=HISTORY)
        self.squares = None  # the board's size, as heard from another process's run
        self._last_id = 0
        self._turnable = None  # the last question revealed that is not a turned one
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

    def pose(
        self,
        run,
        at,
        move,
        squares,
        series=None,
        *,
        present=None,
        asked=None,
        peer=False,
        confidence=False,
        position=None,
        transfer=None,
    ):
        """Open a question about the move (square, answer, kind) that follows event `at` of run.

        series: start a series of that many questions; None goes on with an unfinished series,
        or asks a single question. present: how many students follow the class now; asked: the
        millisecond it is asked (Unix time), now if None; peer: two rounds; confidence: answers
        say how sure they are; position: (path, last event, search) where it is asked, to ask it
        again turned; transfer: what the question turns of the one revealed last (see turnable),
        asked outside the series, which goes on after it.
        """
        if self.open is not None:
            raise Refusal("question.open_already", ALREADY_OPEN)
        if transfer is not None:
            of = self.history[-1]
            place = of["index"], of["of"], of["series"]
        else:
            if series is not None:
                self._series, self._of, self._done = self._series + 1, series, 0
            elif self._done >= self._of:
                self._series, self._of, self._done = self._series + 1, 1, 0
            place = self._done + 1, self._of, self._series
        self._last_id += 1
        square, answer, kind = move
        self.open = Poll(
            self._last_id,
            run,
            at,
            square,
            *place,
            answer=answer,
            kind=kind,
            squares=squares,
            asked=int(time.time() * 1000) if asked is None else asked,
            present=present,
            peer=peer,
            confidence=confidence,
            position=position,
            transfer=transfer,
        )
        return self.open

    def turnable(self, id):
        """Return (path, search) of question id, to ask again on the board turned: the question
        revealed last, itself not turned, asked as the knight arrived on a square."""
        if self.open is not None:
            raise Refusal("question.open_already", ALREADY_OPEN)
        if self._turnable is None or self._turnable.id != id or self.history[-1]["id"] != id:
            raise Refusal("question.no_transfer", NO_TRANSFER)
        path, last, search = self._turnable.position
        if len(search.graph) > MAX_TURNED:
            raise Refusal("question.board_too_large", TOO_LARGE, count=MAX_TURNED)
        if not path or last is None or last[0] != VISIT or last[1] != path[-1]:
            raise Refusal("question.not_arriving", NOT_ARRIVING)
        return path, search

    def open_question(self, id):
        """Return the open question if it is number id, else raise ValueError."""
        if self.open is None:
            raise Refusal("question.none_open", NONE_OPEN)
        if id != self.open.id:
            raise Refusal("question.closed", CLOSED)
        return self.open

    def answer(self, voter, id, square, sure=None, round=None):
        """Take a voter's answer to question id: one each a round, a square of the board, and how
        sure it is if the question asks (None: not said). round: the round it answers (None: the
        round open). Return whether it is late: counted apart, the voter having joined after the
        question was asked."""
        poll = self.open_question(id)
        check_square(square, poll.squares)
        if round is not None and round != len(poll.rounds):
            raise Refusal("question.round_closed", ROUND_CLOSED)
        if poll.stage == DISCUSS:
            raise Refusal("question.discussing", DISCUSSING)
        if sure is not None and not poll.confidence:
            raise Refusal("question.bad_sure", BAD_SURE)
        if voter in poll.answers:
            raise Refusal("question.answered", ANSWERED)
        poll.answers[voter] = (square, sure)
        return poll.late(voter)

    def advance(self, id, stage):
        """Take question id to the stage asked for (see Poll.advance) and return it."""
        poll = self.open_question(id)
        poll.advance(stage)
        return poll

    def withdraw(self, voter, id):
        """Forget a voter's answer to question id (it could not be passed on)."""
        if self.open is not None and self.open.id == id:
            self.open.answers.pop(voter, None)

    def answer_of(self, voter):
        """Return the voter's answers to the open question: the square it gave in the round open
        (None while the class discusses), and in the first round once that is closed."""
        if self.open is None:
            return None, None
        given = [answers.get(voter) for answers in self.open.rounds]
        first = given[0][0] if given[0] else None
        if self.open.stage == FIRST:
            return first, None
        if self.open.stage == DISCUSS:
            return None, first
        return (given[1][0] if given[1] else None), first

    def reveal(self, id):
        """Close question id and return its result, kept in the history."""
        poll = self.open_question(id)
        self.open = None
        if poll.transfer is None:
            self._done += 1
            self._turnable = poll if poll.position is not None else None
        result = poll.result()
        self.history.append(result)
        try:
            self.turnable(id)
        except ValueError:
            result["turnable"] = False
        else:
            result["turnable"] = True  # the instructor's page offers to ask it again turned
        return result

    def cancel(self, id):
        """Drop question id unanswered: its place in its series goes to the next question."""
        poll = self.open_question(id)
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
        elif event == "poll_stage" and self.open is not None and payload.get("id") == self.open.id:
            # Told again (a room brought up to date), or out of order: the stage stands.
            with suppress(ValueError):
                self.open.advance(payload.get("stage"))
        elif event in ("poll_revealed", "poll_closed") and self.open is not None:
            if payload.get("id") == self.open.id:
                self.open = None

    def _heard_open(self, question):
        if not isinstance(question, dict):
            self.open = None
        elif self.open is None or self.open.id != question.get("id"):
            # The same question heard again (a room brought up to date) keeps its answers.
            self.open = Poll.heard(question, self.squares)
