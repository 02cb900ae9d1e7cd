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


def told(exc):
    """Return what a client is told of a refusal (a ValueError; one without a code is INVALID):
    the error event's payload, and the negative acknowledgement."""
    code, sentence = getattr(exc, "code", INVALID), str(exc)
    values = {"values": exc.values} if getattr(exc, "values", None) else {}
    event = {"code": code, "message": sentence, **values}
    return event, {"ok": False, "code": code, "error": sentence, **values}


def refuse(exc):
    """Tell the client what was wrong (a ValueError) and build the negative acknowledgement."""
    event, answer = told(exc)
    emit("error", event, ignore_queue=True)  # to this page, connected here
    return answer


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
