"""Refuse an address's surplus WebSocket handshakes at the door, before gunicorn parses them.

Behind a school's NAT a script opening connections flat out is refused by its address's
handshake budget (guard.py), but each refusal through gunicorn costs its parser, a WSGI environ
and a response: about a thousand a second held the one worker that serves the whole class. At
the door a refusal costs a peek at the request's head and one canned answer. Only what the guard
would refuse anyway is refused here, with its words; anything else (another path, a head the
door does not read as gunicorn would, a badge with handshakes left) goes on to gunicorn and the
guard as before, untouched. A client that knows the trick can still send its refusals the long
way (an encoded path, a head over 8 KB): the door makes a plain flood cheap, and a crafted one
costs what every flood cost before.
"""

import re
import socket
import time

from .guard import HANDSHAKE_REFUSED

GUARD = "knights_tour_guard"  # the app's extensions key for its Guard
HEAD_BYTES = 8192  # a handshake's head is well under 1 KB; a longer one is left to gunicorn
COOKIE_LINE = re.compile(rb"\r\ncookie:[ \t]*([^\r\n]*?)[ \t]*(?=\r\n)", re.IGNORECASE)
METHOD = re.compile(rb"[A-Z]+ ")  # a request line's method and its space, as gunicorn reads it
FIRST_WAIT, LONGEST_WAIT = 0.01, 0.5  # seconds between two looks at a head still arriving
REFUSAL = (
    "HTTP/1.1 429 Too Many Requests\r\n"
    "Content-Type: text/plain; charset=utf-8\r\n"
    f"Content-Length: {len(HANDSHAKE_REFUSED.encode())}\r\n"
    "Connection: close\r\n\r\n"
    f"{HANDSHAKE_REFUSED}"
).encode()


def install(worker):
    """Put the app's guard at the door of a gunicorn worker that has loaded the app."""
    app = worker.wsgi
    guard = app.extensions.get(GUARD)
    # Behind a reverse proxy every connection comes from the proxy: the client's address is in
    # a header the app reads (ProxyFix), and the proxy is the place to limit it. Under TLS the
    # head cannot be peeked at before the handshake.
    if guard is None or app.config["PROXIES"] or worker.cfg.is_ssl:
        return
    handle, wait = worker.handle, worker.cfg.keepalive

    def handle_unless_refused(listener, client, address):
        if not refused(guard, client, address[0] if isinstance(address, tuple) else "", wait):
            handle(listener, client, address)

    worker.handle = handle_unless_refused


def refused(guard, client, address, wait):
    """Answer a handshake the guard would refuse for its address's rate, or end a connection that
    sends no whole head within wait seconds, as gunicorn would; tell whether it did either."""
    if guard.open_to(address):
        return False  # the common case: nothing to read here, gunicorn reads it all
    head = peek_head(client, time.monotonic() + wait)
    if head is None:
        return True  # no whole head in time: gunicorn would close it as silently, after as long
    if not (head and refusable(guard, head) and not guard.open_to(address)):
        return False  # checked again: the address may have had a handshake back meanwhile
    try:
        client.recv(len(head))  # taken from the socket, so that closing it sends no reset
        client.sendall(REFUSAL)
        client.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    return True


def peek_head(client, deadline):
    """Return a request's head as it has arrived, without taking it from the socket: b"" if it
    is not one the door reads (too long, the connection ended or failed), None if it is not
    whole by deadline. A head arriving in pieces is looked at again, less and less often."""
    pause = FIRST_WAIT
    while (left := deadline - time.monotonic()) > 0:
        client.settimeout(left)
        try:
            head = client.recv(HEAD_BYTES, socket.MSG_PEEK)
        except TimeoutError:
            return None
        except OSError:
            return b""  # gunicorn meets the same and ends the connection its own way
        end = head.find(b"\r\n\r\n")
        if end >= 0:
            return head[: end + 4]
        if not head or len(head) >= HEAD_BYTES:
            return b""
        # gevent's sleep in the worker: the peer's next piece may come meanwhile.
        time.sleep(min(pause, max(deadline - time.monotonic(), 0)))
        pause = min(pause * 2, LONGEST_WAIT)
    return None


def refusable(guard, head):
    """Tell whether a request's head is a handshake the guard would refuse once its address has
    spent its budget: on the guard's path, with no badge that has handshakes of its own left."""
    line = head.removeprefix(b"\r\n")  # gunicorn skips an empty line before a request
    method = METHOD.match(line)
    if method is None or not line[method.end() :].startswith(guard.path.encode()):
        return False
    # Repeated Cookie headers reach the app joined by commas, as gunicorn joins them.
    cookie = b",".join(COOKIE_LINE.findall(line)).decode("latin-1")
    return not (cookie and guard.badge_admits(cookie))
