"""The server's end of a WebSocket: bounded in size, text only, uncompressed, sent whole."""

import socket
import time

import simple_websocket
from simple_websocket.errors import ConnectionClosed
from wsproto.events import TextMessage
from wsproto.frame_protocol import CloseReason


class Socket(simple_websocket.Server):
    """A simple-websocket server connection whose sends go out whole and whose close frees it."""

    def send(self, data):
        """Send a text message, all of it, however the socket splits the write."""
        if not self.connected:
            raise ConnectionClosed(self.close_reason, self.close_message)
        # gevent's send() may write part of a large frame and return; sendall() finishes it.
        self.sock.sendall(self.ws.send(TextMessage(data=str(data))))

    def _handle_events(self):
        keep_going = super()._handle_events()
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

    def close(self, reason=None, message=None):
        """Send a close frame, then shut the socket so its reader ends now, not at the peer's will."""
        try:
            super().close(reason, message)
        except (ConnectionClosed, OSError):
            pass
        finally:
            self.connected = False
            self.input_buffer.clear()  # a closed connection's backlog is not handled
            self.event.set()
            try:
                self.sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


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
            answer = self.app(self)
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
