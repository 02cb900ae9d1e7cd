"""Socket.IO handlers of a strip: orderings tried on many boards, each board's end sent as it comes.

A strip is searched off the worker that serves the sockets, by the helper processes (pool.py),
a board at a time and at most IN_FLIGHT boards of a strip waiting at once: strips take turns
at the helpers, one line per browser, and a strip queues no more than that however long it is.
With no helpers (search_processes 0) the worker searches the boards itself, one between
turns at everything else. A page has one strip at a time: a new one, or its leaving, ends it.
"""

import itertools
import threading

from flask import request

from ..edge.badges import browser
from ..engine.legs import cell_job
from ..engine.survey import LOST, cell
from ..extension import socketio
from ..replies import answered
from ..wire import parse_strip
from .registry import runs

IN_FLIGHT = 2  # boards of one strip at the helpers at once: a helper never waits for its next
_ids = itertools.count(1)


class Strip:
    """One page's strip under way: its boards still to search, and those at the helpers."""

    def __init__(self, sid, wanted, share, registry):
        self.sid, self.id, self.request = sid, next(_ids), wanted
        self.share, self.pool, self._strips = share, registry.pool, registry.strips
        self._boards = iter(enumerate(wanted.boards()))
        self._asked = set()  # futures of the boards at the helpers
        self._done = 0
        self._ended = False
        self._lock = threading.Lock()

    def begin(self):
        """Ask for the first boards (or search them here, with no helpers)."""
        if self.pool is None:
            socketio.start_background_task(self._search_here)
        else:
            for _ in range(IN_FLIGHT):
                self._ask_next()

    def stop(self):
        """Stop asking; boards waiting for a helper are never searched."""
        with self._lock:
            self._ended = True
            asked, self._asked = self._asked, set()
        for future in asked:
            future.cancel()

    def _ask_next(self):
        with self._lock:
            board = None if self._ended else next(self._boards, None)
            if board is None:
                return
            index, (order, rows, cols, start) = board
            job = cell_job(rows, cols, start, order, self.request.seed, self.request.budget)
            future = self.pool.ask(self.share, job)
            self._asked.add(future)
        future.add_done_callback(lambda done: self._answered(done, index, order, rows, cols, start))

    def _answered(self, future, index, order, rows, cols, start):
        with self._lock:
            self._asked.discard(future)
            if self._ended or future.cancelled():
                return
        try:
            result = future.result()
        except OSError:  # a helper lost (killed, out of memory): the board says so
            result = {"outcome": LOST, "backtracks": 0, "events": 0}
        self._send(index, order, rows, cols, start, result)
        self._ask_next()

    def _search_here(self):
        for index, (order, rows, cols, start) in self._boards:
            if self._ended:
                return
            result = cell(rows, cols, start, order, self.request.seed, self.request.budget)
            self._send(index, order, rows, cols, start, result)
            socketio.sleep(0)  # every other client's turn between two boards

    def _send(self, index, order, rows, cols, start, result):
        payload = {
            "strip": self.id,
            "index": index,
            "order": order,
            "rows": rows,
            "cols": cols,
            "start": start,
            **result,
        }
        socketio.emit("strip_board", payload, to=self.sid, ignore_queue=True)
        with self._lock:
            self._done += 1
            finished = self._done == self.request.count and not self._ended
        if finished:
            socketio.emit("strip_done", {"strip": self.id}, to=self.sid, ignore_queue=True)
            self._strips.drop(self.sid, self)


@socketio.on("strip")
@answered
def on_strip(data=None):
    """A page asks how orderings fare on many boards; each board's end comes as 'strip_board'."""
    wanted = parse_strip(data)
    registry = runs()
    share = ("strip", registry.seams.share(request.sid, browser(request.environ)))
    strip = Strip(request.sid, wanted, share, registry)
    registry.strips.replace(request.sid, strip)
    strip.begin()
    return {"strip": strip.id, "boards": wanted.count}


@socketio.on("strip_stop")
@answered
def on_strip_stop(data=None):
    """A page stops its strip (nothing happens if it has none)."""
    runs().strips.drop(request.sid)
