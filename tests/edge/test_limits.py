"""Limits on what one client may send: the size of a request, and how many a second."""

import json
import re
import threading
import time

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
    answers = [flooder.emit("stop", callback=True) for _ in range(90)]
    refused = [a for a in answers if not a["ok"]]
    # 60 at once are allowed (RATE_BURST), then about one more every 33 ms.
    assert 20 < len(refused) <= 30 and all("too many requests" in a["error"] for a in refused)
    assert calm.emit("stop", callback=True) == {"ok": True}  # the limit is the flooder's alone


def test_a_message_too_big_for_the_transport_closes_only_that_connection(live_server, connect, raw):
    good = connect(live_server.url)
    huge = raw(live_server.url)
    huge.send("42" + json.dumps(["start", {"rows": "9" * 200_000}]))
    assert wait_for(lambda: not huge.alive, 10), "the server closes an oversized connection"
    assert good.call("start", {**GOOD, "rows": 5, "cols": 5})["ok"] is True
    assert good.finished.wait(20) and good.result["visits"] == 5010


def test_a_client_that_keeps_flooding_is_disconnected_and_a_good_one_keeps_its_pace(
    live_server, connect, raw
):
    flooder = raw(live_server.url)
    good = connect(live_server.url)
    good.call("start", {**GOOD, "speed": 200})

    def flood():
        n = 0
        while flooder.send(f"42{n}" + json.dumps(["pause"])) and n < 50_000:
            n += 1

    thread = threading.Thread(target=flood, name="flood")
    began = time.monotonic()
    thread.start()
    try:
        assert wait_for(lambda: not flooder.alive, 10), "a flooder is disconnected"
        lasted = time.monotonic() - began
    finally:
        thread.join()
    errors = [payload["message"] for name, payload, _ in flooder.events("error")]
    assert errors[-1] == "disconnected for sending too many requests"
    too_many = errors.count("too many requests: at most 30 a second; wait a moment")
    # The burst of 60 was handled (each answered: no run to pause); 60 more beyond it were
    # refused before the server hung up. The bucket refills at 30 a second while the flood lasts:
    # each token it gains lets one more request in, or one more be refused before the end.
    no_run = "there is no run to pause: send 'start' first"
    assert errors[:60] == [no_run] * 60
    refilled = errors.count(no_run) - 60
    assert too_many >= 60 and refilled >= 0
    assert (too_many - 60) + refilled <= 30 * lasted + 1
    assert len(errors) == 60 + refilled + too_many + 1
    # The good client's run went on at its pace, and goes on.
    before = good.count()
    assert wait_for(lambda: good.count() >= before + 100, 5)
    assert good.errors == []
