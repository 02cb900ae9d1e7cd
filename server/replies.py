"""How handlers answer: an acknowledgement of ok, or an error the client is told about."""

import functools

from flask_socketio import emit


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
