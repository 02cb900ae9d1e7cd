"""Socket.IO handlers of a strip: orderings tried on many boards, each board's end sent as it comes.

A strip is searched off the worker that serves the sockets, by the helper processes (through a
CellFeed, cells.py), a board at a time and at most IN_FLIGHT boards of a strip waiting at once:
strips take turns at the helpers, one line per browser, and a strip queues no more than that
however long it is. With no helpers (search_processes 0) the worker searches the boards itself,
a slice at a time in turns (cells.py), and takes no strip of more than MAX_HERE backtracks. A
page has one strip at a time: a new one, or its leaving, ends it.
"""

import itertools
import threading

from flask import request

from ..edge.badges import browser
from ..extension import socketio
from ..replies import Refusal, answered
from ..wire import parse_strip
from .cells import CellFeed
from .registry import runs

IN_FLIGHT = 2  # boards of one strip at the helpers at once: a helper never waits for its next
# Without helpers: backtracks a strip may ask for over all its boards (its boards times its
# budget). A backtrack costs about two events, and the worker searches some 0.5 to 1.5 million
# events a second when it has nothing else to do: 4 orderings on 96 boards at the default budget
# (3,840,000) take it up to 15 s, only in the time its streams leave.
MAX_HERE = 4_000_000
TOO_LARGE_HERE = (
    "this server searches strips itself, without helper processes: a strip may take at most "
    "{most:,} backtracks in all (its boards times the budget), and this one could take {asked:,}"
)
_ids = itertools.count(1)


class Strip:
    """One page's strip under way: its boards, searched by a feed of its own (cells.py)."""

    def __init__(self, sid, wanted, share, registry):
        self.sid, self.id, self.request = sid, next(_ids), wanted
        self._strips = registry.strips
        self._boards = enumerate(wanted.boards())
        self._done = 0
        self._lock = threading.Lock()
        self.feed = CellFeed(registry, share, self._take, self._send, IN_FLIGHT)

    def begin(self):
        """Ask for the first boards."""
        self.feed.more()

    def stop(self):
        """Stop asking; boards waiting for a helper are never searched."""
        self.feed.stop()

    def _take(self):
        board = next(self._boards, None)
        if board is None:
            return None
        index, (order, rows, cols, start) = board
        wanted = self.request
        return (index, order, rows, cols, start), (rows, cols, start, order, wanted.seed, wanted.budget)

    def _send(self, key, result):
        index, order, rows, cols, start = key
        board = {"index": index, "order": order, "rows": rows, "cols": cols, "start": start}
        socketio.emit("strip_board", {"strip": self.id, **board, **result}, to=self.sid, ignore_queue=True)
        with self._lock:
            self._done += 1
            finished = self._done == self.request.count
        if finished:
            socketio.emit("strip_done", {"strip": self.id}, to=self.sid, ignore_queue=True)
            self._strips.drop(self.sid, self)


@socketio.on("strip")
@answered
def on_strip(data=None):
    """A page asks how orderings fare on many boards; each board's end comes as 'strip_board'."""
    wanted = parse_strip(data)
    registry = runs()
    asked = wanted.count * wanted.budget
    if registry.pool is None and asked > MAX_HERE:
        values = {"most": MAX_HERE, "asked": asked}
        raise Refusal("strip.too_large_here", TOO_LARGE_HERE.format(**values), **values)
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
