"""Fixtures: a fresh app per test, its test client, and a real server on a free port."""

import threading
import time

import pytest
import socketio as socketio_client
from werkzeug.serving import make_server

from server import create_app, socketio
from server.runs import runs


@pytest.fixture
def app():
    """Create a fresh app for one test."""
    return create_app({"TESTING": True})


@pytest.fixture
def client(app):
    """Connect a Flask-SocketIO test client (it never acknowledges server events)."""
    test_client = socketio.test_client(app)
    yield test_client
    if test_client.is_connected():
        test_client.disconnect()


def wait_for(predicate, timeout=10.0, interval=0.01):
    """Poll predicate until it is true or timeout seconds pass; return its last value."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(interval)


def path_of(events):
    """Replay (kind, vertex, depth) events into the path they leave, checking each depth."""
    path = []
    for kind, vertex, depth in events:
        if kind == "visit":
            assert depth == len(path)
            path.append(vertex)
        elif kind == "backtrack":
            assert path.pop() == vertex and depth == len(path)
    return path


class LiveServer:
    """The app served by a real threaded HTTP server on a free loopback port."""

    def __init__(self, app):
        """Start serving app."""
        self.app = app
        self.httpd = make_server("127.0.0.1", 0, app, threaded=True)
        self.url = f"http://127.0.0.1:{self.httpd.server_port}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def active_runs(self):
        """Return how many runs the app has alive."""
        return len(runs(self.app))

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(5)


@pytest.fixture
def live_server():
    """Serve a fresh app on a free port for one test."""
    server = LiveServer(create_app({"TESTING": True}))
    yield server
    server.close()


class Watcher:
    """A python-socketio client that records what the server sends it."""

    def __init__(self, url, ack=True):
        self.sio = socketio_client.Client(reconnection=False)
        self.batches, self.events, self.errors, self.started = [], [], [], []
        self.finished = threading.Event()
        self.result = None
        self.acking = threading.Event()
        if ack:
            self.acking.set()

        @self.sio.on("started")
        def started(payload):
            self.started.append(payload)

        @self.sio.on("events")
        def events(payload):
            self.batches.append(payload)
            self.events.extend(payload["events"])
            self.acking.wait()  # the acknowledgement goes when this returns
            return True

        @self.sio.on("finished")
        def finished(payload):
            self.result = payload
            self.finished.set()

        @self.sio.on("error")
        def error(payload):
            self.errors.append(payload["message"])

        self.sio.connect(url, transports=["websocket"], wait_timeout=5)

    def call(self, event, data=None):
        """Send an event and return the server's acknowledgement."""
        return self.sio.call(event, data, timeout=10)

    def close(self):
        self.acking.set()
        if self.sio.connected:
            self.sio.disconnect()


@pytest.fixture
def watcher(live_server):
    """Return a factory of connected Watchers, all closed after the test."""
    made = []

    def make(ack=True):
        made.append(Watcher(live_server.url, ack))
        return made[-1]

    yield make
    for each in made:
        each.close()
    assert wait_for(lambda: live_server.active_runs() == 0, 5), "a run outlived its client"
