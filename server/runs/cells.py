"""Boards searched to their end one after another, off the worker that serves the sockets.

A feed takes its boards from a source as it goes, keeps at most `in_flight` of them at the
helper processes (pool.py) in its share's turn, a leg at a time (LEG seconds: a large board's
search takes seconds, and a helper that searched it whole kept everyone else waiting as long,
the class's own run included), and hands each board's end to a callback as it comes. With no
helpers the worker searches the boards itself, a slice of about a millisecond at a time in its
share's turns at searching (turns.py) beside the skips and fastest runs, so that
the worker's loop polls its sockets and timers between slices: a board searched whole held every
other stream for as long as it took (8 s for a strip of 6 boards). A strip (strips.py) and a
class's tournament (classes/tournament/events.py) are each one feed.
"""

import threading
import time

from ..engine.legs import cell_job
from ..engine.survey import LOST, Board
from ..extension import socketio
from .pool import LEG

LOST_CELL = {"outcome": LOST, "backtracks": 0, "events": 0}
# Without helpers: seconds of one board's search in one turn, and the events searched between
# two looks at the clock (a few hundred microseconds on a large board with a costly ordering).
SLICE = 0.001
PIECE = 128


class CellFeed:
    """Search the boards that take() gives, (key, (rows, cols, start, order, seed, budget)), at
    a registry's helpers (registry.py) or in its turns here, and call deliver(key, result) with
    each one's end (survey.cell); take() gives None when it has no board for now, and more()
    asks it again."""

    def __init__(self, registry, share, take, deliver, in_flight):
        # Its helpers (None: the worker searches), and its turns at searching here (turns.py).
        self.pool, self._turns, self.share = registry.pool, registry.turns, share
        self._take, self._deliver, self._in_flight = take, deliver, in_flight
        self._asked = set()  # futures of the boards at the helpers
        self._searching = False  # the worker searches boards itself (no helpers)
        self._ended = False
        self._lock = threading.Lock()

    def more(self):
        """Ask for boards until in_flight are at the helpers (or start searching them here)."""
        if self.pool is None:
            with self._lock:
                start, self._searching = not (self._searching or self._ended), True
            if start:
                socketio.start_background_task(self._search_here)
            return
        while self._ask_next():
            pass

    @property
    def stopped(self):
        """Tell whether the feed was stopped."""
        return self._ended

    def stop(self):
        """Stop asking; boards waiting for a helper are never searched."""
        with self._lock:
            self._ended = True
            asked, self._asked = self._asked, set()
        for future in asked:
            future.cancel()

    def _ask_next(self):
        with self._lock:
            board = None
            if not self._ended and len(self._asked) < self._in_flight:
                board = self._take()
            if board is None:
                return False
            self._ask(*board)
        return True

    def _ask(self, key, board, state=None):
        """Ask for a leg of a board, from state (the lock is held)."""
        future = self.pool.ask(self.share, cell_job(board, state, LEG))
        self._asked.add(future)
        future.add_done_callback(lambda done: self._answered(done, key, board))

    def _answered(self, future, key, board):
        with self._lock:
            self._asked.discard(future)
            if self._ended or future.cancelled():
                return
            try:
                answer = future.result()
            except OSError:  # a helper lost (killed, out of memory): the board says so
                answer = {"end": LOST_CELL}
            if "state" in answer:  # it goes on, in its share's next turn
                self._ask(key, board, answer["state"])
                return
        self._deliver(key, answer["end"])
        self.more()

    def _search_here(self):
        """Search the boards here, a slice at a time in the share's turns, until none is left."""
        while (board := self._next_here()) is not None:
            key, args = board
            searching = end = None
            while end is None:
                time.sleep(0)  # let other clients' work in between slices, under gevent too
                with self._turns.turn(self.share):
                    if self._ended:
                        break
                    searching = searching or Board(*args)  # its graph built in a turn too
                    end = _slice(searching)
            if end is not None:
                self._deliver(key, end)

    def _next_here(self):
        """Return the next board to search here, or None (and no longer searching)."""
        with self._lock:
            board = None if self._ended else self._take()
            if board is None:
                self._searching = False
            return board


def _slice(board, clock=time.monotonic):
    """Search a board on for about SLICE seconds; return its end, or None if it goes on."""
    until = clock() + SLICE
    while (end := board.search(PIECE)) is None and clock() < until:
        pass
    return end
