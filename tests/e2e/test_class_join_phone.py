"""A student who joins a class on a phone is brought back up to the board."""

from playwright.sync_api import expect

from server.classes.registry import classes
from tests.support.page import end_class, start_class
from tests.support.waiting import wait_for

PHONE = {"width": 390, "height": 844}
# Whether the board's top is on screen, with most of the board below it.
BOARD_SHOWN = """() => {
  const box = document.getElementById('board-frame').getBoundingClientRect();
  return box.top >= 0 && box.top < innerHeight / 2;
}"""


def test_joining_on_a_phone_brings_the_board_into_view(open_page, site):
    instructor = open_page()
    code = start_class(instructor)
    student = open_page(viewport=PHONE, is_mobile=True, has_touch=True)
    field = student.get_by_label("Join a class with its code")
    field.scroll_into_view_if_needed()
    assert not student.evaluate(BOARD_SHOWN), "the class box and the board are on one screen: nothing to test"
    field.fill(code)
    student.get_by_role("button", name="Join", exact=True).click()
    expect(student.locator("#follow-code")).to_have_text(code)
    student.wait_for_function(BOARD_SHOWN)
    end_class(instructor)
    assert wait_for(lambda: len(classes(site.app)) == 0, 5), "a class outlived its end"
