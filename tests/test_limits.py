"""Limits on what one client may send: the size of a request, and how many a second."""

import json
import re
import threading

from tests.support.waiting import wait_for

GOOD = {"rows": 6, "cols": 6, "start": 0, "order": "naive", "speed": 0}


def test_a_request_too_large_is_refused(client):
    answer = client.emit("start", {**GOOD, "rows": "9" * 100_000}, callback=True)
    assert answer["ok"] is False
    assert re.fullmatch(
        r"that request is too large \(100,\d{3} bytes; the limit is 16,384\)", answer["error"]
    )


def test_a_flood_of_requests_is_refused_beyond_the_rate(clients):
    flooder, calm = clients(), clients()
    answers = [flooder.emit("stop", callback=True) for _ in range(200)]
    refused = [a for a in answers if not a["ok"]]
    assert 100 < len(refused) < 200 and all("too many requests" in a["error"] for a in refused)
    assert calm.emit("stop", callback=True) == {"ok": True}  # the limit is the flooder's alone


def test_a_message_too_big_for_the_transport_closes_only_that_connection(live_server, connect, raw):
    good = connect(live_server.url)
    huge = raw(live_server.url)
    huge.send("42" + json.dumps(["start", {"rows": "9" * 200_000}]))
    assert wait_for(lambda: not huge.alive, 10), "the server closes an oversized connection"
    assert good.call("start", {**GOOD, "rows": 5, "cols": 5})["ok"] is True
    assert good.finished.wait(20) and good.result["visits"] == 5010


def test_a_flooding_client_does_not_slow_a_good_one(live_server, connect, raw):
    flooder = raw(live_server.url)
    good = connect(live_server.url)
    good.call("start", {**GOOD, "speed": 200})
    stop = threading.Event()

    def flood():
        n = 0
        while not stop.is_set() and n < 50_000:
            flooder.send(f"42{n}" + json.dumps(["pause"]))
            n += 1

    thread = threading.Thread(target=flood, name="flood")
    thread.start()
    try:
        # Two seconds of flooding, in which the good client keeps its pace of 200 a second.
        assert not wait_for(lambda: good.count() > 2 * 200 * 2.5, timeout=2.0)
    finally:
        stop.set()
        thread.join()
    received = good.count()
    assert 200 <= received <= 2 * 200 * 2.5
    too_many = [a for a in flooder.answers().values() if "too many requests" in a[0].get("error", "")]
    assert len(too_many) > 100, "the flood beyond the limit was refused"
