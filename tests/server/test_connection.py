"""A connection's own events: its end (which ends its run) and events the server does not know."""

from tests.support.clients import sent_to
from tests.support.leaks import threads, threads_since
from tests.support.replies import refused
from tests.support.waiting import wait_for

GOOD = {"rows": 6, "cols": 6, "start": 0, "order": "naive", "speed": 100}


def test_unknown_event_is_refused(client):
    answer = client.emit("teleport", {"to": 3}, callback=True)
    assert answer == refused("request.invalid", "unknown event 'teleport'")
    assert sent_to(client, "error") == [{"code": "request.invalid", "message": "unknown event 'teleport'"}]


def test_connect_start_disconnect_cycles_leave_no_threads(live_server, connect):
    before = threads()
    for _ in range(51):
        client = connect(live_server.url)
        client.call("start", GOOD)
        client.close()
    assert wait_for(lambda: live_server.active_runs() == 0, 5)
    # Engine.IO's service thread, started by the server's first connection, stays until it closes.
    assert wait_for(lambda: len(threads_since(before)) <= 1, 10), threads_since(before)
