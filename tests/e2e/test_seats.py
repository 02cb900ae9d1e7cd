"""Students' seats in Chromium: the instructor prints a sheet, a student opens their seat once, and
their page gets into the class while a script holds every other connection their network may have."""

import io
import re

import pytest
import websocket
import zxingcpp
from PIL import Image
from playwright.sync_api import expect

from server.edge.keys import load_secret
from server.edge.seats import COOKIE, KEY_FILE, new_key
from tests.support.page import READY, artifact, click_square
from tests.support.questions import free_squares
from tests.support.waiting import wait_for


@pytest.fixture
def site(serve):
    """Serve an app whose addresses hold four connections each."""
    return serve({"MAX_PER_ADDRESS": 4})


def fill(site, raw):
    """Open connections from the page's address, each asking something, until it refuses one; return them."""
    held = []
    while True:
        try:
            client = raw(site.url)
        except websocket.WebSocketBadStatusException as refusal:
            assert refusal.status_code == 429
            return held
        client.emit(1, "pause")
        assert wait_for(lambda c=client: 1 in c.answers(), 5)
        held.append(client)


def read_qr(locator):
    """Return what a QR code reader makes of the code drawn in an element, from its pixels."""
    found = zxingcpp.read_barcodes(Image.open(io.BytesIO(locator.screenshot())))
    return [each.text for each in found if each.format == zxingcpp.BarcodeFormat.QRCode]


def test_a_student_with_a_seat_joins_a_class_whose_network_a_script_holds_full(site, open_page, raw):
    teacher = open_page("/instructor", until="() => true", viewport={"width": 1366, "height": 768})
    teacher.get_by_label("Key").fill(load_secret(site.app, "INSTRUCTOR_KEY", KEY_FILE, new_key).decode())
    teacher.get_by_role("button", name="Enter").click()
    expect(teacher.get_by_role("status")).to_contain_text("This browser has the key")
    teacher.get_by_role("link", name="Open Knight's Tour Live").click()
    teacher.wait_for_function(READY)
    teacher.get_by_text("Students' seats", exact=True).click()
    teacher.get_by_label("Seats", exact=True).fill("6")
    with teacher.context.expect_page() as opened:
        teacher.get_by_role("button", name="Make a sheet").click()
    sheet = opened.value
    sheet.wait_for_load_state()
    expect(sheet.locator(".seat-card")).to_have_count(6)
    expect(sheet.locator(".seat-card svg")).to_have_count(6)
    sheet.screenshot(path=artifact("seats_sheet.png"), full_page=True)
    for card in sheet.locator(".seat-card").all():
        assert read_qr(card.locator(".seat-qr")) == [card.locator(".seat-link").inner_text()]
    link = sheet.locator(".seat-link").first.inner_text()
    assert re.fullmatch(rf"{re.escape(site.url)}/seat/\S+", link)
    teacher.goto(site.url + "/?rows=5&cols=5&start=a5&order=naive&speed=1")  # the same browser, the key kept
    teacher.get_by_role("button", name="Start a class").click()
    expect(teacher.locator("#lead-code")).to_have_text(re.compile(r"^[A-Z2-9]{7}$"))
    code = teacher.locator("#lead-code").inner_text()
    held = fill(site, raw)
    assert held, "the address had no room left even for the script"
    # The student opens their seat's link (a QR code on the sheet) on their phone, and joins.
    student = open_page(
        link.removeprefix(site.url), until="() => true", viewport={"width": 390, "height": 844}
    )
    student.screenshot(path=artifact("seats_take_phone.png"))
    student.get_by_role("button", name="Keep seat 1 in this browser").click()
    student.wait_for_function(READY)
    seats = [cookie for cookie in student.context.cookies() if cookie["name"] == COOKIE]
    assert len(seats) == 1 and seats[0]["httpOnly"], "the browser kept no seat"
    expect(student.locator(".seat-note strong")).to_have_text("1")
    student.get_by_label("Join a class with its code").fill(code)
    student.get_by_role("button", name="Join", exact=True).click()
    expect(student.get_by_role("status")).to_contain_text(f"Following class {code}")
    teacher.get_by_role("button", name="Step", exact=True).click()
    student.wait_for_function("() => knightsTour.model.events === 1")
    student.screenshot(path=artifact("seats_student_phone.png"), full_page=True)
    # The script's connections are all still there: the seat took nobody's place.
    assert all(client.alive for client in held)
    # The student's answer counts as a seat's: the instructor's count says so.
    teacher.get_by_role("button", name="Ask the class").click()
    expect(student.locator("#poll-text")).to_contain_text("Tap the square the knight goes to next")
    square = next(s for s in free_squares(student) if s != 0)
    click_square(student, square // 5, square % 5)
    expect(teacher.locator("#poll-text")).to_have_text(
        "Question 1 of 1: 1 answer so far. Students following when it was asked: 1. "
        "1 answer came from a student's seat."
    )
    teacher.screenshot(path=artifact("seats_teacher_count.png"))
    teacher.get_by_role("button", name="End class").click()


def test_the_key_page_once_the_key_is_held_asks_for_no_key(site, open_page):
    teacher = open_page("/instructor", until="() => true", viewport={"width": 1366, "height": 768})
    teacher.get_by_label("Key").fill(load_secret(site.app, "INSTRUCTOR_KEY", KEY_FILE, new_key).decode())
    teacher.get_by_role("button", name="Enter").click()
    expect(teacher.get_by_role("status")).to_contain_text("This browser has the key")
    teacher.goto(site.url + "/instructor")  # the browser comes back, the cookie kept
    expect(teacher.get_by_role("status")).to_contain_text("This browser has the key")
    expect(teacher.get_by_label("Key")).to_be_hidden()
    expect(teacher.get_by_role("button", name="Enter")).to_be_hidden()
    expect(teacher.get_by_text("Enter the key the server printed")).to_be_hidden()
    # A different key is still one click away.
    teacher.get_by_text("Enter a different key").click()
    expect(teacher.get_by_label("Key")).to_be_visible()
