"""Limits by remote address, and on request bodies, before a request reaches the app."""

import socket
import threading
import time
from collections import Counter, defaultdict

from .badges import ENVIRON_KEY
from .limits import Buckets
from .pacing import BUSY, RETRY_AFTER
from .seats import allowance

# A whole class behind one school NAT shares an address: a lecture hall's worth of pages may
# connect at once from one, and come back together after a restart.
MAX_CONNECTIONS = 500  # open WebSocket connections from one address
HANDSHAKE_RATE = 50.0  # new Socket.IO connections a second from one address, on average
HANDSHAKE_BURST = 500  # and at once
MAX_BODY_BYTES = 64 * 1024  # no request has a body but a badge's proof; Engine.IO refuses larger ones anyway
# Seconds an answer may wait for its peer to read it: gunicorn's own writes wait for ever, and a
# peer that asks for a large file many times over one connection and reads nothing would hold its
# connection, its greenlet and its socket's buffers until it let go. A WebSocket sets its own.
WRITE_TIMEOUT = 30
MAX_WEBSOCKETS = 10_000  # open WebSocket connections in all (python -m server sets it from its file limit)
FULL = "knights_tour.full"  # set in the environ of a connection the server has no room for
PLACE = "knights_tour.place"  # the environ's Place of a WebSocket, which websocket.py fills in
MADE_ROOM = (
    "your network has too many connections open: this one, which never sent a request, made room for another"
)
HANDSHAKE_REFUSED = "too many new connections from your address"
SEAT_FULL = "too many connections from your address, and this browser's seat has all it may have beyond them"
# A close frame's reason holds at most 123 bytes.
MADE_ROOM_SHARE = (
    "your network has too many connections open: this browser held the most, and made room for another"
)


class Place:
    """A WebSocket from an address: the browser it is from (its badge; None for every connection
    without one), the seat it holds (seats.py) and whether it was let in on it, whether it has
    sent a request (a page, not a socket merely held open), and how to close it once it is open."""

    def __init__(self, browser=None, seat=None):
        self.browser = browser
        self.seat = seat
        self.spare = False  # let in beyond its address's limit, on its seat's allowance
        self.proven = False
        self.close = None  # close(reason), set by the WebSocket once it is open
        self.evicted = False


class _ThenClose(list):
    """A response body after which the server closes the connection, whatever it would do."""

    def __init__(self, body, sock):
        super().__init__(body)
        self.sock = sock

    def close(self):
        # gunicorn drops the app's "Connection: close" (a hop-by-hop header) and would keep the
        # connection for its keep-alive: waiting for a refused body, or for the next request of
        # an address already refused. It calls close() once the body is sent: shut the
        # connection then, and its reader finds it ended at once.
        if self.sock is not None:
            try:
                self.sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def _answer(environ, start_response, status, text, *headers):
    body = text.encode()
    start_response(
        status,
        [
            ("Content-Type", "text/plain; charset=utf-8"),
            ("Content-Length", str(len(body))),
            ("Connection", "close"),
            *headers,
        ],
    )
    return _ThenClose([body], environ.get("gunicorn.socket"))


class Guard:
    """WSGI middleware: refuse what one address may not have before the app does any work."""

    def __init__(
        self,
        app,
        path="/socket.io",
        max_connections=MAX_CONNECTIONS,
        handshakes=None,
        max_body=MAX_BODY_BYTES,
        max_websockets=MAX_WEBSOCKETS,
        badges=None,
        pacing=None,
        seats=None,
    ):
        self.app, self.path, self.max_connections, self.max_body = app, path, max_connections, max_body
        self.badges = badges  # a browser's own budget of handshakes, by its cookie: see badges.py
        self.pacing = pacing  # when the other requests are served: see pacing.py
        self.seats = seats  # the students' own seats, which an address's limit does not hold back
        self.max_websockets = max_websockets
        # Buckets has a length: an empty table is falsy, so compare with None.
        self.handshakes = Buckets(HANDSHAKE_RATE, HANDSHAKE_BURST) if handshakes is None else handshakes
        self.places = defaultdict(list)  # address -> its open WebSocket connections' Places, oldest first
        self.total = 0  # open WebSocket connections from every address
        self._lock = threading.Lock()

    def __call__(self, environ, start_response):
        sock = environ.get("gunicorn.socket")
        if sock is not None:
            sock.settimeout(WRITE_TIMEOUT)
        address = environ.get("REMOTE_ADDR", "")
        length = environ.get("CONTENT_LENGTH") or "0"
        if not length.isdigit() or int(length) > self.max_body:
            self.charge(address)
            # Answered before a byte of the body is read; the connection closes after it.
            return _answer(
                environ,
                start_response,
                "413 Content Too Large",
                f"requests carry at most {self.max_body:,} bytes",
            )
        if not environ.get("PATH_INFO", "").startswith(self.path):
            return self._in_turn(environ, start_response, address)
        # A refused handshake costs nothing: behind a school's NAT, a script opening connections
        # flat out must not keep the address closed to its pages for long after it stops. A
        # page with a badge connects on its own budget first.
        badged = self.badges is not None and self.badges.admits(environ)
        if not badged and self.handshakes.take(address, sink=False) < 0:
            return _answer(environ, start_response, "429 Too Many Requests", HANDSHAKE_REFUSED)
        seat = self.seats.held(environ) if self.seats is not None else None
        place = environ[PLACE] = Place(environ.get(ENVIRON_KEY), seat)
        with self._lock:
            room, evicted = self._make_room(address, place)
            refused = not room
            if not refused:
                self.places[address].append(place)
                self.total += 1
                # A browser cannot read a refused handshake's answer: the connection goes on to
                # Socket.IO, which refuses it with a sentence the page shows (connection.py).
                if self.total > self.max_websockets:
                    environ[FULL] = self.max_websockets
        if evicted is not None:  # outside the lock
            evicted.close(MADE_ROOM if not evicted.proven else MADE_ROOM_SHARE)
        if refused:
            full = f"too many connections from your address (at most {self.max_connections:,})"
            return _answer(environ, start_response, "429 Too Many Requests", SEAT_FULL if seat else full)
        try:
            # A WebSocket is served within this call and ends with it.
            return self.app(environ, start_response)
        finally:
            with self._lock:
                self.total -= 1
                places = self.places[address]
                places.remove(place)
                if not places:
                    del self.places[address]

    def _in_turn(self, environ, start_response, address):
        """Serve a request that is not Socket.IO's in its address's turn, or say the network is busy."""
        wait = 0.0 if self.pacing is None else self.pacing.wait(environ, address)
        if wait is None:
            return _answer(
                environ, start_response, "503 Service Unavailable", BUSY, ("Retry-After", str(RETRY_AFTER))
            )
        if wait:
            self.pacing.sleep(wait)
        else:
            # Everyone else's turn first (the turn taken, so the door reads the budget right):
            # under gevent a keep-alive connection's pipelined requests are read from a buffer
            # and answered into one, so the greenlet serving them never blocks, and a script's
            # burst ran to its end before the class's streams ran again (1.5 s on a quiet
            # machine, past a ping's timeout with its cores busy).
            time.sleep(0)
        return self.app(environ, start_response)

    def charge(self, address):
        """Count a request answered without the app against its address's turn (see pacing.py)."""
        if self.pacing is not None:
            self.pacing.charge(address)

    def open_to(self, address):
        """Tell whether an address has a new connection and a request left in its budgets (spending none)."""
        return self.handshakes.level(address) >= 1 and (self.pacing is None or self.pacing.open_to(address))

    def admits(self, target, cookie, address):
        """Tell whether the guard would let a request for target (a path and its query) with this
        Cookie header in now, as far as its address's and its badge's budgets go (spending nothing)."""
        path, _, query = target.partition("?")
        environ = {"PATH_INFO": path, "QUERY_STRING": query, "HTTP_COOKIE": cookie}
        if not path.startswith(self.path):
            return self.pacing is None or self.pacing.admits(environ, address)
        badged = self.badges is not None and self.badges.has_left(environ)
        return badged or self.handshakes.level(address) >= 1

    def open(self, address):
        """Return how many WebSockets an address holds open."""
        with self._lock:
            return len(self.places.get(address, ()))

    def _make_room(self, address, newcomer):
        """Return whether an address may open one more WebSocket for a newcomer (a Place), and the
        Place to close to make room for it, if any (the lock is held).

        At its limit, a seat's connections are let in still, on their seat's allowance (and
        close nobody); beyond it they are refused. The others share the address's limit. At it,
        room is made only at the expense of the browser holding the most (a badge; a script's
        connections without one are one browser however many), while it holds more than the
        newcomer's would: its oldest connection that never sent a request (a socket
        held open, not a page), else its newest. Else a newcomer may take the place of its own
        browser's oldest such socket. So a script's sockets cannot keep out a student's page, a
        script's flood cannot close a page that has not asked anything yet, and the
        longest-standing pages stay.
        """
        places = [place for place in self.places.get(address, ()) if not (place.evicted or place.spare)]
        if len(places) < self.max_connections:
            return True, None
        if newcomer.seat is not None:
            spares = [place for place in self.places[address] if place.spare and place.seat == newcomer.seat]
            newcomer.spare = len(spares) < allowance(newcomer.seat)
            return newcomer.spare, None
        browser = newcomer.browser
        held = Counter(place.browser for place in places)
        most, count = held.most_common(1)[0]
        owner = most if count > held[browser] + 1 else browser
        theirs = [place for place in places if place.browser == owner and place.close]
        idle = next((place for place in theirs if not place.proven), None)
        if idle is None and owner != browser and theirs:
            idle = theirs[-1]
        if idle is None:
            return False, None
        idle.evicted = True
        return True, idle
