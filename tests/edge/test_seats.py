"""Seats: an instructor's sheet of them, a student's browser keeping one, the guard letting it in
once its address is full, and a seat answering questions as one student."""

import csv
import io
import re

import pytest
import websocket

from server.classes.passes import Passes
from server.edge import app_seats
from server.edge.guard import SEAT_FULL, Guard, Place
from server.edge.keys import load_secret
from server.edge.seats import (
    COOKIE,
    INSTRUCTOR,
    INSTRUCTOR_COOKIE,
    KEY_FILE,
    MAX_ROSTER,
    PER_SEAT,
    Seats,
    allowance,
    new_key,
    number,
)
from tests.support.waiting import wait_for


def key_of(app):
    """Return the app's instructor key, as python -m server prints it."""
    return load_secret(app, "INSTRUCTOR_KEY", KEY_FILE, new_key).decode()


def test_a_rosters_seats_are_signed_with_the_key_and_nothing_else_is_a_seat():
    seats, other = Seats(b"one key"), Seats(b"another")
    roster = seats.roster(3)
    pairs = seats.seats(roster)
    sheet = [seat for _, seat in pairs]
    assert [number(seats.seat(seat)) for seat in sheet] == [n for n, _ in pairs] == [1, 2, 3]
    assert len(set(sheet)) == 3 and seats.seats(roster) == pairs, "a sheet is the same each time"
    assert seats.roster(3) != roster, "each roster is new"
    text, _, signature = sheet[0].rpartition(".")
    forged = [
        f"{text}.{signature[::-1]}",
        f"{text[:-1]}2.{signature}",  # another seat's number under this one's signature
        roster,  # a roster is no seat
        seats.instructor_cookie(),  # nor is the instructor's cookie
        other.seats(other.roster(1))[0][1],  # a seat of another key: a new key takes every sheet back
        text,
        "",
        "é" * 20,
        sheet[0] + "x" * 100,
        None,
    ]
    assert [seats.seat(value) for value in forged] == [None] * len(forged)
    assert seats.seats(sheet[0]) is None and seats.seats("garbage") is None and other.seats(roster) is None
    assert seats.is_key("one key") and not any(map(seats.is_key, ("one ke", "é", None, "another")))
    for value in (other.instructor_cookie(), "é", "\xff\xfe", sheet[0]):
        assert not seats.is_instructor({"HTTP_COOKIE": f"{INSTRUCTOR_COOKIE}={value}"}), value
    assert seats.held(
        {"HTTP_COOKIE": f"{INSTRUCTOR_COOKIE}={seats.instructor_cookie()}; {COOKIE}={sheet[0]}"}
    ) == (INSTRUCTOR), "an instructor who opened a seat's link is still the instructor"


@pytest.fixture
def instructor(app):
    """Return a test client of app that was given the instructor key."""
    browser = app.test_client()
    asked = browser.get("/instructor")
    assert asked.status_code == 200 and 'type="password"' in asked.text
    assert "no-store" in asked.headers["Cache-Control"]
    answer = browser.post("/instructor", data={"key": key_of(app)}, headers={"Origin": "http://localhost"})
    assert answer.status_code == 303 and answer.location == "/instructor"
    assert "This browser has the key" in browser.get("/instructor").text
    cookie = answer.headers["Set-Cookie"]
    assert cookie.startswith(f"{INSTRUCTOR_COOKIE}=") and "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert key_of(app) not in cookie, "the cookie is made with the key, and is not the key"
    return browser


def test_the_key_is_asked_for_in_a_form_and_a_wrong_one_or_another_sites_form_gives_nothing(app):
    browser = app.test_client()
    for form in ({"key": "not the key"}, {"key": "é"}, {}):
        wrong = browser.post("/instructor", data=form)
        assert wrong.status_code == 403 and "That is not the key" in wrong.text
        assert "Set-Cookie" not in wrong.headers
    elsewhere = browser.post(
        "/instructor", data={"key": key_of(app)}, headers={"Origin": "https://evil.example"}
    )
    assert elsewhere.status_code == 403 and "Set-Cookie" not in elsewhere.headers
    assert browser.get("/instructor/" + key_of(app)).status_code == 404, "the key is in no address"


def sheet_of(instructor, size):
    """Make a sheet of size seats; return its address and its (seat, link) rows."""
    made = instructor.get(f"/roster/new?seats={size}")
    assert made.status_code == 303
    listed = instructor.get(made.location + "/seats.csv")
    assert "no-store" in listed.headers["Cache-Control"]
    rows = list(csv.reader(io.StringIO(listed.text)))
    assert rows[0] == ["seat", "link"]
    return made.location, rows[1:]


def test_an_instructor_prints_a_sheet_of_seats_each_with_its_link_and_qr_code(instructor):
    where, rows = sheet_of(instructor, 4)
    assert [row[0] for row in rows] == ["1", "2", "3", "4"]
    sheet = instructor.get(where)
    page = sheet.get_data(as_text=True)
    assert sheet.status_code == 200 and sheet.mimetype == "text/html"
    assert "no-store" in sheet.headers["Cache-Control"]
    cards = re.findall(r'<li class="seat-card">.*?</li>', page, re.S)
    assert len(cards) == 4
    for card, (seat, link) in zip(cards, rows, strict=True):
        assert f"Seat {seat}" in card and f'data-link="{link}"' in card, "its page draws its code"
    assert re.search(r'<script type="module" src="/bundle/seats/sheet-\w+\.js"></script>', page), "bundled"
    assert instructor.get(where + "/seats.csv").headers["Content-Disposition"].startswith("attachment")
    # Links to localhost would open on no student's device: the sheet says so.
    assert "students' devices cannot" in page and "http://localhost" in page
    # The page shows the instructor the form that makes sheets; nobody else sees it.
    assert 'action="/roster/new"' in instructor.get("/").text


def test_a_sheet_for_the_networks_address_gives_no_warning(configured):
    app = configured({"PUBLIC_URL": "http://192.0.2.5:5000"})
    browser = app.test_client()
    browser.post("/instructor", data={"key": key_of(app)})
    where, rows = sheet_of(browser, 1)
    assert rows[0][1].startswith("http://192.0.2.5:5000/seat/")
    assert "students' devices cannot" not in browser.get(where).text


def test_only_the_instructors_browser_makes_or_reads_sheets(app, instructor):
    where, _ = sheet_of(instructor, 2)
    student = app.test_client()
    for path in ("/roster/new?seats=2", where, where + "/seats.csv"):
        assert student.get(path).status_code == 403, path
    assert 'action="/roster/new"' not in student.get("/").text
    assert 'action="/roster/new"' not in instructor.get("/embed").text, "an embed is no instructor's page"
    for size in ("0", str(MAX_ROSTER + 1), "x", "", "²", "٣"):
        assert instructor.get(f"/roster/new?seats={size}").status_code == 400, size
    assert instructor.get("/roster/not-a-roster").status_code == 404


def test_a_student_takes_their_seat_with_a_button_and_their_browser_keeps_it(app, instructor):
    _, rows = sheet_of(instructor, 2)
    first, second = (row[1].removeprefix("http://localhost") for row in rows)
    student = app.test_client()
    offered = student.get(first)
    assert offered.status_code == 200 and "Keep seat 1 in this browser" in offered.text
    assert "Set-Cookie" not in offered.headers, "opening a link takes no seat: its button does"
    elsewhere = student.post(first, headers={"Origin": "https://evil.example"})
    assert elsewhere.status_code == 403 and "Set-Cookie" not in elsewhere.headers
    taken = student.post(first, headers={"Origin": "http://localhost"})
    assert taken.status_code == 303 and taken.location == "/"
    assert taken.headers["Set-Cookie"].startswith(f"{COOKIE}=") and "HttpOnly" in taken.headers["Set-Cookie"]
    assert re.search(r'seat\.label.*?<strong class="code-chip">1</strong>', student.get("/").text, re.S)
    assert "holds seat 1 already" in student.get(first).text
    # Another seat's link warns before it takes the place of the one the browser holds.
    assert "This browser holds seat 1" in student.get(second).text
    stranger = app.test_client()
    wrong = stranger.get("/seat/abcdefgh~1.notasignature")
    assert wrong.status_code == 404 and "not valid" in wrong.text
    assert stranger.post("/seat/abcdefgh~1.notasignature").status_code == 404
    assert "Set-Cookie" not in wrong.headers and "seat.label" not in stranger.get("/").text


def placed(seat=None, browser=None, spare=False):
    """Return an open connection's Place, one that has sent a request."""
    place = Place(browser, seat)
    place.close, place.proven, place.spare = (lambda reason: None), True, spare
    return place


def test_at_its_addresss_limit_a_seat_is_let_in_on_its_allowance_and_closes_nobody():
    guard = Guard(None, max_connections=2)
    hall = guard.places["hall"] = [placed("r~1", "s"), placed(browser="b")]
    assert guard._make_room("hall", Place("b9")) == (False, None), "the address is full"
    for _ in range(PER_SEAT):
        newcomer = Place("s", "r~1")
        assert guard._make_room("hall", newcomer) == (True, None) and newcomer.spare
        hall.append(placed("r~1", "s", spare=True))
    assert guard._make_room("hall", Place("s", "r~1")) == (False, None), "its allowance is spent"
    # The spares do not count against the address: its others are as full as they were, no fuller.
    assert guard._make_room("hall", Place("b9")) == (False, None)
    assert guard._make_room("hall", Place("t", "r~2")) == (True, None), "another seat is its own"
    assert allowance(INSTRUCTOR) > PER_SEAT
    # Below the limit a seat's connection is one of the address's, however many its seat has.
    guard.places["lobby"] = [placed("r~3", "s") for _ in range(PER_SEAT)]
    assert guard._make_room("lobby", Place("s", "r~3")) == (True, None)
    hall.pop(1)  # one of the address's closes: the next is let in as one of them again
    newcomer = Place("s", "r~1")
    assert guard._make_room("hall", newcomer) == (True, None) and not newcomer.spare


def test_a_seat_connects_over_a_real_socket_while_its_address_is_full(serve, raw):
    server = serve({"MAX_PER_ADDRESS": 1})
    seats = app_seats(server.app)
    [(_, seat)] = seats.seats(seats.roster(1))
    held = raw(server.url)  # the address's one, a page that has asked something
    held.emit(1, "pause")
    assert wait_for(lambda: 1 in held.answers(), 5)
    with pytest.raises(websocket.WebSocketBadStatusException) as refusal:
        raw(server.url)
    assert refusal.value.status_code == 429
    pages = [raw(server.url, cookie=f"{COOKIE}={seat}") for _ in range(PER_SEAT)]
    assert all(page.alive for page in pages) and held.alive, "the seat took no one's place"
    with pytest.raises(websocket.WebSocketBadStatusException) as refusal:
        raw(server.url, cookie=f"{COOKIE}={seat}")
    assert refusal.value.status_code == 429 and refusal.value.resp_body.decode() == SEAT_FULL
    with pytest.raises(websocket.WebSocketBadStatusException):
        raw(server.url, cookie=f"{COOKIE}={seat[:-2]}xx")
    # The instructor's browser has the instructors' seat, and gets its class back.
    teacher = raw(server.url, cookie=f"{INSTRUCTOR_COOKIE}={seats.instructor_cookie()}")
    assert teacher.alive and held.alive
    with pytest.raises(websocket.WebSocketBadStatusException):
        raw(server.url, cookie=f"{INSTRUCTOR_COOKIE}=not-the-cookie")


def test_a_seat_answers_each_question_once_on_any_device_and_the_result_counts_seats(live_server, connect):
    seats = app_seats(live_server.app)
    roster = [seat for _, seat in seats.seats(seats.roster(2))]
    seat = {"Cookie": f"{COOKIE}={roster[0]}"}
    teacher = connect(live_server.url)
    phone, laptop = connect(live_server.url, headers=seat), connect(live_server.url, headers=seat)
    other = connect(live_server.url)
    code = teacher.call("class_open")["code"]
    voters = [student.call("class_join", {"code": code})["voter"] for student in (phone, laptop, other)]
    assert voters[0] == voters[1] != voters[2], "a seat is one student, on whatever device"
    assert roster[0].partition(".")[0] not in voters[0], "a seat's voter id does not say which seat it is"
    # A seat's pass is good only with its seat: sent without it, it is no pass.
    stranger = connect(live_server.url)
    assert stranger.call("class_join", {"code": code, "voter": voters[0]})["voter"] != voters[0]
    teacher.call("start", {"rows": 5, "cols": 5, "start": 0, "order": "naive", "speed": 1, "paused": True})
    assert teacher.call("step") == {"ok": True}
    poll = teacher.call("poll_open")["poll"]
    # A seat that joins once the question is open is a student of the class, not a script's page.
    late = connect(live_server.url, headers={"Cookie": f"{COOKIE}={roster[1]}"})
    assert late.call("class_join", {"code": code})["ok"]
    assert late.call("poll_answer", {"id": poll["id"], "square": 7})["late"] is False
    assert phone.call("poll_answer", {"id": poll["id"], "square": 7})["ok"]
    taken = laptop.call("poll_answer", {"id": poll["id"], "square": 11})
    assert taken["ok"] is False and taken["code"] == "question.answered"
    assert other.call("poll_answer", {"id": poll["id"], "square": 11})["ok"]
    result = teacher.call("poll_reveal", {"id": poll["id"]})["result"]
    assert (result["answered"], result["late"], result["seated"]) == (3, 0, 2)
    assert result["rounds"][0]["seated"] == 2
    assert Passes.seated(f"{voters[0].partition('.')[0]}") and not Passes.seated(voters[2].partition(".")[0])
    teacher.call("class_end")
