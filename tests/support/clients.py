"""Clients that talk to the server as pages do: a recording Socket.IO client, and a raw one.

Each keeps what the server sends it from its own receiving thread; every read returns a
copy taken under a lock, so a test may read while the client is still receiving.
"""

import json
import socket
import threading
import time

import engineio
import socketio
import websocket

from .replay import followed


class Recording:
    """Everything a client was sent, in arrival order, stamped with the time it arrived."""

    def __init__(self):
        self._received = []  # (monotonic time, event, payload)
        self._codes = []  # the events of every batch, in order
        self._lock = threading.Lock()
        self.finished = threading.Event()  # set when a 'finished' arrives

    def keep(self, event, payload=None):
        """Record one event from the server; return True, which acknowledges it if asked."""
        with self._lock:
            self._received.append((time.monotonic(), event, payload))
            if event == "events":
                self._codes.extend(payload["events"])
        if event == "finished":
            self.finished.set()
        return True

    def stamped(self):
        """Return (time, event, payload) of everything received so far."""
        with self._lock:
            return list(self._received)

    def received(self):
        """Return (event, payload) of everything received so far."""
        return [(event, payload) for _, event, payload in self.stamped()]

    def named(self, name):
        """Return the payloads of the events of one name received so far."""
        return [payload for event, payload in self.received() if event == name]

    @property
    def events(self):
        """Return the codes of every batch received so far, in order."""
        with self._lock:
            return list(self._codes)

    def count(self):
        """Return how many event codes have arrived in batches."""
        with self._lock:
            return len(self._codes)

    @property
    def errors(self):
        """Return the messages of the errors the server sent."""
        return [payload["message"] for payload in self.named("error")]

    @property
    def started(self):
        """Return the 'started' payloads received so far."""
        return self.named("started")

    @property
    def result(self):
        """Return the last 'finished' payload, or None."""
        finished = self.named("finished")
        return finished[-1] if finished else None

    def followed(self):
        """Return the (codes, path) of the run as a follower's page rebuilds it."""
        return followed(self.received())


class Turns:
    """Tickets handed out in arrival order: each handler runs in its ticket's turn."""

    def __init__(self):
        self._cond = threading.Condition()
        self._taken = 0
        self._serving = 0
        self._mine = threading.local()

    def take(self):
        """Return the next ticket (called by the one thread that receives)."""
        with self._cond:
            self._taken += 1
            return self._taken - 1

    def run(self, ticket, handler, *args):
        """Wait for the ticket's turn, then run handler(*args), passing the turn on at the end."""
        with self._cond:
            self._cond.wait_for(lambda: self._serving == ticket)
        self._mine.ticket = ticket
        try:
            handler(*args)
        finally:
            self.pass_on()

    def pass_on(self):
        """Let the next message's handler run, while this one goes on (if it has the turn)."""
        if getattr(self._mine, "ticket", None) is None:
            return
        self._mine.ticket = None
        with self._cond:
            self._serving += 1
            self._cond.notify_all()


class _InOrderEngineIO(engineio.Client):
    """Engine.IO's client, handling messages in the order they arrived.

    It hands each message to a thread of its own; two that arrive together (the two batches
    of the acknowledgement window) would otherwise reach their handlers in either order.
    """

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.turns = Turns()

    def _receive_packet(self, pkt):
        if pkt.packet_type == engineio.packet.MESSAGE and "message" in self.handlers:
            ticket = self.turns.take()  # on the receiving thread, so in arrival order
            self.start_background_task(self.turns.run, ticket, self.handlers["message"], pkt.data)
        else:
            super()._receive_packet(pkt)


class _InOrderClient(socketio.Client):
    """python-socketio's client over an Engine.IO client that keeps messages in order."""

    def _engineio_client_class(self):
        return _InOrderEngineIO


class RecordingClient(Recording):
    """A python-socketio client over WebSocket that records what the server sends it.

    Events are recorded in the order they arrived. With ack=False it holds back the
    acknowledgement of every batch (and so holds up the server's player) until release()
    is called.
    """

    def __init__(self, url, ack=True, **connect_options):
        super().__init__()
        self.acking = threading.Event()
        if ack:
            self.acking.set()
        self.sio = _InOrderClient(reconnection=False)
        self.sio.on("*", self._on_event)
        self.sio.connect(url, transports=["websocket"], wait_timeout=5, **connect_options)

    def _on_event(self, event, payload=None):
        self.keep(event, payload)
        self.sio.eio.turns.pass_on()  # recorded: later messages need not wait for the ack
        if event == "events":
            self.acking.wait()  # the acknowledgement goes when this returns
        return True

    @property
    def sid(self):
        """Return the id the server knows this client by (its request.sid)."""
        return self.sio.get_sid()

    def release(self):
        """Acknowledge batches again, from now on."""
        self.acking.set()

    def call(self, event, data=None, timeout=10):
        """Send an event and return the server's acknowledgement."""
        return self.sio.call(event, data, timeout=timeout)

    def close(self):
        """Disconnect, if still connected."""
        self.acking.set()
        if self.sio.connected:
            self.sio.disconnect()


def sent(test_client):
    """Return (event, payload) of everything sent so far to a Flask-SocketIO test client."""
    # Read, not taken away as get_received() does: it would lose what a run's thread sends
    # between its two passes over the queue.
    packets = list(test_client.queue)
    return [(packet["name"], packet["args"][0] if packet["args"] else None) for packet in packets]


def sent_to(test_client, name):
    """Return the payloads of the events of one name sent so far to a Flask-SocketIO test client."""
    return [payload for event, payload in sent(test_client) if event == name]


def websocket_url(url):
    """Return the Engine.IO WebSocket address of a server's http:// URL."""
    return url.replace("http", "ws", 1) + "/socket.io/?EIO=4&transport=websocket"


class RawClient:
    """A bare Socket.IO connection over WebSocket, speaking the wire protocol by hand.

    A reader thread answers pings, records the answers to its requests by ack id and the
    events the server sends, and (with ack_batches) acknowledges every event that asks.
    """

    def __init__(self, url, *, ack_batches=True, timeout=5, **options):
        self.ws = websocket.create_connection(websocket_url(url), timeout=timeout, **options)
        try:
            assert self.ws.recv().startswith("0")  # Engine.IO open
            self.ws.send("40")
            # A busy server may ping before it answers (the tests' servers ping every 0.25 s).
            while (answer := self.ws.recv()) == "2":
                self.ws.send("3")
            assert answer.startswith("40"), answer  # Socket.IO connect
        except BaseException:
            self.ws.close()  # a client that never got going leaves no socket behind
            raise
        self.ack_batches = ack_batches
        self._answers = {}  # ack id -> the server's answer (a list of arguments)
        self._events = []  # (event name, payload, ack id or None)
        self._lock = threading.Lock()
        self.ws.settimeout(None)
        self.reader = threading.Thread(target=self._read, daemon=True, name="raw-client")
        self.reader.start()

    def _read(self):
        while True:
            try:
                data = self.ws.recv()
            except Exception:  # the connection is closed, by either side
                return
            if not self.ws.connected:  # the server sent a close frame
                return
            if not isinstance(data, str):
                continue
            if data == "2":
                self.send("3")
            elif data.startswith("43"):
                bracket = data.index("[")
                with self._lock:
                    self._answers[int(data[2:bracket])] = json.loads(data[bracket:])
            elif data.startswith("42"):
                bracket = data.index("[")
                ack_id = int(data[2:bracket]) if bracket > 2 else None
                name, *args = json.loads(data[bracket:])
                with self._lock:
                    self._events.append((name, args[0] if args else None, ack_id))
                if ack_id is not None and self.ack_batches:
                    self.ack(ack_id)

    @property
    def alive(self):
        """Tell whether the connection is still open (its reader still reading)."""
        return self.reader.is_alive()

    def send(self, text):
        """Send a frame; return False if the connection is closed."""
        try:
            self.ws.send(text)
            return True
        except (OSError, websocket.WebSocketConnectionClosedException):
            return False

    def emit(self, ack_id, event, *args):
        """Send an event with an ack id, as a page's request."""
        return self.send(f"42{ack_id}{json.dumps([event, *args])}")

    def ack(self, ack_id):
        """Acknowledge an event the server sent."""
        return self.send(f"43{ack_id}[]")

    def answers(self):
        """Return the server's answers so far, by ack id."""
        with self._lock:
            return dict(self._answers)

    def events(self, name=None):
        """Return (name, payload, ack id) of the events received so far, of one name if given."""
        with self._lock:
            return [each for each in self._events if name is None or each[0] == name]

    def close(self):
        """Close without waiting for the server's half of the close handshake."""
        sock = self.ws.sock
        if sock is not None:
            try:
                self.ws.send_close()
            except (OSError, websocket.WebSocketException):
                pass  # the server has closed the connection already
            # Shut down even after a close frame from the server (websocket-client's close()
            # then does nothing): a reader blocked on the socket wakes only this way.
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        self.ws.shutdown()
        self.reader.join(5)
