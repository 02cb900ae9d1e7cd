"""Seats: an instructor's sheet of them, a student's browser keeping one, and the guard letting it in."""

import csv
import io
import re

import pytest
import websocket

from server.edge.guard import Guard, Place
from server.edge.seats import COOKIE, INSTRUCTOR_COOKIE, MAX_ROSTER, PER_SEAT, Seats, number
from tests.support.waiting import wait_for


def test_a_rosters_seats_are_signed_and_nothing_else_is_a_seat():
    seats, other = Seats(b"one secret"), Seats(b"another")
    roster = seats.roster(3)
    sheet = seats.seats(roster)
    assert [number(seats.seat(seat)) for seat in sheet] == [1, 2, 3]
    assert len(set(sheet)) == 3 and seats.seats(roster) == sheet, (
        "a sheet is the same each time it is asked for"
    )
    assert seats.roster(3) != roster, "each roster is new"
    text, _, signature = sheet[0].rpartition(".")
    forged = [
        f"{text}.{signature[::-1]}",
        f"{text[:-1]}2.{signature}",  # another seat's number under this one's signature
        roster,  # a roster is no seat
        other.seats(other.roster(1))[0],  # another server's seat
        text,
        "",
        "é" * 20,
        sheet[0] + "x" * 100,
        None,
    ]
    assert [seats.seat(value) for value in forged] == [None] * len(forged)
    assert seats.seats(sheet[0]) is None, "a seat is no roster"
    assert seats.seats("garbage") is None and other.seats(roster) is None
    assert seats.instructor_key() != other.instructor_key()


@pytest.fixture
def instructor(app):
    """Return a test client of app that was given the instructor key."""
    browser = app.test_client()
    key = app.extensions["knights_tour_seats"].instructor_key()
    answer = browser.get(f"/instructor/{key}")
    assert answer.status_code == 303 and answer.location == "/"
    cookie = answer.headers["Set-Cookie"]
    assert (
        cookie.startswith(f"{INSTRUCTOR_COOKIE}={key}") and "HttpOnly" in cookie and "SameSite=Lax" in cookie
    )
    return browser


def sheet_of(instructor, size):
    """Make a sheet of size seats; return its address and its (seat, link) rows."""
    made = instructor.get(f"/roster/new?seats={size}")
    assert made.status_code == 303
    rows = list(csv.reader(io.StringIO(instructor.get(made.location + "/seats.csv").text)))
    assert rows[0] == ["seat", "link"]
    return made.location, rows[1:]


def test_an_instructor_prints_a_sheet_of_seats_each_with_its_link_and_qr_code(instructor):
    where, rows = sheet_of(instructor, 4)
    assert [row[0] for row in rows] == ["1", "2", "3", "4"]
    sheet = instructor.get(where)
    page = sheet.get_data(as_text=True)
    assert sheet.status_code == 200 and sheet.mimetype == "text/html"
    cards = re.findall(r'<li class="seat-card">.*?</li>', page, re.S)
    assert len(cards) == 4
    for card, (seat, link) in zip(cards, rows, strict=True):
        assert f"Seat {seat}" in card and link in card and "<svg" in card
    assert instructor.get(where + "/seats.csv").headers["Content-Disposition"].startswith("attachment")
    # The page shows the instructor the form that makes sheets; nobody else sees it.
    assert 'action="/roster/new"' in instructor.get("/").text


def test_only_the_instructors_browser_makes_or_reads_sheets(app, instructor):
    where, _ = sheet_of(instructor, 2)
    student = app.test_client()
    for path in ("/roster/new?seats=2", where, where + "/seats.csv"):
        assert student.get(path).status_code == 403, path
    assert 'action="/roster/new"' not in student.get("/").text
    assert 'action="/roster/new"' not in instructor.get("/embed").text, "an embed is no instructor's page"
    assert student.get("/instructor/not-the-key").status_code == 404
    assert INSTRUCTOR_COOKIE not in student.get("/instructor/not-the-key").headers.get("Set-Cookie", "")
    for size in ("0", str(MAX_ROSTER + 1), "x", ""):
        assert instructor.get(f"/roster/new?seats={size}").status_code == 400, size
    assert instructor.get("/roster/not-a-roster").status_code == 404


def test_a_student_opens_their_seat_once_and_their_browser_keeps_it(app, instructor):
    _, rows = sheet_of(instructor, 2)
    student = app.test_client()
    taken = student.get(rows[1][1].removeprefix("http://localhost"))
    assert taken.status_code == 303 and taken.location == "/"
    assert taken.headers["Set-Cookie"].startswith(f"{COOKIE}=") and "HttpOnly" in taken.headers["Set-Cookie"]
    page = student.get("/").text
    assert re.search(r'seat\.holds.*?<strong class="code-chip">2</strong>', page, re.S)
    stranger = app.test_client()
    wrong = stranger.get("/seat/abcdefgh~1.notasignature")
    assert wrong.status_code == 404 and "not valid" in wrong.text
    assert "Set-Cookie" not in wrong.headers and "seat.holds" not in stranger.get("/").text


def placed(seat=None, browser=None):
    """Return an open connection's Place."""
    place = Place(browser, seat)
    place.close = lambda reason: None
    return place


def test_a_seat_is_let_in_past_its_addresss_limit_and_keeps_per_seat_connections():
    guard = Guard(None, max_connections=2)
    guard.places["hall"] = [placed(browser=f"b{n}") for n in range(2)]
    for place in guard.places["hall"]:
        place.proven = True
    assert guard._make_room("hall", Place("b9")) == (False, None), "the address is full"
    for _ in range(PER_SEAT):
        assert guard._make_room("hall", Place("s", "r~1")) == (True, None)
        guard.places["hall"].append(placed("r~1", "s"))
    # Seats do not count against the address: its others are as full as they were, no fuller.
    assert guard._make_room("hall", Place("b9")) == (False, None)
    first = guard.places["hall"][2]
    assert guard._make_room("hall", Place("s", "r~1")) == (True, first), (
        "a newer connection closes its seat's oldest"
    )
    assert guard._make_room("hall", Place("t", "r~2")) == (True, None), "another seat is its own"
    # A seat whose connections are all still shaking hands waits for them.
    guard.places["lobby"] = [Place("s", "r~3") for _ in range(PER_SEAT)]
    assert guard._make_room("lobby", Place("s", "r~3")) == (False, None)


def test_a_seat_connects_over_a_real_socket_while_its_address_is_full(serve, raw):
    server = serve({"MAX_PER_ADDRESS": 1})
    seats = server.app.extensions["knights_tour_seats"]
    seat = seats.seats(seats.roster(1))[0]
    held = raw(server.url)  # the address's one, a page that has asked something
    held.emit(1, "pause")
    assert wait_for(lambda: 1 in held.answers(), 5)
    with pytest.raises(websocket.WebSocketBadStatusException) as refusal:
        raw(server.url)
    assert refusal.value.status_code == 429
    pages = [raw(server.url, cookie=f"{COOKIE}={seat}") for _ in range(PER_SEAT)]
    assert all(page.alive for page in pages) and held.alive, "the seat took no one's place"
    with pytest.raises(websocket.WebSocketBadStatusException):
        raw(server.url, cookie=f"{COOKIE}={seat[:-2]}xx")
    # The instructor's browser has a seat of its own, and gets its class back.
    teacher = raw(server.url, cookie=f"{INSTRUCTOR_COOKIE}={seats.instructor_key()}")
    assert teacher.alive and held.alive
    with pytest.raises(websocket.WebSocketBadStatusException):
        raw(server.url, cookie=f"{INSTRUCTOR_COOKIE}=not-the-key")


def test_a_seat_answers_each_question_once_on_any_device_and_the_result_counts_seats(live_server, connect):
    seats = live_server.app.extensions["knights_tour_seats"]
    seat = {"Cookie": f"{COOKIE}={seats.seats(seats.roster(1))[0]}"}
    teacher = connect(live_server.url)
    phone, laptop = connect(live_server.url, headers=seat), connect(live_server.url, headers=seat)
    other = connect(live_server.url)
    code = teacher.call("class_open")["code"]
    voters = [student.call("class_join", {"code": code})["voter"] for student in (phone, laptop, other)]
    assert voters[0] == voters[1] != voters[2], "a seat is one student, on whatever device"
    teacher.call("start", {"rows": 5, "cols": 5, "start": 0, "order": "naive", "speed": 1, "paused": True})
    assert teacher.call("step") == {"ok": True}
    poll = teacher.call("poll_open")["poll"]
    assert phone.call("poll_answer", {"id": poll["id"], "square": 7})["ok"]
    taken = laptop.call("poll_answer", {"id": poll["id"], "square": 11})
    assert taken["ok"] is False and taken["code"] == "question.answered"
    assert other.call("poll_answer", {"id": poll["id"], "square": 11})["ok"]
    result = teacher.call("poll_reveal", {"id": poll["id"]})["result"]
    assert (result["answered"], result["late"], result["seated"]) == (2, 0, 1)
    assert result["rounds"][0]["seated"] == 1
    teacher.call("class_end")
