"""The production server's open files: its limit raised at start, and a full server that says so."""

import json
import resource
from types import SimpleNamespace

import pytest
import websocket

from server.__main__ import SPARE_FILES, WORKER_CONNECTIONS, raise_open_file_limit, websocket_capacity
from tests.support.clients import websocket_url
from tests.support.servers import ProductionServer
from tests.support.waiting import wait_for


class FakeLimits(SimpleNamespace):
    """The resource module's open-file calls, on limits a test chooses."""

    RLIMIT_NOFILE = resource.RLIMIT_NOFILE

    def getrlimit(self, which):
        return self.limits

    def setrlimit(self, which, limits):
        if limits[0] == resource.RLIM_INFINITY or limits[0] > self.ceiling:
            raise ValueError("not allowed to raise maximum limit")
        self.limits = limits


@pytest.mark.parametrize(
    ("limits", "ceiling", "soft"),
    [
        ((1024, 4096), 4096, 4096),  # the common case: raised to the hard limit
        ((4096, 4096), 4096, 4096),  # already there
        ((256, resource.RLIM_INFINITY), 65536, 256),  # a hard limit the system will not grant: kept
    ],
)
def test_the_soft_limit_is_raised_to_the_hard_limit(limits, ceiling, soft):
    fake = FakeLimits(limits=limits, ceiling=ceiling)
    assert raise_open_file_limit(fake) == soft
    assert fake.limits[0] == soft


@pytest.mark.parametrize(
    ("open_files", "capacity"),
    [
        (1024, 1024 - max(SPARE_FILES, 102)),
        (20_000, WORKER_CONNECTIONS * 9 // 10),  # gunicorn's pool is the bound; a tenth kept back
        (1_048_576, WORKER_CONNECTIONS * 9 // 10),
        (SPARE_FILES + 20, 20),
        (50, 1),
    ],
)
def test_the_capacity_leaves_room_for_everything_else(open_files, capacity):
    assert websocket_capacity(open_files) == capacity


def connect(url):
    """Open a WebSocket, ask Socket.IO to connect, and return it with the server's answer."""
    ws = websocket.create_connection(websocket_url(url), timeout=10)
    assert ws.recv().startswith("0")  # Engine.IO open
    ws.send("40")
    return ws, ws.recv()


def worker_limit(server):
    """Return the (soft, hard) open-file limits of the server's worker process."""
    return server.worker.process.rlimit(resource.RLIMIT_NOFILE)


def test_python_m_server_raises_its_limit(tmp_path):
    with ProductionServer(log_path=tmp_path / "server.log", open_files=(256, 600)) as server:
        assert worker_limit(server) == (600, 600)
        capacity = websocket_capacity(600)
        assert f"at most {capacity:,} pages connected at once" in server.log()


def test_a_full_server_refuses_with_a_sentence_and_takes_pages_again_when_one_leaves(tmp_path):
    capacity = websocket_capacity(SPARE_FILES + 20)
    held = []
    with ProductionServer(log_path=tmp_path / "server.log", open_files=(SPARE_FILES + 20,) * 2) as server:
        try:
            for _ in range(capacity):
                ws, answer = connect(server.url)
                held.append(ws)
                assert answer.startswith("40{"), answer
            refused, answer = connect(server.url)
            assert answer.startswith("44"), answer
            assert json.loads(answer[2:]) == {
                "message": f"the server is full: it serves at most {capacity:,} connections at once; "
                "try again in a minute",
                "data": {"code": "server.full", "values": {"count": capacity}},
            }
            refused.close()
            held.pop().close()
            # The room made by one leaving is taken by the next page (the refused one held none).
            assert wait_for(lambda: connect_and_keep(server.url, held), 10)
        finally:
            for ws in held:
                ws.close()
        assert wait_for(lambda: not server.worker.peers(), 10)


def connect_and_keep(url, held):
    """Connect once; keep the connection if the server took it, and tell whether it did."""
    ws, answer = connect(url)
    if answer.startswith("40{"):
        held.append(ws)
        return True
    ws.close()
    return False
