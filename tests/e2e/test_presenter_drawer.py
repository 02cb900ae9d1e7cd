"""Presenter view's drawer: the class's tools over the side, by keyboard too, closed by Escape,
with the board holding still behind it during a run."""

import pytest
from playwright.sync_api import expect

from server.classes.registry import classes
from tests.support.page import end_class, start_class
from tests.support.steady import IDS, READY, RUN, WATCH
from tests.support.waiting import wait_for

# What the drawer holds, as (role, name) a user finds them by.
TOOLS = [
    ("slider", "Timeline"),
    ("spinbutton", "Rows"),
    ("spinbutton", "Columns"),
    ("textbox", "Start square"),
    ("combobox", "Ordering"),
    ("radio", "Race two orderings"),
    ("button", "Bookmark this moment"),
    ("spinbutton", "questions in a row"),
    ("button", "Results as CSV"),
]
# Whether an element lies wholly inside the window, and whether it is clear of the board.
PLACED = """(el) => {
  const box = el.getBoundingClientRect(), board = document.getElementById('board').getBoundingClientRect();
  return { inside: box.top >= 0 && box.left >= 0 && box.right <= innerWidth + 1,
           clear: box.left >= board.right || box.right <= board.left || box.top >= board.bottom };
}"""


@pytest.fixture
def presenting(open_page, site):
    """Return presenting(viewport): a page leading a class in presenter view, mid-run; end it after."""
    led = []

    def presenting(viewport):
        page = open_page(f"/?{RUN}", viewport=viewport)
        start_class(page)
        led.append(page)
        page.locator("#presenter").click()
        expect(page.locator("#presenter-bar")).to_be_visible()
        page.locator("#play").click()
        page.wait_for_function("() => knightsTour.model.events > 10")
        return page

    yield presenting
    for page in led:
        end_class(page)
    assert wait_for(lambda: len(classes(site.app)) == 0, 5), "a class outlived its end"


@pytest.mark.parametrize(
    "viewport", [{"width": 1280, "height": 720}, {"width": 1920, "height": 1080}], ids=["720p", "1080p"]
)
def test_the_drawer_opens_by_keyboard_over_the_side_and_escape_closes_it(presenting, viewport):
    page = presenting(viewport)
    toggle = page.get_by_role("button", name="Class tools")
    expect(toggle).to_have_attribute("aria-expanded", "false")
    for role, name in TOOLS:
        expect(page.get_by_role(role, name=name, exact=True)).to_be_hidden()
    page.evaluate(WATCH, IDS)
    page.wait_for_function(READY, arg=len(IDS))  # before the drawer opens: see READY
    toggle.focus()
    page.keyboard.press("Enter")
    expect(toggle).to_have_attribute("aria-expanded", "true")
    expect(page.get_by_role("button", name="Close", exact=True)).to_be_focused()
    for role, name in TOOLS:
        tool = page.get_by_role(role, name=name, exact=True)
        tool.scroll_into_view_if_needed()
        expect(tool).to_be_visible()
        placed = tool.evaluate(PLACED)
        assert placed == {"inside": True, "clear": True}, f"{name}: {placed}"
    # The run goes on behind the drawer, and the board neither resizes nor blanks for it.
    page.wait_for_function(
        "(n) => knightsTour.model.events > n", arg=page.evaluate("() => knightsTour.model.events")
    )
    page.wait_for_function("() => window.steady.frames >= 10")
    seen = page.evaluate("() => window.steady")
    assert ({k: n for k, n in seen["resizes"].items() if n}, seen["empty"]) == ({}, 0), seen

    page.keyboard.press("Escape")
    expect(toggle).to_have_attribute("aria-expanded", "false")
    expect(toggle).to_be_focused()
    for role, name in TOOLS:
        expect(page.get_by_role(role, name=name, exact=True)).to_be_hidden()
    seen = page.evaluate("() => window.steady")
    assert ({k: n for k, n in seen["resizes"].items() if n}, seen["empty"]) == ({}, 0), seen
    page.locator("#play").click()  # pause, so the class ends on a still run
