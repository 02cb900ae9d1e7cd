"""A WebSocket's session ends with its connection: nothing of it outlives its request."""

import base64
import os
import socket

import pytest
from engineio.async_drivers._websocket_wsgi import SimpleWebSocketWSGI
from wsproto.events import CloseConnection

from server.edge.websocket import bounded

CLOSE_FRAME = 0x88  # FIN and the close opcode: the first byte of a WebSocket close frame


def handshake(sock):
    """Return the WSGI environ of a WebSocket handshake that arrived on sock, as werkzeug gives it."""
    return {
        "werkzeug.socket": sock,
        "HTTP_HOST": "127.0.0.1",
        "HTTP_CONNECTION": "Upgrade",
        "HTTP_UPGRADE": "websocket",
        "HTTP_SEC_WEBSOCKET_KEY": base64.b64encode(os.urandom(16)).decode(),
        "HTTP_SEC_WEBSOCKET_VERSION": "13",
    }


def everything(peer):
    """Read what the server sends the peer until the server ends the connection."""
    peer.settimeout(5)  # a bound on a failure, not a wait: the end comes at once or never
    data = b""
    while chunk := peer.recv(4096):
        data += chunk
    return data


@pytest.mark.parametrize("session", ["returns", "raises"])
def test_a_session_that_ends_with_the_peer_still_there_closes_and_stops_its_reader(session):
    # Engine.IO's handler returns at once on a failed upgrade, without closing; the server then
    # closes the file, and a reader left waiting on it would wait out the whole timeout.
    def app(ws):
        if session == "raises":
            raise RuntimeError("the session failed")
        return []

    ended_by = ConnectionError if session == "returns" else RuntimeError  # werkzeug's way, or the error

    websocket = bounded(SimpleWebSocketWSGI, max_bytes=1000, timeout=60)(app, None)
    server_end, peer = socket.socketpair()
    try:
        with pytest.raises(ended_by):
            websocket(handshake(server_end), None)
        assert not websocket.ws.thread.is_alive(), "the reader outlived its session"
        answer, _, frames = everything(peer).partition(b"\r\n\r\n")
        assert answer.startswith(b"HTTP/1.1 101")
        assert frames and frames[0] == CLOSE_FRAME, frames
    finally:
        server_end.close()
        peer.close()


def test_a_close_while_another_close_is_being_sent_ends_the_connection_quietly():
    # The reader closes a flooding peer; its close frame is made, and while the peer, which
    # reads nothing, holds up its sending, Engine.IO's writer closes the connection too. The
    # second close must not raise (it did, from wsproto, into the server's log).
    def app(ws):
        ws.ws.ws.send(CloseConnection(1008, "too many frames"))  # the first close, still in flight
        ws.close()  # Engine.IO's writer's
        return []

    websocket = bounded(SimpleWebSocketWSGI, max_bytes=1000, timeout=60)(app, None)
    server_end, peer = socket.socketpair()
    try:
        with pytest.raises(ConnectionError):  # werkzeug's way of ending a session, no other error
            websocket(handshake(server_end), None)
        assert not websocket.ws.thread.is_alive(), "the reader outlived its session"
    finally:
        server_end.close()
        peer.close()
