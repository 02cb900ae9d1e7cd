"""A newcomer's first minutes with the page, in a real Chromium."""

import re

from playwright.sync_api import expect

from tests.support.page import FASTEST, STEP, artifact, caught_up, click_square, counter, set_board
from tests.support.waiting import wait_for


def shown_events(page):
    """Return the visits and backtracks the counters show, added up."""
    return int(counter(page, "visits").replace(",", "")) + int(counter(page, "backtracks").replace(",", ""))


def test_warnsdorff_tour_from_a_corner(page):
    set_board(page, 5, 5)
    click_square(page, 4, 4)  # the bottom right corner
    expect(page.get_by_label("Start square")).to_have_value("e1")
    expect(page.get_by_role("status")).to_contain_text("Ready")
    page.get_by_label("Ordering", exact=True).select_option(label="Warnsdorff")
    page.get_by_label("Speed").fill(FASTEST)
    page.get_by_role("button", name="Play").click()
    expect(page.get_by_role("status")).to_contain_text("Tour found", timeout=10_000)
    expect(page.locator("#depth")).to_have_text("25 / 25")
    assert counter(page, "visits") == "25" and counter(page, "backtracks") == "0"
    numbers = page.evaluate("() => Array.from(window.knightsTour.model.numbers).sort((a, b) => a - b)")
    assert numbers == list(range(1, 26)), "every square carries its visit number"


def test_naive_five_by_five_counts_every_backtrack(page):
    set_board(page, 5, 5)
    page.get_by_label("Speed").fill(FASTEST)
    page.get_by_role("button", name="Play").click()
    expect(page.get_by_role("status")).to_contain_text("Tour found", timeout=20_000)
    assert counter(page, "backtracks") == "4,985"
    assert counter(page, "visits") == "5,010"
    expect(page.get_by_role("button", name="Run again")).to_be_enabled()
    expect(page.get_by_role("button", **STEP)).to_be_disabled()  # nothing is left to step to


def test_no_tour_is_reported(page):
    set_board(page, 3, 3)
    page.get_by_label("Speed").fill(FASTEST)
    page.get_by_role("button", name="Play").click()
    expect(page.get_by_role("status")).to_contain_text("No tour exists from a3", timeout=10_000)


def test_pause_and_step(page, site):
    set_board(page, 6, 6)
    page.get_by_label("Speed").fill("5")  # 30 moves a second
    page.get_by_role("button", name="Play").click()
    expect(page.get_by_role("status")).to_have_text("Searching…")
    page.get_by_role("button", name="Pause").click()
    expect(page.get_by_role("status")).to_contain_text("Paused")
    # Batches already on their way still arrive; then the counts stay where the server stopped.
    before = caught_up(page, site)
    assert wait_for(lambda: shown_events(page) == before, 5), (shown_events(page), before)
    for n in (1, 2, 3):
        page.get_by_role("button", **STEP).click()
        expect(page.locator("#visits")).to_have_text(re.compile(r"\d+"))
        page.wait_for_function(
            f"() => knightsTour.model.visits + knightsTour.model.backtracks === {before + n}"
        )
    # Paused, the server sent the three steps and nothing else.
    assert caught_up(page, site) == before + 3
    assert wait_for(lambda: shown_events(page) == before + 3, 5), (shown_events(page), before + 3)
    expect(page.get_by_role("button", name="Play")).to_be_visible()
    page.screenshot(path=artifact("paused.png"))


def test_step_from_the_start_shows_the_first_move(page):
    page.get_by_role("button", **STEP).click()
    expect(page.locator("#visits")).to_have_text("1")
    expect(page.locator("#depth")).to_have_text("1 / 25")
    page.get_by_role("button", **STEP).click()
    expect(page.locator("#visits")).to_have_text("2")
    expect(page.get_by_role("status")).to_contain_text("Paused")


def test_keyboard_plays_pauses_and_steps(page, site):
    page.get_by_label("Speed").fill("3")
    page.locator("body").click(position={"x": 5, "y": 5})
    page.keyboard.press("Space")
    expect(page.get_by_role("button", name="Pause")).to_be_visible()
    page.keyboard.press("Space")
    expect(page.get_by_role("button", name="Play")).to_be_visible()
    expect(page.get_by_role("status")).to_contain_text("Paused")
    before = caught_up(page, site)
    page.keyboard.press("ArrowRight")
    page.wait_for_function(f"() => knightsTour.model.events === {before + 1}")
    assert caught_up(page, site) == before + 1


def test_reset_and_board_change_clear_the_run(page):
    page.get_by_label("Speed").fill("5")
    page.get_by_role("button", name="Play").click()
    expect(page.locator("#visits")).not_to_have_text("0")
    page.get_by_role("button", name="Reset").click()
    expect(page.locator("#visits")).to_have_text("0")
    expect(page.get_by_role("status")).to_contain_text("Ready")
    page.get_by_label("Rows", exact=True).fill("40")
    page.get_by_label("Rows", exact=True).dispatch_event("change")
    expect(page.locator("#board-note")).to_contain_text("1 to 32 rows and columns; 40 became 32")
    expect(page.get_by_label("Rows", exact=True)).to_have_value("32")
    expect(page.locator("#depth")).to_have_text("0 / 160")
    # Rows cleared and left: the board keeps its 32 rows, and the note of the last change goes.
    page.get_by_label("Rows", exact=True).fill("")
    page.get_by_label("Rows", exact=True).dispatch_event("change")
    expect(page.get_by_label("Rows", exact=True)).to_have_value("32")
    expect(page.locator("#board-note")).to_be_empty()
    expect(page.locator("#depth")).to_have_text("0 / 160")
