"""WebSocket frames from hostile clients: oversized, compressed, binary, floods of frames that are
not requests, and odd values, each closed or refused while a good client streams on."""

import json
import socket
import time
import zlib

import pytest

from server.edge import MAX_FRAME_BYTES
from server.edge.limits import BURST, FRAME_BURST, FRAME_RATE, MAX_MESSAGE_BYTES, RATE
from tests.support.hostile import ENGINE, GOOD, PACE, RSS_SLACK, TOO_MANY, Streaming, Watch, finished, gone
from tests.support.process import MB
from tests.support.replies import refused
from tests.support.waiting import wait_for
from tests.support.wire import (
    BINARY,
    MESSAGE_TOO_BIG,
    PING,
    POLICY_VIOLATION,
    PONG,
    PROTOCOL_ERROR,
    TEXT,
    UNSUPPORTED_DATA,
    Wire,
    closing,
    errors_in,
    frame,
    text_frame,
)


def test_a_frame_declaring_100_mb_is_closed_once_64_kb_have_arrived(site, connect, opened):
    watch = Watch(site)
    good = Streaming(connect(site.url))
    wire = opened(Wire(site.port))
    assert wire.status == 101
    wire.connect()
    # The largest message is taken: a request of exactly 64 KB is answered (as too large a request).
    head = '421["stop","'
    wire.send_text(head + "x" * (MAX_FRAME_BYTES - len(head) - 2) + '"]')
    answer = json.loads(wire.expect(lambda text: text.startswith("431"))[3:])
    too_large = (
        f"that request is too large ({MAX_FRAME_BYTES - 1:,} bytes; the limit is {MAX_MESSAGE_BYTES:,})"
    )
    assert answer == [refused("request.too_large", too_large)]
    with site.worker.peak() as peak:
        # A text frame declaring 100 MB, then one byte more than 64 KB of it.
        wire.send(frame(TEXT, length=100 * MB))
        sent_at = time.monotonic()
        wire.send(b"9" * (MAX_FRAME_BYTES + 1))
        code = closing(wire.rest()).close_code
        closed_after = time.monotonic() - sent_at
        assert code == MESSAGE_TOO_BIG
        # The rest of a few MB finds the connection gone.
        gone(site.worker, wire.address, 5)
        with pytest.raises(OSError):
            for _ in range(64):
                wire.send(b"9" * (1 << 16))
    events, after = finished(good, watch)
    print(f"  closed with {code} {closed_after * 1000:.1f} ms after 64 KB + 1 byte arrived;")
    print(f"  peak RSS {peak.rss / MB:.1f} MB")
    print(f"  the good client got {events:,} exact events meanwhile")
    assert peak.rss < watch.before.rss + RSS_SLACK, "the worker took the declared 100 MB"
    assert after.rss < watch.before.rss + RSS_SLACK


def deflate_bomb(inflated=256 * MB):
    """Return a permessage-deflate payload that inflates to inflated bytes of zeros."""
    squeeze = zlib.compressobj(9, zlib.DEFLATED, -15)
    block = bytes(MB)
    data = b"".join(squeeze.compress(block) for _ in range(inflated // MB))
    data += squeeze.flush(zlib.Z_SYNC_FLUSH)
    return data[:-4]  # a message leaves out the flush's final 00 00 ff ff (RFC 7692)


def test_permessage_deflate_is_declined_and_a_compressed_frame_closes_the_connection(site, connect, opened):
    watch = Watch(site)
    good = Streaming(connect(site.url))
    bomb = deflate_bomb()
    # Offered exactly as Chromium offers it.
    wire = opened(
        Wire(site.port, headers=["Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits"])
    )
    assert wire.status == 101
    assert "sec-websocket-extensions" not in wire.headers, wire.headers
    wire.connect()
    with site.worker.peak() as peak:
        # RSV1 marks a compressed frame: without the extension it is a protocol error, on its header.
        message = frame(TEXT, bomb, rsv1=True)
        wire.send(message[:4096])
        code = closing(wire.rest()).close_code
        assert code == PROTOCOL_ERROR
        try:
            wire.send(message[4096:])
        except OSError:
            pass  # the server has closed the connection: the rest may or may not go in before it notices
        gone(site.worker, wire.address, 5)
    events, after = finished(good, watch)
    print(f"  {len(bomb) / 1024:.0f} KB bomb: closed with {code}; peak RSS {peak.rss / MB:.1f} MB")
    print(f"  the good client got {events:,} exact events meanwhile")
    assert peak.rss < watch.before.rss + RSS_SLACK
    assert after.rss < watch.before.rss + RSS_SLACK


def test_binary_packets_are_refused_and_binary_frames_close_the_connection(site, connect, opened):
    watch = Watch(site)
    good = Streaming(connect(site.url))
    wire = opened(Wire(site.port))
    wire.connect()
    placeholder = '["start",{"_placeholder":true,"num":0}]'
    announcing = [
        "451-" + placeholder,  # one attachment to come
        "45999999-" + placeholder,  # 999,999 of them
        "45999999-7" + placeholder,  # and an acknowledgement id
        "46999999-7[{}]",  # a binary acknowledgement
        "45" + "9" * 100 + "-" + placeholder,
    ]
    with site.worker.peak() as peak:
        for n, packet in enumerate(announcing):
            wire.send_text(packet)
            # Each is answered; a request after it shows the server holds no attachment for it.
            wire.send_text(f'42{n + 1}["stop"]')
            wire.expect(lambda text, n=n: text.startswith(f"43{n + 1}["))
        refused = '42["error",{"code":"request.invalid","message":"binary packets are not accepted"}]'
        assert wire.seen == [
            each for n in range(len(announcing)) for each in (refused, f'43{n + 1}[{{"ok":true}}]')
        ]
        seen = len(wire.seen)
        wire.send(frame(BINARY, b"\x04" + bytes(1000)))  # an attachment, as if it were awaited
        frames = wire.rest()
    assert closing(frames).close_code == UNSUPPORTED_DATA
    assert wire.seen[seen:] == [], "the binary frame is not answered: it closes the connection"
    gone(site.worker, wire.address, 5)
    events, after = finished(good, watch)
    print(f"  {len(announcing)} binary packets refused, a binary frame closed with 1003;")
    print(f"  peak RSS {peak.rss / MB:.1f} MB")
    print(f"  the good client got {events:,} exact events meanwhile")
    assert peak.rss < watch.before.rss + RSS_SLACK
    assert after.rss < watch.before.rss + RSS_SLACK


def test_connect_and_disconnect_events_are_refused_and_do_not_refill_the_rate_limit(site, connect, raw):
    watch = Watch(site)
    good = Streaming(connect(site.url))
    flooder = raw(site.url)
    names = ["start", "disconnect", "start", "connect"] * 100
    began = time.monotonic()
    for n, name in enumerate(names):
        if not flooder.emit(n, name, {**GOOD, "paused": True} if name == "start" else None):
            break
    assert wait_for(lambda: not flooder.alive, 10), "the flooder is disconnected, whatever it sends"
    # What the limit may have refilled while the server read the flood, at most: a busy machine
    # reads it in more than a fraction of a second (a refill by each connect or disconnect would
    # be a hundred).
    refills = 1 + int(RATE * (time.monotonic() - began))
    answers = flooder.answers()
    errors = [payload["message"] for _, payload, _ in flooder.events("error")]
    for n, (answer,) in answers.items():
        if names[n] in ("connect", "disconnect"):  # never handled as a request
            assert answer["ok"] is False and answer["error"].startswith(("unknown event", "too many")), answer
    unknown = sum(error.startswith("unknown event") for error in errors)
    too_many = errors.count("too many requests: at most 30 a second; wait a moment")
    started = sum(answer["ok"] for (answer,) in answers.values())
    assert errors[-1] == TOO_MANY
    # The burst's 60 requests were handled (half of them starts, half refused as unknown events),
    # and the few the limit refilled meanwhile (each a start or not); about as many more were
    # refused as too many before the server hung up.
    refilled = started + unknown - BURST
    assert 0 <= refilled <= refills and abs(started - unknown) <= refilled, (refilled, refills)
    assert BURST <= too_many <= BURST + 20 and len(answers) < len(names) // 2
    # Disconnecting the namespace ends the connection: it cannot come back on it with a new limit.
    cycler = raw(site.url)
    for n in range(40):
        cycler.emit(n, "stop")
    cycler.send("41")
    cycler.send("40")
    for n in range(40, 80):
        cycler.emit(n, "stop")
    assert wait_for(lambda: not cycler.alive, 10), "a client that disconnects its namespace is let go"
    assert sorted(cycler.answers()) == list(range(40)), "nothing after its disconnect was handled"
    flooder.close()
    cycler.close()
    events, _ = finished(good, watch)
    print(f"  interleaved: {len(answers)} of {len(names)} requests answered ({started} starts,")
    print(f"  {unknown} unknown events, {too_many} too many), then disconnected;")
    print(f"  the good client got {events:,} exact events meanwhile")


def send_flat_out(wire, data):
    """Send data as fast as the socket takes it, until all is sent or the server stops reading;
    return how many bytes went."""
    data, sent = memoryview(data), 0
    wire.sock.settimeout(0.5)
    try:
        while sent < len(data):
            sent += wire.sock.send(data[sent : sent + (1 << 16)])
    except OSError:
        pass  # reset, or nothing more taken for half a second: the server has stopped reading
    return sent


def test_a_flood_is_disconnected_and_the_worker_is_idle_soon_after(site, connect, opened):
    watch = Watch(site)
    good = Streaming(connect(site.url))
    good.goes_on()
    wire = opened(Wire(site.port))
    wire.connect()
    # 300,000 small requests, sent as fast as the socket takes them.
    flood = b"".join(text_frame(f'42{n}["pause"]') for n in range(300_000))
    start = time.monotonic()
    sent = send_flat_out(wire, flood)
    gone(site.worker, wire.address, 10)
    left = time.monotonic()
    hung_up = left - start  # at most: the server may have let go while the flooder was still sending
    frames = wire.rest()
    errors = errors_in(wire.seen)
    # The burst was handled (each "pause" refused: there is no run), about as many more refused as
    # too many; then the server hung up, the rest of the flood unread.
    assert errors[-1] == TOO_MANY and len(errors) < 2 * BURST + 20
    code = closing(frames).close_code
    # The good client's run went on; then, with it paused and gone, the worker goes idle: it is
    # not still reading the flood (the good run's own share of a core grows on a busy machine, so
    # it is not counted in). How soon is a pace, which depends on how busy the machine is:
    # printed, not asserted.
    events, _ = finished(good, watch)
    assert wait_for(lambda: site.worker.cpu_share(0.2) < 0.10, 10, interval=0), "the worker stays busy"
    quiet = time.monotonic() - left
    share = site.worker.cpu_share(1.0)
    refused = errors.count("too many requests: at most 30 a second; wait a moment")
    print(f"  {sent / len(flood):.1%} of the flood ({sent / MB:.2f} MB) went in before the server hung up")
    print(f"  closed ({code}) within {hung_up:.2f} s: {len(errors)} errors,")
    print(f"  {refused} of them too many requests;")
    print(f"  worker idle {quiet:.2f} s after the flooder left (the good run gone),", end=" ")
    print(f"then {share:.1%} of a core over 1 s")
    print(f"  the good client got {events:,} exact events meanwhile")
    assert share < 0.10


def fragments(text):
    """Return a text message sent one character a frame."""
    first, *rest = text.encode()
    head = bytes([0x01, 0x80 | 1]) + b"\0\0\0\0" + bytes([first])  # a text frame, not the last
    tail = [
        bytes([0x80 if i == len(rest) - 1 else 0x00, 0x80 | 1]) + b"\0\0\0\0" + bytes([byte])
        for i, byte in enumerate(rest)
    ]
    return head + b"".join(tail)


# What a flooder sends flat out, never reading: none of it is a Socket.IO request.
FRAME_FLOODS = {
    "WebSocket pings": frame(PING, b"hi"),
    "WebSocket pongs": frame(PONG),
    "Engine.IO noops": text_frame("6"),
    "Engine.IO pongs": text_frame("3"),
    "a request in fragments": fragments('42["pause"]'),
}


@pytest.mark.parametrize("flood", FRAME_FLOODS.values(), ids=FRAME_FLOODS.keys())
def test_a_flood_of_frames_that_are_not_requests_is_closed_at_once(site, connect, opened, flood):
    watch = Watch(site)
    good = Streaming(connect(site.url))
    good.goes_on()
    wire = opened(Wire(site.port))
    wire.connect()
    burst = flood * (200_000 // len(flood) + 1)
    start = time.monotonic()
    sent = send_flat_out(wire, burst)
    gone(site.worker, wire.address, 10)
    hung_up = time.monotonic() - start
    close = closing(wire.rest())
    assert close.close_code == POLICY_VIOLATION
    assert close.payload[2:].decode() == f"too many frames: at most {FRAME_RATE:g} a second"
    events, _ = finished(good, watch)
    print(
        f"  {sent / len(burst):.1%} of the flood ({sent / MB:.2f} MB) went in; closed within {hung_up:.2f} s"
    )
    print(f"  the good client got {events:,} exact events meanwhile")


def test_messages_before_the_socketio_connect_close_the_connection(site, connect, opened):
    watch = Watch(site)
    good = Streaming(connect(site.url))
    wire = opened(Wire(site.port))
    wire.expect(lambda text: text.startswith("0"))  # Engine.IO's open; no Socket.IO connect follows
    start = time.monotonic()
    for _ in range(3):
        try:
            wire.send_text("4ab")  # a message, but no request of a connected client: never counted
        except ConnectionError:
            break  # closed already, after an earlier one: a busy machine's client sends slower
    wire.rest()
    closed = time.monotonic() - start
    events, _ = finished(good, watch)
    print(f"  closed {closed * 1000:.0f} ms after its first message; the good client got {events:,} events")


def test_frames_within_the_rate_are_answered_as_ever(site, connect, opened):
    wire = opened(Wire(site.port))
    wire.connect()
    for n in range(FRAME_BURST // 2):  # half the burst, at once: a ping answered each
        wire.send(frame(PING, str(n).encode()))
    pongs = [wire.read_frame() for _ in range(FRAME_BURST // 2)]
    assert [(f.opcode, f.payload) for f in pongs] == [
        (PONG, str(n).encode()) for n in range(FRAME_BURST // 2)
    ]
    wire.send(fragments('42["pause"]'))  # a request in pieces is still a request
    answer = wire.expect(lambda text: text.startswith("42["))
    assert "there is no run to pause" in answer


def test_a_request_the_network_splits_into_pieces_is_one_request_not_many_frames(site, opened):
    wire = opened(Wire(site.port))
    wire.connect()
    wire.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    data = text_frame('42["pause"' + " " * 400 + "]")  # one frame, as a browser sends it
    pieces = [data[at : at + 4] for at in range(0, len(data), 4)]
    assert len(pieces) > 2 * FRAME_BURST
    for piece in pieces:
        wire.send(piece)
        time.sleep(0.002)  # each piece in a segment of its own, as a slow network delivers them
    answer = wire.expect(lambda text: text.startswith("42["))
    assert "there is no run to pause" in answer


BIG = "1" + "0" * 120
ODD = [
    # (packet, what its error says)
    ('42{ack}["start",' + json.dumps({**GOOD, "speed": 1e-10}) + "]", "speed"),
    ('42{ack}["start",{"rows":' + BIG + ',"cols":6,"start":0,"order":"naive","speed":0}]', "too large"),
    ('42{ack}["speed",{"speed":-' + BIG + "}]", "too large"),
    ('42{ack}["speed",{"speed":' + BIG + ".5e300}]", "too large"),
    ("42{ack}[{}]", "a request is a list"),
    ('42{ack}["start",', "not valid JSON"),
    ('42{ack}["stop",' + "[" * 5000 + "]" * 5000 + "]", "nested too deeply"),
    (
        '42{ack}["class_claim",{"code":"{code}","token":"jeton-été-🎓"}]',
        "that token does not match the class",
    ),
    ('42{ack}["class_claim",{"code":"ÄÖÜ23","token":"x"}]', "there is no class with that code"),
    ('42{ack}["class_join",{"code":"\\ud800"}]', "there is no class with that code"),
    ('42{ack}["stärt"]', "unknown event 'stärt'"),
    ('42{ack}["\\ud800"]', "unknown event"),
]


def test_odd_values_each_get_an_answer(site, connect, raw):
    watch = Watch(site)
    good = Streaming(connect(site.url))
    teacher = raw(site.url)
    teacher.emit(1, "class_open")
    assert wait_for(lambda: 1 in teacher.answers())
    code = teacher.answers()[1][0]["code"]
    odd = raw(site.url)
    # A run of its own, which the odd requests and an acknowledgement of "id 0" must not disturb.
    odd.emit(1000, "start", {**GOOD, "speed": PACE})
    assert wait_for(lambda: odd.events("events"))
    odd.send("430[]")
    # Its error first: counting the errors before it arrives would take it for the next one's.
    assert wait_for(lambda: odd.events("error"), 5), "no error for an acknowledgement of id 0"
    for n, (template, error) in enumerate(ODD, 1):
        # Sent once with an acknowledgement id and once without: answered both times.
        for ack in (n, None):
            errors = len(odd.events("error"))
            odd.send(template.replace("{ack}", str(ack or "")).replace("{code}", code))
            assert wait_for(lambda e=errors: len(odd.events("error")) > e, 5), f"no error for {template[:60]}"
            message = odd.events("error")[-1][1]["message"]
            assert error in message, message
            if ack:
                assert wait_for(lambda a=ack: a in odd.answers(), 5), f"no answer for {template[:60]}"
                why = odd.events("error")[-1][1]["code"]
                assert odd.answers()[ack] == [refused(why, message)]
    assert odd.alive, "odd values never cost a client its connection"
    assert odd.events("error")[0][1]["message"].startswith("no call of the server's awaits"), (
        "id 0 is no call"
    )
    assert len(odd.events("error")) == 1 + 2 * len(ODD), "one error for each odd packet, no more"
    # Its run went on through all of it, with every event in order.
    mark = len(odd.events("events"))
    assert wait_for(lambda: len(odd.events("events")) > mark + 5, 5), "the odd client's run stopped"
    assert odd.emit(2000, "pause") and wait_for(lambda: 2000 in odd.answers())
    codes = [code for _, payload, _ in odd.events("events") for code in payload["events"]]
    assert codes == ENGINE[: len(codes)] and len(codes) > 0
    teacher.emit(2, "class_end")
    assert wait_for(lambda: 2 in teacher.answers())
    teacher.close()
    odd.close()
    events, _ = finished(good, watch)
    print(f"  {2 * len(ODD) + 1} odd packets, each answered;")
    print(f"  the odd client's own run kept {len(codes):,} exact events")
    print(f"  the good client got {events:,} exact events meanwhile")
