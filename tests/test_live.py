"""A real server on a free port, driven by real Socket.IO clients over WebSocket."""

import json
import threading

import websocket

from server import create_app
from server.engine.graph import knight_graph
from server.player import WINDOW
from server.engine.search import knight_tour
from server.wire import encode

from .conftest import LiveServer, Watcher, path_of, wait_for

GOOD = {"rows": 5, "cols": 5, "start": 0, "order": "naive", "speed": 0}


def test_full_run_delivers_exactly_the_engines_events(watcher):
    client = watcher()
    answer = client.call("start", GOOD)
    assert answer["ok"] is True
    assert client.finished.wait(20)
    events = list(knight_tour(knight_graph(5, 5), 0))
    assert client.events == encode(events)
    result = client.result
    assert (result["found"], result["visits"], result["backtracks"]) == (True, 5010, 4985)
    assert result["path"] == path_of(events) and result["run"] == answer["run"]
    assert client.errors == []


def test_finished_reports_no_tour(watcher):
    client = watcher()
    client.call("start", {**GOOD, "rows": 3, "cols": 3})
    assert client.finished.wait(10)
    assert client.result["found"] is False and client.result["path"] == []
    assert client.events[-1] == -1  # the last event backtracks out of square 0


def test_pause_then_step_sends_exactly_the_next_event(watcher):
    client = watcher()
    client.call("start", {**GOOD, "speed": 50})
    assert wait_for(lambda: len(client.events) >= 3)
    assert client.call("pause") == {"ok": True}
    wait_for(lambda: False, timeout=0.3)  # a batch already on its way may still land
    held = len(client.events)
    assert not wait_for(lambda: len(client.events) > held, timeout=0.5)
    expected = encode(list(knight_tour(knight_graph(5, 5), 0)))
    for _ in range(3):
        assert client.call("step") == {"ok": True}
        assert wait_for(lambda: len(client.events) == held + 1)
        held += 1
        assert client.events == expected[:held]
    assert client.call("resume") == {"ok": True}
    assert wait_for(lambda: len(client.events) > held + 10)


def test_speed_paces_and_can_change(watcher):
    client = watcher()
    client.call("start", {**GOOD, "rows": 6, "cols": 6, "speed": 10})
    wait_for(lambda: False, timeout=1.0)
    slow = len(client.events)
    assert 3 <= slow <= 25  # paced: unpaced, this would be thousands
    assert client.call("speed", {"speed": 0}) == {"ok": True}
    assert wait_for(lambda: len(client.events) > 10_000)


def test_start_replaces_the_clients_run(watcher, live_server):
    client = watcher()
    first = client.call("start", {**GOOD, "rows": 6, "cols": 6, "speed": 5})["run"]
    second = client.call("start", {**GOOD, "order": "warnsdorff"})["run"]
    assert client.finished.wait(10)
    assert client.result["run"] == second != first
    assert [s["run"] for s in client.started] == [first, second]
    assert live_server.active_runs() == 0


def test_bad_requests_do_not_disturb_another_client(watcher):
    good, bad = watcher(), watcher()
    good.call("start", {**GOOD, "rows": 6, "cols": 6})
    for payload in [None, {"rows": "x"}, {**GOOD, "start": 99}, {**GOOD, "order": "zig"}]:
        assert bad.call("start", payload)["ok"] is False
    assert bad.call("teleport", 1)["ok"] is False
    assert good.finished.wait(20)
    assert good.errors == [] and good.result["visits"] == 183_635
    assert len(bad.errors) == 5


def raw_socket(url):
    """Open a bare Socket.IO connection, to act as a client that never acknowledges."""
    ws = websocket.create_connection(
        url.replace("http", "ws") + "/socket.io/?EIO=4&transport=websocket", timeout=5
    )
    assert ws.recv().startswith("0")  # Engine.IO open
    ws.send("40")
    assert ws.recv().startswith("40")  # Socket.IO connect
    return ws


def read_packets(ws, seconds):
    """Read Socket.IO packets for a while, answering pings; return the event packets."""
    ws.settimeout(seconds)
    packets = []
    try:
        while True:
            data = ws.recv()
            if data == "2":
                ws.send("3")
            elif data.startswith("42"):
                packets.append(data)
    except websocket.WebSocketTimeoutException:
        return packets


def test_a_client_that_stops_acknowledging_is_not_flooded(live_server):
    ws = raw_socket(live_server.url)
    ws.send("42" + json.dumps(["start", {**GOOD, "rows": 6, "cols": 6}]))
    packets = read_packets(ws, 1.0)
    batches = [p for p in packets if p.startswith("42") and '"events"' in p[:30]]
    assert len(batches) == WINDOW
    assert read_packets(ws, 1.0) == []  # nothing more while it does not acknowledge
    # Acknowledging one batch releases exactly one more.
    ack_id = batches[0][2 : batches[0].index("[")]
    ws.send(f"43{ack_id}[]")
    assert len([p for p in read_packets(ws, 0.5) if '"events"' in p[:30]]) == 1
    ws.close()
    assert wait_for(lambda: live_server.active_runs() == 0, 5)


def test_connect_start_disconnect_cycles_leave_no_threads():
    # A short ping interval lets each connection's ping thread notice the close quickly.
    live_server = LiveServer(create_app({"TESTING": True, "PING_INTERVAL": 1}))

    def cycle():
        client = Watcher(live_server.url)
        client.call("start", {**GOOD, "rows": 6, "cols": 6, "speed": 100})
        client.close()

    cycle()  # let the server's lazily made threads exist before counting
    assert wait_for(lambda: live_server.active_runs() == 0, 5)
    before = threading.active_count()
    for _ in range(50):
        cycle()
    assert wait_for(lambda: live_server.active_runs() == 0, 5)
    assert wait_for(lambda: threading.active_count() <= before, 10), threading.enumerate()
    live_server.close()


def test_skip_reports_progress_then_the_final_board(watcher):
    client = watcher()
    progress = []
    client.sio.on("progress", lambda snapshot: progress.append(snapshot) or True)
    client.call("start", {**GOOD, "rows": 7, "cols": 7, "paused": True})
    assert client.call("skip") == {"ok": True}
    assert client.finished.wait(30)
    result = client.result
    assert (result["visits"], result["backtracks"], result["found"]) == (137_459, 137_410, True)
    assert result["path"] == path_of(knight_tour(knight_graph(7, 7), 0))
    assert client.events == []  # nothing was streamed
    assert all(p["skipping"] and p["run"] == result["run"] for p in progress)


def test_budget_ends_the_run_with_its_own_result(watcher):
    client = watcher()
    client.call("start", {**GOOD, "rows": 6, "cols": 6, "budget": 5000})
    assert client.finished.wait(10)
    assert len(client.events) == 5000
    assert (client.result["stopped"], client.result["found"]) == ("budget", False)


def test_all_tours_over_the_socket(watcher):
    client = watcher()
    client.call("start", {**GOOD, "rows": 3, "cols": 4, "all_tours": True})
    assert client.finished.wait(10)
    assert client.events.count("found") == client.result["tours"] == 2
