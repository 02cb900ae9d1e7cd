"""The page's layout around the board: run buttons on one line, the confirmation bar leaving the
whole board on screen, and a one-square board's result said right in both languages."""

import pytest
from playwright.sync_api import expect

from server.classes.registry import classes
from tests.support.page import end_class, set_board, start_class
from tests.support.waiting import wait_for

# {label: lines} of the run buttons shown: a label's lines are its text's distinct line boxes.
LINES = """() => Object.fromEntries([...document.querySelectorAll('.controls button')]
  .filter((button) => button.offsetParent)
  .map((button) => {
    const range = document.createRange();
    range.selectNodeContents(button);
    const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
    return [button.textContent.trim(), tops.size];
  }))"""


def assert_one_line_each(page):
    lines = page.evaluate(LINES)
    assert len(lines) >= 5 and all(n == 1 for n in lines.values()), f"labels over more than one line: {lines}"


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize(
    "viewport", [{"width": 1280, "height": 800}, {"width": 1920, "height": 1080}], ids=["1280", "1920"]
)
def test_the_run_buttons_keep_their_labels_on_one_line(open_page, site, lang, viewport):
    page = open_page(viewport=viewport)
    page.locator("#language").select_option(lang)
    assert_one_line_each(page)
    start_class(page)
    page.locator("#presenter").click()
    expect(page.locator("#presenter-bar")).to_be_visible()
    assert_one_line_each(page)
    end_class(page)
    assert wait_for(lambda: len(classes(site.app)) == 0, 5), "a class outlived its end"


def test_the_confirmation_bar_leaves_the_whole_board_on_screen(page):
    set_board(page, 6, 6)
    page.get_by_role("button", name="Play").click()
    page.wait_for_function("() => knightsTour.model.events > 5")
    page.get_by_label("Rows", exact=True).fill("7")
    page.get_by_label("Rows", exact=True).dispatch_event("change")
    expect(page.locator("#pending")).to_be_visible()
    # On the frame after the layout changed, the board has been fitted to the room it has left.
    page.wait_for_function(
        """() => {
          const board = document.getElementById('board').getBoundingClientRect();
          const bar = document.getElementById('pending').getBoundingClientRect();
          return board.top >= bar.bottom && board.bottom <= innerHeight;
        }"""
    )
    page.get_by_role("button", name="Keep searching").click()


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "Tour found: the board's one square is the whole tour, after 1 visit and no backtrack."),
        ("zh", "找到周游路线：棋盘只有一个方格，骑士访问一次即走完，没有回溯。"),
    ],
)
def test_a_one_square_board_says_its_tour_in_the_singular(open_page, lang, said):
    page = open_page("/?rows=1&cols=1")
    page.locator("#language").select_option(lang)
    page.locator("#play").click()
    page.wait_for_function("() => knightsTour.state === 'finished'")
    expect(page.locator("#status")).to_have_text(said)
