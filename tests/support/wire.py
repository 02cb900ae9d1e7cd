"""A WebSocket spoken byte by byte over a plain TCP socket, as an attacker would, and the raw
answers of an HTTP server read from many sockets at once."""

import base64
import json
import os
import re
import selectors
import socket
import struct
import time
from dataclasses import dataclass

# The hostile clients connect from their own loopback addresses, so that the limits by address
# they run into are theirs, not the good client's (127.0.0.1).
HOSTILE = "127.0.0.2"
CONTINUATION, TEXT, BINARY, CLOSE, PING, PONG = 0x0, 0x1, 0x2, 0x8, 0x9, 0xA  # WebSocket opcodes
MESSAGE_TOO_BIG, PROTOCOL_ERROR, UNSUPPORTED_DATA = 1009, 1002, 1003  # WebSocket close codes
POLICY_VIOLATION = 1008


@dataclass
class Frame:
    """A WebSocket frame as the server sent it."""

    opcode: int
    payload: bytes
    rsv1: bool = False

    @property
    def text(self):
        return self.payload.decode() if self.opcode == TEXT else None

    @property
    def close_code(self):
        return struct.unpack("!H", self.payload[:2])[0] if self.opcode == CLOSE else None


def frame(opcode, payload=b"", *, length=None, rsv1=False):
    """Return a client's frame, masked (with a key of zeros: the payload goes as it is).

    length: the length the header declares, if not the payload's.
    """
    length = len(payload) if length is None else length
    first = 0x80 | (0x40 if rsv1 else 0) | opcode
    if length < 126:
        head = struct.pack("!BB", first, 0x80 | length)
    elif length < 1 << 16:
        head = struct.pack("!BBH", first, 0x80 | 126, length)
    else:
        head = struct.pack("!BBQ", first, 0x80 | 127, length)
    return head + b"\0\0\0\0" + payload


def text_frame(text):
    return frame(TEXT, text.encode())


class Wire:
    """A WebSocket to the server spoken byte by byte over a plain TCP socket, as an attacker would.

    It reads only when told to, and answers no ping unless it is reading.
    """

    def __init__(self, port, *, headers=(), source=HOSTILE, timeout=5, receive_buffer=None):
        self.sock = socket.socket()
        self.buffer = b""
        self.seen = []  # the text messages read so far, but pings
        try:
            if receive_buffer is not None:  # before connecting: the window offered is small from the start
                self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
            self.sock.bind((source, 0))
            self.sock.settimeout(timeout)
            self.sock.connect(("127.0.0.1", port))
            key = base64.b64encode(os.urandom(16)).decode()
            request = [
                "GET /socket.io/?EIO=4&transport=websocket HTTP/1.1",
                f"Host: 127.0.0.1:{port}",
                "Upgrade: websocket",
                "Connection: Upgrade",
                f"Sec-WebSocket-Key: {key}",
                "Sec-WebSocket-Version: 13",
                *headers,
            ]
            self.sock.sendall(("\r\n".join(request) + "\r\n\r\n").encode())
            while b"\r\n\r\n" not in self.buffer:
                data = self.sock.recv(4096)
                assert data, "the server closed the connection before answering the handshake"
                self.buffer += data
        except BaseException:
            self.sock.close()
            raise
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        status, *lines = head.decode("latin-1").split("\r\n")
        self.status = int(status.split()[1])
        self.headers = {name.lower(): value.strip() for name, value in (line.split(":", 1) for line in lines)}
        self.address = self.sock.getsockname()
        self.opened_at = time.monotonic()  # when the server answered the handshake

    def send(self, data):
        self.sock.sendall(data)

    def send_text(self, text):
        self.send(text_frame(text))

    def _fill(self, size, deadline):
        while len(self.buffer) < size:
            self.sock.settimeout(max(deadline - time.monotonic(), 0.001))
            data = self.sock.recv(1 << 16)
            if not data:
                raise EOFError
            self.buffer += data

    def read_frame(self, timeout=5):
        """Return the next frame; None if the connection ends first (EOF, or reset)."""
        deadline = time.monotonic() + timeout
        try:
            self._fill(2, deadline)
            first, second = self.buffer[0], self.buffer[1]
            size, start = second & 0x7F, 2
            if size == 126:
                self._fill(4, deadline)
                size, start = struct.unpack("!H", self.buffer[2:4])[0], 4
            elif size == 127:
                self._fill(10, deadline)
                size, start = struct.unpack("!Q", self.buffer[2:10])[0], 10
            self._fill(start + size, deadline)
        except (EOFError, ConnectionError):
            return None
        payload, self.buffer = self.buffer[start : start + size], self.buffer[start + size :]
        return Frame(first & 0x0F, payload, bool(first & 0x40))

    def expect(self, wanted, timeout=5, answer_pings=True):
        """Read frames until a text message for which wanted(text) is true; return it."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                got = self.read_frame(deadline - time.monotonic())
            except TimeoutError:
                raise AssertionError(f"no such message came within {timeout} s: {self.seen[-3:]}") from None
            assert got is not None, "the server closed the connection"
            if got.text == "2":
                if answer_pings:
                    self.send_text("3")
            elif got.text is not None:
                self.seen.append(got.text)
                if wanted(got.text):
                    return got.text

    def connect(self):
        """Open the Socket.IO session, as a page does; return the server's Engine.IO open packet."""
        opened = json.loads(self.expect(lambda text: text.startswith("0"))[1:])
        self.send_text("40")
        self.expect(lambda text: text.startswith("40"))
        self.seen.clear()
        return opened

    def rest(self, timeout=5):
        """Read until the connection ends; return the frames that came. Fails if it does not end."""
        deadline = time.monotonic() + timeout
        frames = []
        while True:
            try:
                got = self.read_frame(deadline - time.monotonic())
            except TimeoutError:
                raise AssertionError(f"the connection is still open after {timeout} s") from None
            if got is None:
                return frames
            frames.append(got)
            if got.text is not None and got.text != "2":
                self.seen.append(got.text)

    def until_closed(self, timeout=5):
        """Read until the server closes the connection; return the bytes after the response's head."""
        self.sock.settimeout(timeout)
        while data := self.sock.recv(4096):
            self.buffer += data
        return self.buffer

    def close(self):
        self.sock.close()


def errors_in(texts):
    """Return the messages of the "error" events among text messages."""
    events = [json.loads(text[2:]) for text in texts if text.startswith("42[")]
    return [payload["message"] for name, payload in events if name == "error"]


def closing(frames):
    """Return the close frame among frames (the last one), or fail."""
    closes = [f for f in frames if f.opcode == CLOSE]
    assert closes, f"no close frame came: {frames[-3:]}"
    return closes[-1]


def tcp(port, source=HOSTILE):
    """Return a plain TCP connection to the server, from source."""
    sock = socket.socket()
    try:
        sock.bind((source, 0))
        sock.connect(("127.0.0.1", port))
    except BaseException:
        sock.close()
        raise
    return sock


def closed_after(socks, timeout, since, trickle=()):
    """Wait until the server has closed each of socks; return {sock: seconds from since}.

    Every half second, each socket in trickle sends one more byte of a request's headers.
    """
    start = time.monotonic()
    closed = {}
    with selectors.DefaultSelector() as selector:
        for sock in socks:
            sock.setblocking(False)
            selector.register(sock, selectors.EVENT_READ)
        next_trickle = start
        while len(closed) < len(socks) and time.monotonic() < start + timeout:
            if time.monotonic() >= next_trickle:
                for sock in trickle:
                    if sock not in closed:
                        try:
                            sock.send(b"X")
                        except OSError:
                            pass  # closed: the selector hears of it
                next_trickle += 0.5
            for key, _ in selector.select(max(0.0, min(next_trickle - time.monotonic(), 0.5))):
                try:
                    data = key.fileobj.recv(4096)
                except (BlockingIOError, InterruptedError):
                    continue
                except OSError:
                    data = b""
                if not data:
                    closed[key.fileobj] = time.monotonic() - since
                    selector.unregister(key.fileobj)
    return closed


def http_status(data):
    """Return the status code of an HTTP response's first bytes, or None if they hold no status line."""
    match = re.match(rb"HTTP/1\.[01] (\d{3}) ", data)
    return int(match.group(1)) if match else None


@dataclass
class Answer:
    """An HTTP answer's status, the seconds it took, and its head."""

    status: int | None
    seconds: float
    head: bytes


def answers(socks, timeout):
    """Read from each of socks until its answer's head has come; return {sock: Answer}."""
    start, got, data = time.monotonic(), {}, {sock: b"" for sock in socks}
    with selectors.DefaultSelector() as selector:
        for sock in socks:
            sock.setblocking(False)
            selector.register(sock, selectors.EVENT_READ)
        while len(got) < len(socks) and time.monotonic() < start + timeout:
            for key, _ in selector.select(0.5):
                sock = key.fileobj
                try:
                    chunk = sock.recv(4096)
                except (BlockingIOError, InterruptedError):
                    continue
                except OSError:
                    chunk = b""
                data[sock] += chunk
                if b"\r\n\r\n" in data[sock] or not chunk:
                    head = data[sock].partition(b"\r\n\r\n")[0]
                    got[sock] = Answer(http_status(head), time.monotonic() - start, head)
                    selector.unregister(sock)
    return got


def asks(wire, ack=1):
    """Open a Socket.IO session on a Wire and send a request, as a page does; wait for its answer."""
    wire.connect()
    wire.send_text(f'42{ack}["pause"]')
    assert "there is no run to pause" in wire.expect(lambda text: text.startswith(f"43{ack}"))


def served(socks, each, timeout, meanwhile=None):
    """Read the answers to each pipelined HEAD request sent on each of socks; return their
    statuses, once all have come or timeout has passed. meanwhile(count so far) is called as they come."""
    statuses, data = [], {sock: b"" for sock in socks}
    deadline = time.monotonic() + timeout
    with selectors.DefaultSelector() as selector:
        for sock in socks:
            sock.setblocking(False)
            selector.register(sock, selectors.EVENT_READ)
        while len(statuses) < each * len(socks) and time.monotonic() < deadline:
            for key, _ in selector.select(0.5):
                try:
                    chunk = key.fileobj.recv(65536)
                except (BlockingIOError, InterruptedError):
                    continue
                if not chunk:
                    selector.unregister(key.fileobj)
                    continue
                # A HEAD request's answer is its head alone.
                *heads, data[key.fileobj] = (data[key.fileobj] + chunk).split(b"\r\n\r\n")
                statuses += [http_status(head) for head in heads]
                if meanwhile is not None:
                    meanwhile(len(statuses))
    return statuses


POLLING = (
    b"GET /socket.io/?EIO=4&transport=polling HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"  # a long-polling handshake
)
