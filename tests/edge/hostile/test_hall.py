"""The class's own address filled by a script: its idle sockets, its connections and badges give way
to students' pages and seats, and a flood of pages from that address is served at its pace."""

import json
import re
import time
from http.client import HTTPConnection

import requests

from server.edge.badges import COOKIE, MINT_BURST, MINT_RATE, PROOF_BITS, find_proof
from server.edge.guard import HANDSHAKE_BURST, MADE_ROOM, MADE_ROOM_SHARE, SEAT_FULL
from server.edge.pacing import ADDRESS_BURST, ADDRESS_RATE
from server.edge.seats import COOKIE as SEAT_COOKIE
from server.edge.seats import PER_SEAT
from server.runs.player import WINDOW
from tests.support.hostile import Streaming, Watch, a_badge, carrying, finished, instructor
from tests.support.waiting import wait_for
from tests.support.wire import POLICY_VIOLATION, POLLING, Wire, answers, asks, closing, served, tcp


def test_sockets_held_open_without_a_request_make_room_for_pages(hall, connect, opened):
    watch = Watch(hall)
    good = Streaming(connect(hall.url))
    source = "127.0.0.4"  # the class's NAT: a script's sockets and the students' pages
    held = [opened(Wire(hall.port, source=source)) for _ in range(5)]
    for wire in held:
        wire.connect()  # a Socket.IO session, and then nothing
    waits, pages = [], []
    for n, wire in enumerate(held):
        start = time.monotonic()
        page = opened(Wire(hall.port, source=source))
        pages.append(page)
        assert page.status == 101, f"page {n + 1} was refused"
        asks(page)
        waits.append(time.monotonic() - start)
        # The oldest socket that never asked anything was closed to make room for it.
        close = closing(wire.rest())
        assert (close.close_code, close.payload[2:].decode()) == (POLICY_VIOLATION, MADE_ROOM)
    # Five pages now, every one of which has asked something: the next is refused.
    sixth = opened(Wire(hall.port, source=source))
    assert (
        sixth.status == 429 and sixth.until_closed() == b"too many connections from your address (at most 5)"
    )
    for page in pages:
        page.close()
    events, _ = finished(good, watch)
    longest = max(waits) * 1000
    print(f"  5 sockets held open from {source}, each closed for a page: pages in {longest:.0f} ms at most;")
    print(f"  then the 6th page got 429; the good client got {events:,} exact events meanwhile")


def test_a_script_holding_its_address_full_gives_way_to_a_page_with_a_badge(hall, connect, opened):
    watch = Watch(hall)
    good = Streaming(connect(hall.url))
    source = "127.0.0.4"  # the class's NAT
    # A script's five connections, each of which has asked something (a skip, say): no
    # idle socket to close, and no badge, so they are one browser however many.
    script = [opened(Wire(hall.port, source=source)) for _ in range(5)]
    for wire in script:
        asks(wire)
    badges = [a_badge(hall) for _ in range(2)]
    # A student's page gets in: the script's newest connection is closed to make room.
    start = time.monotonic()
    page = opened(Wire(hall.port, source=source, headers=carrying(badges[0])))
    assert page.status == 101, "the page was refused while a script held its address"
    asks(page)
    waited = time.monotonic() - start
    close = closing(script[-1].rest())
    assert (close.close_code, close.payload[2:].decode()) == (POLICY_VIOLATION, MADE_ROOM_SHARE)
    # So does another student's; the script is down to three, and no more is taken from it
    # than the pages need: a script connection is refused while it holds the most.
    other = opened(Wire(hall.port, source=source, headers=carrying(badges[1])))
    assert other.status == 101
    asks(other)
    assert closing(script[-2].rest()).payload[2:].decode() == MADE_ROOM_SHARE
    refused = opened(Wire(hall.port, source=source))
    assert refused.status == 429 and refused.until_closed().startswith(b"too many connections")
    # The first page again (a second tab): the script, still holding 3 to its 1, gives way.
    third = opened(Wire(hall.port, source=source, headers=carrying(badges[0])))
    assert third.status == 101, "the script still held three to the page's one"
    asks(third)
    assert closing(script[-3].rest()).payload[2:].decode() == MADE_ROOM_SHARE
    fourth = opened(Wire(hall.port, source=source, headers=carrying(badges[0])))
    assert fourth.status == 429, "two connections each: nobody holds more than the newcomer would"
    # The script's two and the three pages, and nothing else from the address, are connected.
    kept = {wire.address for wire in (*script[:2], page, other, third)}
    assert wait_for(lambda: {p for p in hall.worker.peers() if p[0] == source} == kept, 5)
    for wire in (*script, page, other, third):
        wire.close()
    events, _ = finished(good, watch)
    print(f"  a script's 5 connections filled {source}: a badged page got in in {waited * 1000:.0f} ms,")
    print(f"  the script's newest closed for it; the good client got {events:,} exact events meanwhile")


def test_a_script_holding_its_address_on_many_badges_gives_way_to_the_students_seats(hall, connect, opened):
    # The lock-out badges cannot prevent: a script whose every connection is a browser of its own
    # that has asked something. Seats, which only the instructor hands out, get in regardless.
    watch = Watch(hall)
    good = Streaming(connect(hall.url))
    source = "127.0.0.4"
    script = [opened(Wire(hall.port, source=source, headers=carrying(a_badge(hall)))) for _ in range(5)]
    for wire in script:
        asks(wire)
    newcomer = opened(Wire(hall.port, source=source, headers=carrying(a_badge(hall))))
    assert newcomer.status == 429, "a badge of its own is not enough against this script"
    teacher = instructor(hall)
    sheet = teacher.get(hall.url + "/roster/new", params={"seats": 3}, timeout=10)
    assert sheet.ok and sheet.text.count('class="seat-card"') == 3
    links = teacher.get(sheet.url + "/seats.csv", timeout=5).text.splitlines()[1:]
    student = requests.Session()
    assert student.post(links[0].split(",")[1], timeout=5).ok  # the student takes their seat, once
    seat = [f"Cookie: {SEAT_COOKIE}={student.cookies[SEAT_COOKIE]}"]
    start = time.monotonic()
    pages = [opened(Wire(hall.port, source=source, headers=seat)) for _ in range(PER_SEAT)]
    assert [page.status for page in pages] == [101] * PER_SEAT, "the seat was kept out"
    for page in pages:
        asks(page)
    waited = time.monotonic() - start
    # None of the script's connections was closed for it: the seat took no one's place.
    kept = {wire.address for wire in (*script, *pages)}
    assert wait_for(lambda: {p for p in hall.worker.peers() if p[0] == source} == kept, 5)
    # Past its allowance, a seat is refused, and closes nobody either.
    more = opened(Wire(hall.port, source=source, headers=seat))
    assert more.status == 429 and more.until_closed() == SEAT_FULL.encode()
    # A seat forged (signed wrong) is no seat: the address is full for it.
    forged = seat[0][:-3] + ("aaa" if not seat[0].endswith("aaa") else "bbb")
    refused_ = opened(Wire(hall.port, source=source, headers=[forged]))
    assert refused_.status == 429 and refused_.until_closed().startswith(b"too many connections")
    assert wait_for(lambda: {p for p in hall.worker.peers() if p[0] == source} == kept, 5)
    for wire in (*script, *pages):
        wire.close()
    events, _ = finished(good, watch)
    print(f"  5 badged script connections filled {source}; a seat's {PER_SEAT} pages got in in")
    print(
        f"  {waited * 1000:.0f} ms, closing nobody, its next refused; the good client got {events:,} events"
    )


def test_a_scripts_flood_closes_no_page_that_has_not_asked_anything_yet(hall, connect, opened):
    source = "127.0.0.4"
    script = [opened(Wire(hall.port, source=source)) for _ in range(4)]
    for wire in script:
        asks(wire)
    page = opened(Wire(hall.port, source=source, headers=carrying(a_badge(hall))))
    page.connect()  # a student's page, just loaded: connected, nothing asked yet
    # The address is full; the script's next connections are refused, and close nothing.
    for _ in range(3):
        refused = opened(Wire(hall.port, source=source))
        assert refused.status == 429 and refused.until_closed().startswith(b"too many connections")
    page.send_text('421["pause"]')  # the page is still there, and answered
    assert "there is no run to pause" in page.expect(lambda text: text.startswith("431"))
    for wire in (*script, page):
        wire.close()
    assert wait_for(lambda: hall.worker.sockets() == 1, 10)


def test_an_address_gets_at_most_max_per_address_websockets(hall, connect, opened):
    # Default pings: the held connections stay open, however quiet, for the whole test.
    watch = Watch(hall)
    good = Streaming(connect(hall.url))
    source = "127.0.0.4"
    held = [opened(Wire(hall.port, source=source)) for _ in range(5)]
    assert [wire.status for wire in held] == [101] * 5
    for wire in held:  # pages: each has sent a request, so none is closed to make room
        asks(wire)
    start = time.monotonic()
    sixth = opened(Wire(hall.port, source=source))
    body = sixth.until_closed()
    closed = time.monotonic() - start
    assert sixth.status == 429 and body == b"too many connections from your address (at most 5)"
    assert closed < 1, f"the refused connection was closed after {closed:.1f} s, not at once"
    # Another address is not limited by this one's connections.
    other = opened(Wire(hall.port, source="127.0.0.5"))
    assert other.status == 101
    other.close()
    held.pop().close()
    assert wait_for(lambda: hall.worker.sockets() == 2 + len(held), 5), "the closed one is let go"
    again = opened(Wire(hall.port, source=source))
    assert again.status == 101
    for wire in [*held, again]:
        wire.close()
    events, _ = finished(good, watch)
    print(f"  5 WebSockets from {source}: the 6th got 429, closed after {closed * 1000:.1f} ms;")
    print(f"  one closed, the next got 101; the good client got {events:,} exact events meanwhile")


def test_a_page_flood_from_the_class_address_is_served_at_its_pace_and_holds_up_no_badge(
    site, connect, opened
):
    watch = Watch(site)
    good = Streaming(connect(site.url))
    badge = a_badge(site)
    # A script loading the page flat out from the class's address: past the address's burst, it
    # is served ADDRESS_RATE a second, however fast it asks.
    source, connections = "127.0.0.8", 25
    page = requests.get(site.url + "/", timeout=5).text
    named = re.search(r'src="(/bundle/app-[A-Z0-9]+\.js)"', page).group(1)
    each = (ADDRESS_BURST + 5 * int(ADDRESS_RATE)) // connections
    request = b"HEAD / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    began = time.monotonic()
    flood = [opened(tcp(site.port, source)) for _ in range(connections)]
    for sock in flood:
        sock.sendall(request * each)
    # Once the flood is waiting its turn: a browser with its badge, from the same address, a file
    # of the page by its content's name (a newcomer's, without a badge), and a page from another
    # address.
    others, got = {}, {}
    asked = {
        "badge": (source, f"/ HTTP/1.1\r\nCookie: {COOKIE}={badge}"),
        "file": (source, f"{named} HTTP/1.1"),
        "neighbour": ("127.0.0.9", "/ HTTP/1.1"),
    }

    burst = []  # when the flood's first answer came, and when its burst's last had

    def ask_meanwhile(count):
        if not burst or (count > ADDRESS_BURST and len(burst) == 1):
            burst.append(time.monotonic())
        if count > ADDRESS_BURST and not others:
            for name, (address, line) in asked.items():
                others[name] = sock = opened(tcp(site.port, address))
                sock.sendall(f"GET {line}\r\nHost: 127.0.0.1\r\n\r\n".encode())
            got.update(answers(list(others.values()), 20))  # the flood's answers wait in its sockets

    statuses = served(flood, each, 30, ask_meanwhile)
    seconds = time.monotonic() - began
    assert statuses == [200] * (each * connections), "some of the flood's requests were refused or lost"
    # The bucket was full when it began: no more than ADDRESS_RATE a second after its burst.
    assert seconds >= (each * connections - ADDRESS_BURST) / ADDRESS_RATE, f"served in {seconds:.1f} s"
    assert {
        name: got[sock].status if sock in got else None for name, sock in others.items()
    } == dict.fromkeys(asked, 200)
    # The class's stream went on while the burst was served, not only after it: beyond the WINDOW
    # batches that may have been on their way as it began.
    during = [at for at, event, _ in good.client.stamped() if event == "events" and burst[0] < at < burst[1]]
    assert len(during) > WINDOW, (
        f"the good run stood still for the flood's burst ({burst[1] - burst[0]:.1f} s)"
    )
    events, _ = finished(good, watch)
    print(f"  the good client got {len(during)} batches during the burst's {burst[1] - burst[0]:.1f} s;")
    print(f"  {len(statuses):,} requests in {seconds:.1f} s from one address; meanwhile", end=" ")
    print(", ".join(f"{name} {got[sock].seconds * 1000:.0f} ms" for name, sock in others.items()), end="; ")
    print(f"the good client got {events:,} events")


def test_a_browser_that_finds_its_addresss_badges_taken_earns_one_and_connects_during_a_flood(site, opened):
    # Behind a school's NAT, a script takes every badge the address may be given, loading the
    # page as fast as it is served.
    source = "127.0.0.11"
    pages = HTTPConnection("127.0.0.1", site.port, timeout=10, source_address=(source, 0))
    try:
        # The address is given its burst, and one badge a second after it: as many more as the
        # script's own loading of the burst took seconds (a busy machine's few), never more.
        start, given = time.monotonic(), 0
        while True:
            pages.request("GET", "/")
            answer = pages.getresponse()
            html = answer.read()
            assert answer.status == 200, f"page {given}"
            if COOKIE not in answer.getheader("Set-Cookie", ""):
                break
            given += 1
            paced = MINT_BURST + MINT_RATE * (time.monotonic() - start) + 1
            assert given <= paced, "the address was given badges past its burst and its pace"
        assert given >= MINT_BURST, f"the address was given {given} badges, not its burst"
        # A browser new to the server finds none left to give: it is asked to earn one.
        limits = json.loads(re.search(rb'id="limits">(.*?)</script>', html)[1])
        assert answer.getheader("Set-Cookie") is None and limits["badgeProof"]["bits"] == PROOF_BITS
        began = time.monotonic()
        proof = find_proof(limits["badgeProof"], "a-browser-new-here")
        pages.request("POST", "/badge", json.dumps({"proof": proof}), {"Content-Type": "application/json"})
        answer = pages.getresponse()
        answer.read()
        earned = time.monotonic() - began
        badge = re.match(rf"{COOKIE}=([^;]+)", answer.getheader("Set-Cookie", ""))[1]
    finally:
        pages.close()
    # The script opens connections flat out, far past the address's burst ...
    flood = []
    for _ in range(3 * HANDSHAKE_BURST):
        sock = opened(tcp(site.port, source))
        sock.sendall(POLLING)
        flood.append(sock)
    # ... and the browser connects on its earned badge meanwhile.
    page = opened(Wire(site.port, source=source, headers=carrying(badge)))
    statuses = [answer.status for answer in answers(flood, 15).values()]
    for sock in flood:
        sock.close()
    assert statuses.count(429) >= HANDSHAKE_BURST, "the flood went past the address's burst"
    assert page.status == 101, "a page with its earned badge was refused during the flood"
    print(f"  a proof found and a badge earned in {earned * 1000:.0f} ms (in Python)")
