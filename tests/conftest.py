"""Fixtures: fresh apps, real servers and clients closed after each test, and a check for leaks."""

import threading
from pathlib import Path

import pytest

from server import create_app, socketio
from tests.support.clients import RawClient, RecordingClient
from tests.support.cluster import Cluster
from tests.support.leaks import leftovers, sockets, threads
from tests.support.proxy import Nginx
from tests.support.servers import LiveServer, ProductionServer, stop_processes
from tests.support.waiting import wait_for

ROOT = Path(__file__).resolve().parent.parent

TEST_CONFIG = {
    "TESTING": True,
    # A closed connection's ping thread ends only once it has slept out PING_INTERVAL.
    "PING_INTERVAL": 0.25,
    # A class whose instructor has gone ends after CLASS_ORPHAN_SECONDS (long enough for a
    # page to reload and claim it back), noticed by a reaper that looks every REAP seconds.
    "CLASS_ORPHAN_SECONDS": 2,
    "CLASS_REAP_SECONDS": 0.1,
}
LEAK_WAIT = 10  # seconds for what a test left to end by itself before the test fails

_apps = []  # every app made by these fixtures, so that the leak check can look into it


def new_app(config=None):
    """Create an app with the tests' configuration (and config on top)."""
    app = create_app({**TEST_CONFIG, **(config or {})})
    _apps.append(app)
    return app


class Made(list):
    """A factory fixture's maker: calling it builds one more thing, kept to close after the test."""

    def __init__(self, build):
        super().__init__()
        self.build = build

    def __call__(self, *args, **options):
        self.append(self.build(*args, **options))
        return self[-1]


def close_all(closeables):
    """Close each at the same time as the others: each close may wait for the other side."""
    closing = [threading.Thread(target=each.close, name="closing") for each in closeables]
    for thread in closing:
        thread.start()
    for thread in closing:
        thread.join(15)


@pytest.fixture(autouse=True)
def no_leaks():
    """Fail the test if it leaves a thread, a socket, or an app's runs or classes behind."""
    # Autouse and function-scoped, this is set up before the test's other fixtures (after the
    # session's, whose threads are then counted as already there) and torn down after them.
    threads_before, sockets_before, apps_before = threads(), sockets(), len(_apps)
    yield
    # Some things end by themselves a bounded time after the test: a closed connection's ping
    # thread, a class its instructor has left.
    apps = _apps[apps_before:]
    wait_for(lambda: not leftovers(threads_before, sockets_before, apps), LEAK_WAIT, interval=0.02)
    found = leftovers(threads_before, sockets_before, apps)
    del _apps[apps_before:]
    if found:
        pytest.fail("the test left behind: " + "; ".join(found), pytrace=False)


@pytest.fixture
def app():
    """Create a fresh app for one test."""
    return new_app()


@pytest.fixture
def configured():
    """Return configured(config): a fresh app with the tests' configuration and config on top."""
    return new_app


@pytest.fixture
def clients(app):
    """Return clients(): a new Flask-SocketIO test client of app, disconnected after the test."""
    # A test client never acknowledges what the server sends it.
    made = Made(lambda: socketio.test_client(app))
    yield made
    for each in made:
        if each.is_connected():
            each.disconnect()


@pytest.fixture
def client(clients):
    """Connect a Flask-SocketIO test client to app."""
    return clients()


@pytest.fixture
def serve():
    """Return serve(config=None): a LiveServer of a fresh app with config, closed after the test."""
    # One at a time: background emits go through the one SocketIO object, bound to the last app.
    made = Made(lambda config=None: LiveServer(new_app(config)))
    yield made
    for server in made:
        server.close()


@pytest.fixture
def live_server(serve):
    """Serve a fresh app on a free port for one test."""
    return serve()


@pytest.fixture
def connect():
    """Return connect(url, ack=True, **options): a new RecordingClient, closed after the test.

    Ask for it after the fixture of the servers it connects to: fixtures end in reverse order, so
    the clients close before their servers stop (and say goodbye to whoever is still connected).
    """
    made = Made(RecordingClient)
    yield made
    close_all(made)


@pytest.fixture
def people(live_server, connect):
    """Return people(ack=True): a new client of the live server (see connect); the classes they
    lead end after the test."""
    made = []

    def person(ack=True):
        made.append(connect(live_server.url, ack=ack))
        return made[-1]

    yield person
    # Ended now, rather than CLASS_ORPHAN_SECONDS after their instructors have gone.
    for each in made:
        if each.sio.connected:
            each.call("class_end")


@pytest.fixture
def raw():
    """Return raw(url, **options): a new RawClient, closed after the test."""
    made = Made(RawClient)
    yield made
    close_all(made)


@pytest.fixture
def clusters(tmp_path):
    """Return clusters(n, *args): Redis and n `python -m server` processes sharing it, each with
    extra options args; each stopped after the test (its logs are in the test's tmp_path)."""

    def build(n=2, *args):
        directory = tmp_path / f"cluster-{len(made) + 1}"
        directory.mkdir()
        return Cluster(directory, n, args, cwd=ROOT)

    made = Made(build)
    yield made
    for each in made:
        each.close()


@pytest.fixture
def nginx(tmp_path):
    """Return nginx(ports): nginx balancing the app servers on those ports, stopped after the test."""

    def build(ports):
        directory = tmp_path / f"nginx-{len(made) + 1}"
        directory.mkdir()
        return Nginx(directory, ports)

    made = Made(build)
    yield made
    for each in made:
        each.close()


@pytest.fixture(scope="module")
def production(tmp_path_factory):
    """Return production(*args): `python -m server` with extra options args, on a free port.

    Module-scoped, so that a module's tests can share a server: each is stopped after the
    module's last test (or sooner, by its close()). It opens no socket or thread in this process.
    """
    logs = tmp_path_factory.mktemp("production")
    made = Made(lambda *args: ProductionServer(args, log_path=logs / f"server-{len(made) + 1}.log", cwd=ROOT))
    yield made
    stop_processes([server.process for server in made])
