"""Socket.IO handlers of a connection itself: its end, and unexpected failures."""

import logging

from flask import request
from flask_socketio import ConnectionRefusedError

from .classes.roles import on_gone
from .edge import app_limits
from .edge.guard import FULL
from .extension import socketio
from .replies import Refusal, refuse
from .runs.registry import runs

log = logging.getLogger(__name__)


@socketio.on("connect")
def on_connect(auth=None):
    """Refuse a page the server has no room for, with a sentence rather than a silent wait."""
    room = request.environ.get(FULL)
    if room is not None:
        message = f"the server is full: it serves at most {room:,} connections at once; try again in a minute"
        # The page reads the code and the count from the refusal's data (socket.io's err.data).
        raise ConnectionRefusedError(message, {"code": "server.full", "values": {"count": room}})


@socketio.on("disconnect")
def on_disconnect(*reason):
    """A page has gone: it leaves its class (whose run waits for it), and its own run ends."""
    on_gone(request.sid)
    runs().drop(request.sid)
    runs().strips.drop(request.sid)
    app_limits().forget(request.sid)


@socketio.on_error_default
def on_failure(exc):
    """Report an unexpected failure to the client that caused it, and keep serving."""
    log.exception("handler failed", exc_info=exc)
    name = type(exc).__name__
    return refuse(Refusal("server.failed", f"the server could not handle that request ({name})"))
