"""Refuse an address's surplus handshakes and requests at the door, before gunicorn parses them.

Behind a school's NAT a script opening connections flat out is refused by its address's
handshake budget (guard.py), but each refusal through gunicorn costs its parser, a WSGI environ
and a response: about a thousand a second held the one worker that serves the whole class. At
the door a refusal costs a peek at the request's head and one canned answer. The same goes for
the other requests (the page, its files) of an address whose queue is full (pacing.py). Only
what the guard would refuse anyway is refused here, with its words; anything else (a head the
door does not read as gunicorn would, a badge with a budget left) goes on to gunicorn and the
guard as before, untouched. An encoded path is decoded as gunicorn decodes it, and a head is
read up to 64 KB (gunicorn's own limit is a hundred fields of 8 KB): refusals sent the long way
round (a head over 64 KB) as often as a plain flood's (3,000 a second) take some 200 MB a second
of upload, where a `%` or a head over 8 KB was enough, and cost the worker 10 times the door's
refusal. The door also counts each address's open connections (past a
hall's, a new one is turned away unread), and makes a head gunicorn refuses take its address's
turn, as a request the app answers does.
"""

import re
import socket
import time
from collections import Counter
from urllib.parse import unquote_to_bytes

from . import app_guard
from .guard import HANDSHAKE_REFUSED
from .pacing import BUSY, RETRY_AFTER

HEAD_BYTES = 65536  # a handshake's head is well under 1 KB; a longer one is left to gunicorn
COOKIE_LINE = re.compile(rb"\r\ncookie:[ \t]*([^\r\n]*?)[ \t]*(?=\r\n)", re.IGNORECASE)
METHOD = re.compile(rb"[A-Z]+ ")  # a request line's method and its space, as gunicorn reads it
FIRST_WAIT, LONGEST_WAIT = 0.01, 0.5  # seconds between two looks at a head still arriving
# Connections one address may hold open at once, WebSockets included, per WebSocket it may hold:
# a hall's pages and their loads; past that a new one is told the network is busy, unread.
OPEN_PER_ADDRESS = 3
# A refusal is sent after a second: a script that tries again as soon as it is refused (500
# sockets kept open, say) then tries a few hundred times a second, not thousands, each try a
# turn of the worker. A page tries again after 1 to 5 s anyway. Only so many wait at once, so
# that waiting refusals never fill the worker's connections: past that, they are sent at once.
TARPIT_SECONDS = 1.0
TARPIT_PER_ADDRESS = 500
TARPIT_IN_ALL = 1_000


def canned(status, text, *headers):
    """Return the bytes of an answer that ends its connection, as the guard's are."""
    lines = [
        f"HTTP/1.1 {status}",
        "Content-Type: text/plain; charset=utf-8",
        f"Content-Length: {len(text.encode())}",
        "Connection: close",
        *headers,
    ]
    return ("\r\n".join(lines) + f"\r\n\r\n{text}").encode()


REFUSAL = canned("429 Too Many Requests", HANDSHAKE_REFUSED)
BUSY_REFUSAL = canned("503 Service Unavailable", BUSY, f"Retry-After: {RETRY_AFTER}")


def install(worker):
    """Put the app's guard at the door of a gunicorn worker that has loaded the app."""
    app = worker.wsgi
    guard = app_guard(app)
    handle, handle_error = worker.handle, worker.handle_error
    # An answer that waited WRITE_TIMEOUT for a peer that reads nothing ends its connection: an
    # attack the server has seen off, not an error of the server's (see guard.py).
    worker.log.error_log.addFilter(no_write_timeouts)
    # Behind a reverse proxy every connection comes from the proxy: the client's address is in
    # a header the app reads (ProxyFix), and the proxy is the place to limit it. Under TLS the
    # head cannot be peeked at before the handshake.
    if guard is None or app.config["PROXIES"] or worker.cfg.is_ssl:
        return
    wait, tarpit, held = worker.cfg.keepalive, Tarpit(), Counter()
    most = OPEN_PER_ADDRESS * guard.max_connections

    def handle_unless_refused(listener, client, address):
        where = host(address)
        if held[where] >= most:
            answer(client, BUSY_REFUSAL)  # at once, unread: the address holds more than a hall does
            return
        if refused(guard, client, where, wait, tarpit):
            return
        held[where] += 1
        try:
            handle(listener, client, address)
        finally:
            held[where] -= 1
            if not held[where]:
                del held[where]

    def handle_error_in_turn(req, client, address, exc):
        # A request gunicorn refuses itself (a head it cannot read) takes its address's turn as
        # any other request does: a flood of them must not cost the worker without end.
        guard.charge(host(address))
        handle_error(req, client, address, exc)

    worker.handle = handle_unless_refused
    worker.handle_error = handle_error_in_turn


def host(address):
    """Return the client's address of a connection's (host, port), as the app sees it ("" for a
    Unix socket's)."""
    return address[0] if isinstance(address, tuple) else ""


def no_write_timeouts(record):
    """Tell whether to log a record: not an answer that timed out on a peer that did not read it."""
    return not (record.exc_info and isinstance(record.exc_info[1], TimeoutError))


def answer(client, data):
    """Send a canned answer and end the connection."""
    try:
        client.sendall(data)
        client.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass


class Tarpit:
    """Refusals waiting to be sent: how many, by address."""

    def __init__(self, seconds=TARPIT_SECONDS, per_address=TARPIT_PER_ADDRESS, in_all=TARPIT_IN_ALL):
        self.seconds, self.per_address, self.in_all = seconds, per_address, in_all
        self.waiting = Counter()  # only the worker's greenlets touch it, one at a time

    def wait(self, address):
        """Wait before a refusal to address is sent, if there is room for one more to wait."""
        if self.waiting[address] >= self.per_address or self.waiting.total() >= self.in_all:
            return
        self.waiting[address] += 1
        try:
            time.sleep(self.seconds)  # gevent's: the worker serves everyone else meanwhile
        finally:
            self.waiting[address] -= 1
            if not self.waiting[address]:
                del self.waiting[address]


def refused(guard, client, address, wait, tarpit=None):
    """Answer a request the guard would refuse for its address's budgets (after a while, in
    tarpit), or end a connection that sends no whole head within wait seconds, as gunicorn
    would; tell whether it did either."""
    if guard.open_to(address):
        return False  # the common case: nothing to read here, gunicorn reads it all
    head = peek_head(client, time.monotonic() + wait)
    if head is None:
        return True  # no whole head in time: gunicorn would close it as silently, after as long
    # Checked with the head: the address may have had its budget back meanwhile.
    words = refusal(guard, head, address) if head else None
    if words is None:
        return False
    if tarpit is not None:
        tarpit.wait(address)
    try:
        client.recv(len(head))  # taken from the socket, so that closing it sends no reset
    except OSError:
        pass
    answer(client, words)
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


def refusal(guard, head, address):
    """Return the answer the guard would give a request's head from address now for its budgets
    (its address's, its badge's), or None if it would let it in or the door cannot tell."""
    line = head.removeprefix(b"\r\n")  # gunicorn skips an empty line before a request
    method = METHOD.match(line)
    path = line[method.end() :].split(b" ", 1)[0].decode("latin-1") if method else ""
    if not path.startswith("/"):
        return None  # a target in another form is left to gunicorn to read
    if "%" in path:
        # As gunicorn gives the app its path (decoded, as Latin-1) and its query (as sent).
        path, mark, query = path.partition("?")
        path = unquote_to_bytes(path).decode("latin-1") + mark + query
    # Repeated Cookie headers reach the app joined by commas, as gunicorn joins them.
    cookie = b",".join(COOKIE_LINE.findall(line)).decode("latin-1")
    if guard.admits(path, cookie, address):
        return None
    return REFUSAL if path.startswith(guard.path) else BUSY_REFUSAL
