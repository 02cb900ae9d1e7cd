"""What a client's packets must be before the Socket.IO server handles them.

Every packet passes here first, on its connection's own thread: its kind, its rate, its size,
its JSON and its event name are checked, and a bad one is answered with an error (and a
negative acknowledgement when it asked for one) instead of reaching a handler.
"""

import json
import math
import re

from socketio import packet

from ..replies import INVALID, Refusal, told
from ..wire import shown

MAX_ACK_DIGITS = 15  # acknowledgement ids a client numbers from 1; JavaScript's safe integers
MAX_DIGITS = 15  # digits of an integer in a request; no option needs more
# Names a client may never send: they are the server's own, run only on a real connect or
# disconnect.
RESERVED = frozenset({"connect", "disconnect"})
# The events the server sends its pages: a client sending one is told so, plainly.
SENT_BY_SERVER = frozenset(
    {"started", "events", "progress", "finished", "snapshot", "error", "server_stopping"}
    | {"class_state", "class_control", "class_ended", "class_displaced"}
    | {"poll_opened", "poll_count", "poll_revealed", "poll_closed"}
)
_PACKET = re.compile(r"(\d)(/[^,]*,)?(\d*)")


class _BadNumber(ValueError):
    """A number in a request that no option could take."""


class Refused(Refusal):
    """A packet that is answered with an error instead of being handled (ack: its call's id)."""

    def __init__(self, message, ack=None, code=INVALID):
        super().__init__(code, message)
        self.ack = ack


def _integer(text):
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise _BadNumber(f"the number {shown(text)} is too large")
    return int(text)


def _real(text):
    value = float(text)
    if not math.isfinite(value):
        raise _BadNumber(f"the number {shown(text)} is too large")
    return value


def _constant(name):
    raise _BadNumber(f"{name} is not a number this server takes")


def _ack(head):
    """Return the acknowledgement id a packet asks for, if any that can be answered."""
    digits = head.group(3)
    return int(digits) if 0 < len(digits) <= MAX_ACK_DIGITS else None


def read_event(data, head, known):
    """Check an EVENT packet's text; raise Refused if it is bad.

    head: the text's match of _PACKET, or None; known(name) tells whether the server handles
    events of that name.
    """
    if head is None:
        raise Refused("that is not a Socket.IO packet")
    kind, namespace, digits = head.groups()
    ack = _ack(head)
    if kind in ("5", "6"):
        raise Refused("binary packets are not accepted")
    if len(digits) > MAX_ACK_DIGITS:
        raise Refused(f"an acknowledgement id has at most {MAX_ACK_DIGITS} digits")
    if kind == "3":
        raise Refused(f"no call of the server's awaits acknowledgement {digits or 'without an id'}")
    if kind != "2":
        raise Refused(f"unexpected packet of type {kind}", ack)
    if namespace:
        raise Refused(f"unknown namespace {shown(namespace[:-1])}; this server has only /", ack)
    try:
        payload = json.loads(
            data[head.end() :], parse_int=_integer, parse_float=_real, parse_constant=_constant
        )
    except _BadNumber as exc:
        raise Refused(str(exc), ack) from None
    except ValueError as exc:
        raise Refused(f"that request is not valid JSON: {exc}", ack) from None
    except RecursionError:  # lists or objects nested about a thousand deep: no request is
        raise Refused("that request is nested too deeply", ack) from None
    if not isinstance(payload, list) or not payload or not isinstance(payload[0], str):
        raise Refused("a request is a list: the event's name, then its data", ack)
    name = payload[0]
    if name in SENT_BY_SERVER and not known(name):
        raise Refused(f"{shown(name)} is sent by the server, never to it", ack)
    if name in RESERVED or not known(name):
        raise Refused(f"unknown event {shown(name)}", ack)


def install(server, buckets, max_bytes):
    """Screen every packet a client sends to a Socket.IO server before it handles it.

    buckets: the clients' request limits; a client that keeps asking after being refused for
    asking too often is disconnected. max_bytes: the largest request.
    """
    handle = server._handle_eio_message

    def known(name):
        return name in server.handlers.get("/", {})

    def refuse(eio_sid, refused):
        event, answer = told(refused)
        server._send_packet(eio_sid, server.packet_class(packet.EVENT, data=["error", event]))
        if refused.ack is not None:
            server._send_packet(eio_sid, server.packet_class(packet.ACK, data=[answer], id=refused.ack))

    def awaited(head, sid):
        """Tell whether a packet is the acknowledgement of one of the server's calls to sid."""
        calls = server.manager.callbacks.get(sid, ())
        # Ids start at 1: the manager keeps its counter of them under 0, which is no call's.
        ack = _ack(head)
        return head.group(1) == "3" and not head.group(2) and bool(ack) and ack in calls

    def on_message(eio_sid, data):
        connection = server.eio.sockets.get(eio_sid)
        if connection is not None and (connection.closed or connection.closing):
            return  # the backlog of a connection being closed is dropped
        if not isinstance(data, str):
            return  # binary: the WebSocket closes (websocket.py)
        sid = server.manager.sid_from_eio_sid(eio_sid, "/")
        head = _PACKET.match(data)
        if head is not None and head.group(1) == "0" and sid is None:
            return handle(eio_sid, data)  # the client's connect (another one is refused below)
        if head is not None and head.group(1) == "1":
            # The client's disconnect ends its connection too: connecting again on it would
            # start a new session with a full request limit. (No waiting for the writer to
            # drain: it may have ended already, and the wait would then never end.)
            handle(eio_sid, data)
            if connection is not None:
                connection.close(wait=False)
            return
        if sid is None:
            # Anything but the connect before it: no page does that, and it would go uncounted.
            # (As for a disconnect above, no waiting for the writer to drain.)
            if connection is not None:
                connection.close(wait=False)
            return
        if head is not None and awaited(head, sid):
            return handle(eio_sid, data)  # the answer to one of the server's own calls
        ack = _ack(head) if head else None
        left = buckets.take(sid)
        try:
            if left < 0:
                message = f"too many requests: at most {buckets.rate:g} a second; wait a moment"
                raise Refused(message, ack, "request.too_many")
            if len(data) > max_bytes:
                message = f"that request is too large ({len(data):,} bytes; the limit is {max_bytes:,})"
                raise Refused(message, ack, "request.too_large")
            read_event(data, head, known)
        except Refused as refused:
            refuse(eio_sid, refused)
            if left < -buckets.burst:
                refuse(eio_sid, Refused("disconnected for sending too many requests", code="request.flooded"))
                server.disconnect(sid, ignore_queue=True)
                server.eio.disconnect(eio_sid)
            return
        return handle(eio_sid, data)

    server._handle_eio_message = on_message
    # Engine.IO holds the bound method it was given when the Socket.IO server was made.
    server.eio.on("message", on_message)
