"""How handlers answer: an acknowledgement of ok, or an error the client is told about."""

import functools
import inspect

from flask_socketio import emit


def refuse(message):
    """Tell the client what was wrong and build the negative acknowledgement."""
    emit("error", {"message": message}, ignore_queue=True)  # to this page, connected here
    return {"ok": False, "error": message}


def answered(handler):
    """Acknowledge a handler's event with ok, or with its ValueError's message."""

    takes = len(inspect.signature(handler).parameters)
    variadic = any(p.kind is p.VAR_POSITIONAL for p in inspect.signature(handler).parameters.values())

    @functools.wraps(handler)
    def wrapper(*args):
        try:
            if len(args) > takes and not variadic:
                raise ValueError("too many arguments: send at most one object with a request")
            return {"ok": True, **(handler(*args) or {})}
        except ValueError as exc:
            return refuse(str(exc))

    return wrapper
