"""Socket.IO handlers of a client's own run: start it, pause, resume, step, speed, skip, stop."""

import functools
import itertools
from dataclasses import asdict

from flask import request
from flask_socketio import emit

from ..edge.badges import browser
from ..engine import Search, example_graph, knight_graph
from ..extension import socketio
from ..replies import Refusal, answered
from ..wire import encode, parse_speed, parse_start
from .player import Player
from .registry import runs

_run_ids = itertools.count(1)


def checked(action):
    """Raise ValueError if this client may not take action on its run (a class's follower, say)."""
    runs().seams.check(request.sid, action)


def controlled(name, action, verb=None):
    """Apply a control to this client's run, and tell whoever else sees the run."""
    checked(name)
    registry = runs()
    player = registry.get(request.sid)
    if player is None:
        raise Refusal("run.none", f"there is no run to {verb or name}: send 'start' first")
    action(player)
    registry.seams.audience(request.sid, None).control(player)


@socketio.on("start")
@answered
def on_start(data=None):
    """A page starts a run, replacing the one it had (an instructor's run is its class's)."""
    checked("start")
    options = parse_start(data)
    if options.graph == "example":
        graph = example_graph()
        shape = {"names": list(graph.names), "moves": [list(m) for m in graph.adjacency]}
    else:
        graph, shape = knight_graph(options.rows, options.cols), {}
    start = graph.vertices()[options.start]
    search = Search(graph, start, options.order, **options.search_options())
    sid, run, registry = request.sid, next(_run_ids), runs()
    relay = registry.seams.audience(sid, run)
    # A shared run goes to whichever page leads it now (None while it is away).
    page = registry.seams.page(sid)
    turns, share = registry.turns, registry.seams.share(sid, browser(request.environ))

    def deliver(event, payload, on_ack):
        to = page()
        if to is None:
            on_ack()  # nobody to take it: the run is paused until its instructor is back
        else:
            # Straight to the page, which is connected here (a class is led from the process
            # that owns it): through the queue, a run would wait whenever Redis does.
            socketio.emit(event, payload, to=to, callback=lambda *_: on_ack(), ignore_queue=True)

    def send(batch, on_ack):
        # first numbers the batch's first event, so a follower who joined late can line up.
        payload = {"run": run, "first": player.events - len(batch), "events": encode(batch)}
        deliver("events", payload, on_ack)
        relay.batch(payload, player, getattr(batch, "outline", None))

    def report(snapshot, on_ack):
        deliver("progress", {"run": run, **snapshot}, on_ack)
        relay.progress(snapshot)

    def finish(summary):
        payload = {"run": run, **summary}
        to = page()
        if to is not None:
            socketio.emit("finished", payload, to=to, ignore_queue=True)
        relay.finished(payload, player)
        registry.discard(player)

    player = Player(
        search,
        send,
        report,
        finish,
        speed=options.speed,
        paused=options.paused,
        budget=options.budget,
        resume_at=options.resume_at,
        stalled=lambda stalled: relay.stalled(player, stalled),
        turn=lambda: turns.turn(share),
        leg=None if registry.pool is None else functools.partial(registry.pool.leg, share),
        outline_batches=relay.outlines,
    )
    registry.replace(sid, player)
    # Sent before the player's thread exists, so it reaches the page before any batch.
    started = {"run": run, **asdict(options), **shape}
    emit("started", started, ignore_queue=True)
    relay.started(started, player)
    player.start(socketio.start_background_task)
    return {"run": run}


@socketio.on("pause")
@answered
def on_pause(data=None):
    """A page pauses its run."""
    controlled("pause", Player.pause)


@socketio.on("resume")
@answered
def on_resume(data=None):
    """A page resumes its paused run."""
    controlled("resume", Player.resume)


@socketio.on("step")
@answered
def on_step(data=None):
    """A page asks for exactly one more event (pausing the run if it was playing)."""
    controlled("step", Player.step)


@socketio.on("speed")
@answered
def on_speed(data=None):
    """A page changes the speed of its run."""
    speed = parse_speed(data)
    controlled("speed", lambda player: player.set_speed(speed), "change the speed of")


@socketio.on("skip")
@answered
def on_skip(data=None):
    """A page skips to the end: the rest is searched without streaming (pause cancels)."""
    controlled("skip", Player.skip)


@socketio.on("stop")
@answered
def on_stop(data=None):
    """A page ends its run (nothing happens if it has none)."""
    checked("stop")
    registry = runs()
    player = registry.get(request.sid)
    registry.drop(request.sid)
    if player is not None:
        registry.seams.audience(request.sid, None).control(player)
