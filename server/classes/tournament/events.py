"""Socket.IO handlers of a class's tournament: the instructor opens, closes and tidies it up,
students enter their orderings, and the room is told the standings' news as the boards end.

The boards are searched off the worker that serves the sockets, by the helper processes, as one
feed (runs/cells.py) in the class's own line at the helpers: a tournament of 200 entries takes
its turns beside each student's own searches, not before them. The feed keeps one board more at
the helpers than there are helpers, so that every core the pool is given is used.
"""

from flask import request

from ...engine.orderings import check_order
from ...extension import socketio
from ...replies import Refusal, answered
from ...runs.cells import CellFeed
from ...runs.registry import runs
from ..registry import classes, directory
from ..roles import followed, led, students_following
from .checks import check_name, check_restore, check_title, parse_entry, parse_hide, parse_tournament
from .slot import contest, everyone, tournament_of
from .tournaments import Tournament, entry_id

OPEN_ALREADY = "a tournament is open already: close it first"


def _begin(klass, tournament):
    """Make tournament the class's (stopping the search of an earlier one) and search its boards."""
    registry = runs()
    in_flight = registry.pool.size + 1 if registry.pool is not None else 1
    held = contest(klass)

    def deliver(key, result):
        if tournament.record(key, result):
            held.standings.poke()

    feed = CellFeed(registry, ("tournament", klass.code), tournament.take, deliver, in_flight)
    with klass.lock:
        before, held.feed, held.tournament = held.feed, feed, tournament
    if before is not None:
        before.stop()
    socketio.emit("tournament", tournament.state(), to=everyone(klass))
    feed.more()


@socketio.on("tournament_open")
@answered
def on_tournament_open(data=None):
    """The instructor's page opens a tournament (or, after a restart, brings its last one back)."""
    klass = led()
    rules = parse_tournament(data)
    restore = data.get("restore")
    before = contest(klass).tournament
    if before is not None and (before.open or restore is not None):
        raise Refusal("tournament.open_already", OPEN_ALREADY)
    if restore is not None:
        restore = check_restore(restore)
        kept = {key: restore.get(key) for key in ("opened", "present")}
        tournament = Tournament(restore["tournament"], rules, **kept, removed=restore.get("removed", []))
        tournament.restore(restore.get("entries"))
        if restore.get("open") is False:
            tournament.close()
    else:
        # Those present now are the tournament's students; a page that joins later enters apart.
        # A voter the instructor removed from the last tournament stays out of this one.
        number, removed = (before.number + 1, before.removed) if before is not None else (1, ())
        tournament = Tournament(number, rules, present=students_following(klass), removed=removed)
    _begin(klass, tournament)
    return tournament.state()


@socketio.on("tournament_close")
@answered
def on_tournament_close(data=None):
    """The instructor's page takes no more entries; those taken are searched to the end."""
    klass = led()
    tournament_of(klass).close()
    contest(klass).standings.poke()


@socketio.on("tournament_hide")
@answered
def on_tournament_hide(data=None):
    """The instructor's page hides an entry's nickname from the room (or shows it again)."""
    klass = led()
    entry, hidden = parse_hide(data)
    tournament_of(klass).hide(entry, hidden)
    contest(klass).standings.poke()


@socketio.on("tournament_remove")
@answered
def on_tournament_remove(data=None):
    """The instructor's page removes an entry, and takes no other from its student."""
    klass = led()
    tournament_of(klass).remove(parse_entry(data, "tournament_remove"))
    contest(klass).standings.poke()


@socketio.on("tournament_enter")
@answered
def on_tournament_enter(data=None):
    """A student's page enters its ordering (named or not) in the class's tournament, under a
    nickname or none."""
    if not isinstance(data, dict) or "order" not in data:
        raise ValueError("'tournament_enter' needs an object with order, and a name or none")
    order, name, title = (
        check_order(data["order"]),
        check_name(data.get("name")),
        check_title(data.get("title")),
    )
    klass = followed()
    voter = classes().voter_of(request.sid)
    if klass.remote:
        # Checked here, entered by the class's owner: its news tells the page it was taken.
        directory().enter(klass.code, voter, order, name, title)
    else:
        _enter(klass, voter, order, name, title)
    return {"entry": entry_id(voter)}


def _enter(klass, voter, order, name, title=None):
    tournament_of(klass).enter(entry_id(voter), order, name, title=title, voter=voter)
    contest(klass).standings.poke()
    contest(klass).feed.more()


def enter_remote(registry, code, voter, order, name, title=None):
    """Enter an ordering a student sent through another process: checked there, refused quietly here."""
    klass = registry.owned(code)
    if klass is None or not isinstance(voter, str):
        return
    try:
        _enter(klass, voter, order, name, title)
    except ValueError:
        return  # closed, full, too soon, removed or not a seat: the student's page sees no entry of theirs
