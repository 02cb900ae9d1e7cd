"""Socket.IO handlers: check requests, run one player per client, clean up on disconnect."""

import functools
import itertools
import logging
import threading
from dataclasses import asdict

from flask import current_app, request
from flask_socketio import emit

from . import socketio
from .graph import example_graph, knight_graph
from .messages import shown
from .options import parse_speed, parse_start
from .player import Player
from .search import BACKTRACK, VISIT, Search

log = logging.getLogger(__name__)

_run_ids = itertools.count(1)


class Runs:
    """The players of one app's clients, by client sid."""

    def __init__(self):
        self._players = {}
        self._lock = threading.Lock()

    def __len__(self):
        return len(self._players)

    def get(self, sid):
        """Return the client's player, or None."""
        return self._players.get(sid)

    def replace(self, sid, player):
        """Make player the client's, stopping the one it had."""
        with self._lock:
            old, self._players[sid] = self._players.get(sid), player
        if old is not None:
            old.stop()

    def drop(self, sid, player=None):
        """Forget and stop the client's player (only if it is player, when given)."""
        with self._lock:
            if player is None or self._players.get(sid) is player:
                player = self._players.pop(sid, None)
            else:
                player = None
        if player is not None:
            player.stop()


def init_app(app):
    """Give an app its own registry of runs."""
    app.extensions["knights_tour_runs"] = Runs()


def runs(app=None):
    """Return the registry of runs of an app (the current one by default)."""
    return (app or current_app).extensions["knights_tour_runs"]


def encode(batch):
    """Encode events compactly: visit v as v, backtrack v as -v-1, found as "found"."""
    return [
        v if kind is VISIT else -v - 1 if kind is BACKTRACK else kind for kind, v, _ in batch
    ]


def refuse(message):
    """Tell the client what was wrong and build the negative acknowledgement."""
    emit("error", {"message": message})
    return {"ok": False, "error": message}


def answered(handler):
    """Acknowledge a handler's event with ok, or with its ValueError's message."""

    @functools.wraps(handler)
    def wrapper(*args):
        try:
            return {"ok": True, **(handler(*args) or {})}
        except ValueError as exc:
            return refuse(str(exc))

    return wrapper


def current_player(action):
    """Return this client's running player, or raise ValueError naming the action."""
    player = runs().get(request.sid)
    if player is None:
        raise ValueError(f"there is no run to {action}: send 'start' first")
    return player


@socketio.on("start")
@answered
def on_start(data=None):
    """A page starts a run, replacing the one it had."""
    options = parse_start(data)
    if options.graph == "example":
        graph = example_graph()
        shape = {"names": list(graph.names), "moves": [list(m) for m in graph.adjacency]}
    else:
        graph, shape = knight_graph(options.rows, options.cols), {}
    start = graph.vertices()[options.start]
    search = Search(graph, start, options.order, **options.search_options())
    sid, run, registry = request.sid, next(_run_ids), runs()

    def send(batch, on_ack):
        payload = {"run": run, "events": encode(batch)}
        socketio.emit("events", payload, to=sid, callback=lambda *_: on_ack())

    def report(snapshot, on_ack):
        socketio.emit("progress", {"run": run, **snapshot}, to=sid, callback=lambda *_: on_ack())

    def finish(summary):
        socketio.emit("finished", {"run": run, **summary}, to=sid)
        registry.drop(sid, player)

    player = Player(
        search, send, report, finish,
        speed=options.speed, paused=options.paused, budget=options.budget,
    )
    registry.replace(sid, player)
    # Sent before the player's thread exists, so it reaches the page before any batch.
    emit("started", {"run": run, **asdict(options), **shape})
    player.start(socketio.start_background_task)
    return {"run": run}


@socketio.on("pause")
@answered
def on_pause(data=None):
    """A page pauses its run."""
    current_player("pause").pause()


@socketio.on("resume")
@answered
def on_resume(data=None):
    """A page resumes its paused run."""
    current_player("resume").resume()


@socketio.on("step")
@answered
def on_step(data=None):
    """A page asks for exactly one more event (pausing the run if it was playing)."""
    current_player("step").step()


@socketio.on("speed")
@answered
def on_speed(data=None):
    """A page changes the speed of its run."""
    speed = parse_speed(data)
    current_player("change the speed of").set_speed(speed)


@socketio.on("skip")
@answered
def on_skip(data=None):
    """A page skips to the end: the rest is searched without streaming (pause cancels)."""
    current_player("skip").skip()


@socketio.on("stop")
@answered
def on_stop(data=None):
    """A page ends its run (nothing happens if it has none)."""
    runs().drop(request.sid)


@socketio.on("disconnect")
def on_disconnect(reason=None):
    """A page has gone: its run ends with it."""
    runs().drop(request.sid)


@socketio.on("*")
def on_unknown(event, *args):
    """A client sent an event this server does not know."""
    return refuse(f"unknown event {shown(event)}")


@socketio.on_error_default
def on_failure(exc):
    """Report an unexpected failure to the client that caused it, and keep serving."""
    log.exception("handler failed", exc_info=exc)
    return refuse(f"the server could not handle that request ({type(exc).__name__})")
