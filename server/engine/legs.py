"""A long search taken a leg at a time, in whichever process: where a search is, as plain data,
searching on from there for a while, and taking on where another process got to.

A search's state is its path and counts (see Search.resume), so a run that skips can hand its
search to a helper process for a leg and pick up where the helper left it; a run played flat
out has a helper search its next batch, and keep its events, written compactly. Run as a program
(serve), this module is such a helper: it reads jobs and writes their results as pickles.
"""

import itertools
import pickle
import sys
import time
from collections import deque
from operator import countOf, itemgetter

from .graph import Graph
from .outline import Outline
from .search import FOUND, VISIT, Search, canonical, compact
from .survey import Board

CELL = "cell"  # a job's first item for a strip's board (survey.cell), not a leg

# Events searched between two looks at the clock (about a millisecond).
SLICE = 1 << 12
# A strip's boards a helper keeps going between their legs (a few strips' worth at once): one
# asked for again after it was dropped is taken up again from where it got to, a little slower.
LIVE_BOARDS = 16


def where(search, events, last):
    """Return the state of a search that has made `events` events, the last of them `last`."""
    return {
        "events": events,
        "last": last,
        "path": list(search.path),
        "tours": search.tours,
        "last_tour": search.last_tour,
        "ended": search.ended,
    }


def go_on(search, state):
    """Return the events a search makes after the state it was left in (the first, if none yet)."""
    if state["last"] is None:
        return iter(search)
    path, tours, events = state["path"], state["tours"], state["events"]
    backtracks = (events - tours - len(path)) // 2  # events = visits + backtracks + tours
    return search.resume(path, state["last"], backtracks, tours, state["last_tour"])


def take_over(search, state):
    """Make a search's path and counts the state another process left it in; return its last event."""
    search.path[:] = state["path"]
    search.tours, search.last_tour = state["tours"], state["last_tour"]
    search.ended = state["ended"]
    if search.ended:
        search.backtracks = (state["events"] - search.tours - len(search.path)) // 2
    return None if state["last"] is None else canonical(state["last"])


def advance(search, events, count, made):
    """Take up to count more of a search's events, keeping none; return (how many it has made
    in all, the last taken or None if there was none)."""
    # Consumed in C: only the last event is kept.
    tail = deque(itertools.islice(events, count), maxlen=1)
    made = search.events_at_end() if search.ended else made + count
    return made, tail[0] if tail else None


def outline_at(state):
    """Return an empty outline of a search's tree from the state it was left in on."""
    path, tours = state["path"], state["tours"]
    return Outline((state["events"] - tours + len(path)) // 2, len(path))


def outline_of(events, search, made):
    """Return the outline (see outline.py, Outline.take) of events that a search just made,
    `made` in all."""
    if not events:
        return outline_at(where(search, made, None)).take()
    tours = countOf(map(itemgetter(0), events), FOUND)
    # The path before the first event: as deep as its square if it was a visit, one deeper if not.
    kind, _, depth = events[0]
    before = depth if kind is VISIT else depth + 1
    visits = (len(events) - tours + len(search.path) - before) // 2
    outline = Outline((made - search.tours + len(search.path)) // 2 - visits, before)
    outline.add_events(events, len(search.path), tours)
    return outline.take()


def skim(search, made, last, count, outline):
    """Search up to count events on from where a search is (`made` events, the last `last`)
    without making them, summing them up in outline (see Search.skim: no event is made but the
    few a start or a full path makes one by one); return (how many events the search has made
    in all, the last of them, None if none)."""
    if outline.skimmer is None or outline.skimmed_to != made:  # begun, or went on elsewhere: from where it is
        outline.skimmer = None
        events = go_on(search, where(search, made, last))
        ended = last is not None and search.is_last(last)
        while count and (last is None or len(search.path) == len(search.graph)) and not ended:
            last = next(events)
            outline.event(last)
            made, count, ended = made + 1, count - 1, search.is_last(last)
        if not count or ended:
            outline.skimmed_to = made
            return made, last
        outline.skimmer = search.skim(last, (made - search.tours - len(search.path)) // 2, outline.nodes)
        next(outline.skimmer)
    while count and not search.ended:
        # In pieces about a stretch long (two events a node), so that stretches are no longer.
        before, piece = len(search.path), min(count, 2 * outline.stretch_size())
        taken, low, high, last = outline.skimmer.send(piece)
        # Each visit lengthens the path and each backtrack shortens it; a tour reported does neither.
        visits = (taken - len(search.tour_nodes) + len(search.path) - before) // 2
        outline.piece(visits, low, high, search.nodes_at, search.tour_nodes, len(search.path))
        made, count = made + taken, count - piece
        if search.is_last(last):
            break
    made = search.events_at_end() if search.ended else made
    outline.skimmed_to = made
    return made, last


def search_on(search, state, limit, seconds, clock=time.monotonic):
    """Search on from state for about `seconds`, to `limit` events at most (None: no limit), or
    to the search's end; return the state reached, with the outline of the tree searched if
    state asks for one (see outline.py)."""
    count, last = state["events"], state["last"]
    outline = outline_at(state) if state.get("outline") else None
    if outline is None:
        events = go_on(search, state)
    else:
        take_over(search, state)  # a skim goes on from the search's own path
    deadline = clock() + seconds
    while limit is None or count < limit:
        slice_ = SLICE if limit is None else min(SLICE, limit - count)
        if outline is None:
            count, taken = advance(search, events, slice_, count)
        else:
            count, taken = skim(search, count, last, slice_, outline)
        last = taken or last
        if search.ended or clock() >= deadline:
            break
    reached = where(search, count, last)
    if outline is not None:
        reached["outline"] = outline.take()
    return reached


def kept(search, state, limit):
    """Return the events a search makes from state to `limit` events or its end, written
    compactly, and the state reached (with their outline if state asks for one: see outline.py)."""
    events = list(itertools.islice(go_on(search, state), limit - state["events"]))
    last = events[-1] if events else state["last"]
    reached = where(search, state["events"] + len(events), last)
    if state.get("outline"):
        reached["outline"] = outline_of(events, search, reached["events"])
    return reached, compact(events)


def job(search, state, limit, seconds):
    """Return a leg of a search as plain data, for a helper process (see serve); seconds None
    asks for the events to `limit` kept (see kept), not a leg of that long unsent."""
    graph = search.graph
    board = (graph.adjacency, graph.names, graph.shape)
    options = {"closed": search.closed, "all_tours": search.all_tours, "seed": search.seed}
    return (board, search.start, search.order, options, state, limit, seconds)


def run_job(board, start, order, options, state, limit, seconds):
    """Do the leg a job describes; return the state reached (and, with seconds None, the events)."""
    graph = Graph(*board)
    # The start is given by number: a named graph's search takes it by name.
    search = Search(graph, graph.vertices()[start], order, **options)
    return kept(search, state, limit) if seconds is None else search_on(search, state, limit, seconds)


def cell_job(board, state=None, seconds=None):
    """Return a strip's board, (rows, cols, start, order, seed, budget), as a job for a helper
    process: searched on from state (None: its start) for about `seconds` (None: to its end)."""
    return (CELL, board, state, seconds)


def cell_leg(boards, board, state, seconds, clock=time.monotonic):
    """Search a strip's board on from state (see survey.Board) for about `seconds` (None: to
    its end); return {"end": how it ended (see survey.cell)} or {"state": where it got to}.
    boards keeps the boards left going, newest last, so that the next leg of one goes on as it is."""
    live = boards.pop(board, None)
    if live is None or live.events != (0 if state is None else state["events"]):
        live = Board(*board, state=state)
    if seconds is None:
        return {"end": live.search()}
    deadline = clock() + seconds
    while (end := live.search(SLICE)) is None and clock() < deadline:
        pass
    if end is not None:
        return {"end": end}
    boards[board] = live
    while len(boards) > LIVE_BOARDS:
        del boards[next(iter(boards))]
    return {"state": live.state()}


def serve(reader=None, writer=None):
    """Do the jobs a parent process sends, one pickle in and one out each, until it closes the pipe."""
    reader = reader or sys.stdin.buffer
    writer = writer or sys.stdout.buffer
    boards = {}  # the strips' boards left going in this process (see cell_leg)
    while True:
        try:
            leg = pickle.load(reader)
        except EOFError:
            return
        pickle.dump(cell_leg(boards, *leg[1:]) if leg[0] == CELL else run_job(*leg), writer)
        writer.flush()
