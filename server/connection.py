"""Socket.IO handlers of a connection itself: its end, and unexpected failures."""

import logging

from flask import request
from flask_socketio import ConnectionRefusedError

from .classes.events import on_gone
from .edge.guard import FULL
from .edge.limits import limits
from .extension import socketio
from .replies import refuse
from .runs.registry import runs

log = logging.getLogger(__name__)


@socketio.on("connect")
def on_connect(auth=None):
    """Refuse a page the server has no room for, with a sentence rather than a silent wait."""
    room = request.environ.get(FULL)
    if room is not None:
        raise ConnectionRefusedError(
            f"the server is full: it serves at most {room:,} connections at once; try again in a minute"
        )


@socketio.on("disconnect")
def on_disconnect(*reason):
    """A page has gone: it leaves its class (whose run waits for it), and its own run ends."""
    on_gone(request.sid)
    runs().drop(request.sid)
    limits().forget(request.sid)


@socketio.on_error_default
def on_failure(exc):
    """Report an unexpected failure to the client that caused it, and keep serving."""
    log.exception("handler failed", exc_info=exc)
    return refuse(f"the server could not handle that request ({type(exc).__name__})")
