"""Refuse an address's surplus WebSocket handshakes at the door, before gunicorn parses them.

Behind a school's NAT a script opening connections flat out is refused by its address's
handshake budget (guard.py), but each refusal through gunicorn costs its parser, a WSGI environ
and a response: about a thousand a second held the one worker that serves the whole class. At
the door a refusal costs a peek at the request's head and one canned answer. Only what the guard
would refuse anyway is refused here; anything unclear (a head not yet whole, another path, a
badge with handshakes left) goes on to gunicorn and the guard as before.
"""

import re
import socket

from .guard import HANDSHAKE_REFUSED

GUARD = "knights_tour_guard"  # the app's extensions key for its Guard
HEAD_BYTES = 8192  # a handshake's head is well under 1 KB; a longer one is left to gunicorn
COOKIE_LINE = re.compile(rb"\r\ncookie:[ \t]*([^\r\n]*)", re.IGNORECASE)
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
    # a header the app reads (ProxyFix), and the proxy is the place to limit it.
    if guard is None or app.config["PROXIES"]:
        return
    handle, wait = worker.handle, worker.cfg.keepalive

    def handle_unless_refused(listener, client, address):
        if not refused(guard, client, address[0] if isinstance(address, tuple) else "", wait):
            handle(listener, client, address)

    worker.handle = handle_unless_refused


def refused(guard, client, address, wait):
    """Answer a handshake the guard would refuse for its address's rate, and tell whether it did."""
    if guard.open_to(address):
        return False  # the common case: nothing to read here, gunicorn reads it all
    client.settimeout(wait)  # as long as gunicorn waits for a request's head
    try:
        head = client.recv(HEAD_BYTES, socket.MSG_PEEK)
    except TimeoutError:
        return True  # nothing came: gunicorn would close it as silently, after as long
    except OSError:
        return False  # gunicorn meets the same and ends the connection its own way
    if not (head.startswith(b"GET " + guard.path.encode()) and b"\r\n\r\n" in head):
        return False
    cookies = COOKIE_LINE.findall(head[: head.index(b"\r\n\r\n")])
    if len(cookies) > 1 or (cookies and guard.badge_admits(cookies[0].decode("latin-1"))):
        return False
    try:
        client.recv(len(head))  # taken from the socket, so that closing it sends no reset
        client.sendall(REFUSAL)
        client.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    return True
