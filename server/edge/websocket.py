"""The server's end of a WebSocket: bounded in size and in frames a second, text only,
uncompressed, sent whole."""

import socket
import time

import simple_websocket
from simple_websocket.errors import ConnectionClosed
from wsproto.events import BytesMessage, TextMessage
from wsproto.frame_protocol import CloseReason
from wsproto.utilities import LocalProtocolError

from .guard import PLACE
from .limits import FRAME_BURST, FRAME_RATE

READER_JOIN = 1  # seconds an ended session waits for its reader, woken by the shutdown, to stop


class Socket(simple_websocket.Server):
    """A simple-websocket server connection whose sends go out whole and whose close frees it.

    Every frame the peer sends that is not a whole Engine.IO message (which the Socket.IO
    requests' own limit counts: see intake.py), such as a WebSocket ping or pong, an Engine.IO
    ping, pong or noop, or a fragment, spends one of its frames (frame_rate a second,
    frame_burst at once), once the whole frame has come: a peer that runs out is closed.
    """

    def __init__(self, environ, frame_rate=FRAME_RATE, frame_burst=FRAME_BURST, **options):
        # Set before the connection's reader starts, in the base class's __init__.
        self.frame_rate, self.frame_burst = frame_rate, frame_burst
        self._frames, self._filled = float(frame_burst), time.monotonic()
        self._flooded = False
        self.place = environ.get(PLACE)  # see guard.py: marked once a request comes
        super().__init__(environ, **options)

    def send(self, data):
        """Send a text message, all of it, however the socket splits the write."""
        if not self.connected:
            raise ConnectionClosed(self.close_reason, self.close_message)
        # gevent's send() may write part of a large frame and return; sendall() finishes it.
        self.sock.sendall(self.ws.send(TextMessage(data=str(data))))

    def _counted(self, events):
        """Yield the peer's frames from events() while it has frames left to spend."""
        for event in events():
            if isinstance(event, TextMessage) and event.message_finished:
                # The message's beginning: this frame, or what came before it (kept as bytes
                # once a second piece has come).
                begun = event.data if self.incoming_message is None else self.incoming_message
                kind = begun[:2] if isinstance(begun, str) else bytes(begun[:2]).decode("latin-1")
                if kind.startswith("4"):
                    if self.place is not None and kind == "42":
                        self.place.proven = True  # a Socket.IO event: a page's request
                    yield event  # a whole message: a request, counted as one (or an acknowledgement)
                    continue
            if isinstance(event, (TextMessage, BytesMessage)) and not event.frame_finished:
                yield event  # a frame still arriving (the network split it): counted once whole
                continue
            now = time.monotonic()
            self._frames = min(self.frame_burst, self._frames + (now - self._filled) * self.frame_rate) - 1
            self._filled = now
            if self._frames < 0:
                self._flooded = True
                return  # the rest of what it sent is not handled
            yield event

    def _handle_events(self):
        if "events" not in vars(self.ws):  # once: its frames are counted as they are parsed
            self.ws.events = lambda events=self.ws.events: self._counted(events)
        keep_going = super()._handle_events()
        if self._flooded:
            self.close(CloseReason.POLICY_VIOLATION, f"too many frames: at most {self.frame_rate:g} a second")
            return False
        if self.input_buffer:
            # Let the reader take these before reading more: under gevent nothing else runs
            # while data keeps arriving, so a fast sender would starve everyone else and pile
            # up its backlog here (sleep(0) is gevent's yield once the library is patched).
            time.sleep(0)
        if not keep_going:
            # simple-websocket wakes the reader before it marks the connection closed (on a
            # message too big): the reader would wait on for ever. Mark it, then wake it.
            self.connected = False
            self.event.set()
        return keep_going

    def drop(self, message):
        """Close from another connection's thread, without waiting: the close frame goes only if
        the socket takes it at once (a peer that reads nothing must not hold up the closer)."""
        try:
            self.sock.settimeout(0)
            self.close(CloseReason.POLICY_VIOLATION, message)
        except Exception:  # another thread is writing to it: shutting it is enough
            self.connected = False
            try:
                self.sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def close(self, reason=None, message=None):
        """Send a close frame, then shut the socket so its reader ends now, not at the peer's will."""
        try:
            super().close(reason, message)
        # LocalProtocolError: another thread's close frame is on its way (the reader closing a
        # flooder that reads nothing, while Engine.IO's writer closes too): this one is not needed.
        except (ConnectionClosed, OSError, LocalProtocolError):
            pass
        finally:
            self.connected = False
            self.input_buffer.clear()  # a closed connection's backlog is not handled
            # Shut before waking the session: once woken, it may end and the server close the
            # file, and a reader still waiting on a closed file is never woken (Linux).
            try:
                self.sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            self.event.set()

    def end(self):
        """Close, and wait (a little) for the reader to stop: before the server takes the socket back."""
        self.close()
        self.thread.join(READER_JOIN)


def bounded(base, max_bytes, timeout):
    """Return Engine.IO's WebSocket class base, made to use Socket within these bounds.

    max_bytes: the largest message, checked as frames arrive (before one is assembled);
    timeout: seconds a read or a write may wait, so a vanished or stalled peer lets go.
    """

    class BoundedWebSocket(base):
        def __call__(self, environ, start_response):
            # Without the offer the browser sends uncompressed frames: nothing to inflate, no
            # zlib stream kept per client, and the size limit applies to what arrives.
            environ.pop("HTTP_SEC_WEBSOCKET_EXTENSIONS", None)
            self.ws = Socket(environ, max_message_size=max_bytes, **self.server_args)
            self.ws.sock.settimeout(timeout)
            if self.ws.place is not None:
                self.ws.place.close = self.ws.drop
            try:
                answer = self.app(self)
            finally:
                # Engine.IO's session can end with the socket still open (a failed upgrade, an
                # error); the reader must not outlive it, waiting on a file the server closes.
                self.ws.end()
            if self.ws.mode == "gunicorn":
                raise StopIteration()  # gunicorn's way of knowing the connection is taken
            if self.ws.mode == "werkzeug":
                raise ConnectionError()
            return answer

        def wait(self):
            """Return the next text message, or None once the connection is closed."""
            if not self.ws.connected:
                return None
            message = super().wait()
            if isinstance(message, bytes):
                # Binary packets are not part of this protocol; their attachments would be kept.
                self.ws.close(CloseReason.UNSUPPORTED_DATA, "binary messages are not accepted")
                return None
            return message

    return BoundedWebSocket


def install(eio, max_bytes, timeout):
    """Make an Engine.IO server accept WebSockets only through bounded()."""
    eio._async["websocket"] = bounded(eio._async["websocket"], max_bytes, timeout)
