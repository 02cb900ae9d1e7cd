"""How handlers answer: an acknowledgement of ok, or a refusal the client is told about.

Every refusal has a stable code (docs/protocol.md lists them) that a page translates, the English
sentence for any other client, and the values the sentence names.
"""

import functools
import inspect

from flask_socketio import emit

INVALID = "request.invalid"  # a request that breaks the protocol: its sentence says how


class Refusal(ValueError):
    """A request refused: its code, its sentence, and the values the sentence names."""

    def __init__(self, code, message, /, **values):
        super().__init__(message)
        self.code = code
        self.values = values


def refusal_of(exc):
    """Return the code, sentence and values of a ValueError (any without a code: INVALID)."""
    return getattr(exc, "code", INVALID), str(exc), getattr(exc, "values", {})


def error_event(code, message, values=None):
    """Return the payload of the error event that tells a client of a refusal."""
    return {"code": code, "message": message, **({"values": values} if values else {})}


def negative(code, message, values=None):
    """Return the negative acknowledgement of a refused request."""
    return {"ok": False, "code": code, "error": message, **({"values": values} if values else {})}


def refuse(exc):
    """Tell the client what was wrong (a ValueError) and build the negative acknowledgement."""
    code, message, values = refusal_of(exc)
    emit("error", error_event(code, message, values), ignore_queue=True)  # to this page, connected here
    return negative(code, message, values)


def answered(handler):
    """Acknowledge a handler's event with ok, or refuse it with its ValueError."""

    takes = len(inspect.signature(handler).parameters)
    variadic = any(p.kind is p.VAR_POSITIONAL for p in inspect.signature(handler).parameters.values())

    @functools.wraps(handler)
    def wrapper(*args):
        try:
            if len(args) > takes and not variadic:
                raise ValueError("too many arguments: send at most one object with a request")
            return {"ok": True, **(handler(*args) or {})}
        except ValueError as exc:
            return refuse(exc)

    return wrapper
