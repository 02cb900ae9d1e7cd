"""Socket.IO handlers of a class's tournament: the instructor opens, closes and tidies it up,
students enter their orderings, and the room is told the standings' news as the boards end.

The boards are searched off the worker that serves the sockets, by the helper processes, as one
feed (runs/cells.py) in the class's own line at the helpers: a tournament of 200 entries takes
its turns beside each student's own searches, not before them. The feed keeps one board more at
the helpers than there are helpers, so that every core the pool is given is used.
"""

from flask import request

from ..engine.orderings import check_order
from ..extension import socketio
from ..replies import Refusal, answered
from ..runs.cells import CellFeed
from ..runs.registry import runs
from ..wire import parse_tournament, shown
from .events import NOT_FOLLOWING, led
from .poll_events import Throttle
from .registry import classes, directory
from .tournaments import Tournament, check_name, check_title, entry_id

NEWS_EVERY = 0.5  # seconds between two news of the standings: two a second at most
OPEN_ALREADY = "a tournament is open already: close it first"
NONE_YET = "the class has no tournament"


def _tournament(klass):
    if klass.tournament is None:
        raise Refusal("tournament.none", NONE_YET)
    return klass.tournament


def _everyone(klass):
    """Return who is told the tournament's news: the room, and its instructor, who is not in it."""
    return [klass.room] + ([klass.instructor] if klass.instructor is not None else [])


def _begin(klass, tournament):
    """Make tournament the class's (stopping the search of an earlier one) and search its boards."""
    registry = runs()
    in_flight = registry.pool.size + 1 if registry.pool is not None else 1

    def deliver(key, result):
        if tournament.record(key, result):
            klass.standings.poke()

    feed = CellFeed(registry.pool, ("tournament", klass.code), tournament.take, deliver, in_flight)
    with klass.lock:
        before, klass.contest, klass.tournament = klass.contest, feed, tournament
        if klass.standings is None:
            klass.standings = Throttle(
                lambda: _send_news(klass), NEWS_EVERY, socketio.start_background_task, socketio.sleep
            )
    if before is not None:
        before.stop()
    socketio.emit("tournament", tournament.state(), to=_everyone(klass))
    feed.more()


def _send_news(klass):
    tournament = klass.tournament
    if tournament is not None:
        socketio.emit("tournament_news", tournament.news(), to=_everyone(klass))


@socketio.on("tournament_open")
@answered
def on_tournament_open(data=None):
    """The instructor's page opens a tournament (or, after a restart, brings its last one back)."""
    klass = led()
    rules = parse_tournament(data)
    restore = data.get("restore")
    before = klass.tournament
    if before is not None and (before.open or restore is not None):
        raise Refusal("tournament.open_already", OPEN_ALREADY)
    if restore is not None:
        if not isinstance(restore, dict) or type(restore.get("tournament")) is not int:
            raise ValueError(f"restore needs the tournament's number and entries, not {shown(restore)}")
        tournament = Tournament(restore["tournament"], rules)
        tournament.restore(restore.get("entries"))
        if restore.get("open") is False:
            tournament.close()
    else:
        tournament = Tournament(before.number + 1 if before is not None else 1, rules)
    _begin(klass, tournament)
    return tournament.state()


@socketio.on("tournament_close")
@answered
def on_tournament_close(data=None):
    """The instructor's page takes no more entries; those taken are searched to the end."""
    klass = led()
    _tournament(klass).close()
    klass.standings.poke()


@socketio.on("tournament_hide")
@answered
def on_tournament_hide(data=None):
    """The instructor's page hides an entry's nickname from the room (or shows it again)."""
    klass = led()
    if not isinstance(data, dict) or not isinstance(data.get("entry"), str):
        raise ValueError(f"'tournament_hide' needs an object with an entry's id, not {shown(data)}")
    if not isinstance(data.get("hidden", True), bool):
        raise ValueError("'tournament_hide' takes hidden true or false")
    _tournament(klass).hide(data.get("entry"), data.get("hidden", True))
    klass.standings.poke()


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
    registry = classes()
    klass = registry.followed_by(request.sid)
    if klass is None:
        raise Refusal("class.not_following", NOT_FOLLOWING)
    voter = registry.voter_of(request.sid)
    if klass.remote:
        # Checked here, entered by the class's owner: its news tells the page it was taken.
        directory().enter(klass.code, voter, order, name, title)
    else:
        _enter(klass, voter, order, name, title)
    return {"entry": entry_id(voter)}


def _enter(klass, voter, order, name, title=None):
    _tournament(klass).enter(entry_id(voter), order, name, title=title)
    klass.standings.poke()
    klass.contest.more()


def enter_remote(registry, code, voter, order, name, title=None):
    """Enter an ordering a student sent through another process: checked there, refused quietly here."""
    klass = registry.owned(code)
    if klass is None or not isinstance(voter, str):
        return
    try:
        _enter(klass, voter, order, name, title)
    except ValueError:
        return  # closed, full, or too soon: the student's page sees no entry of theirs
