"""The race of naive and Warnsdorff: two big boards, each named and captioned, a status that
says who finished first, and lesson panels that say which side they follow."""

import re

from playwright.sync_api import expect

from server.classes.registry import classes
from tests.support.page import (
    FASTEST,
    FOLLOWING,
    READY,
    STEP,
    caught_up,
    pixels,
    wait_for_events,
    wait_for_pixels,
)
from tests.support.waiting import wait_for

TEXT = (0x14, 0x18, 0x1C)  # the tree pictures' words (paint/theme.js's grayText)
LANES = [("#board", "#caption-main", "Naive"), ("#board-second", "#caption-second", "Warnsdorff")]


def open_race(page, site):
    """Set the page up for a race on 6x6 from a corner (where naive searches for long, and
    Warnsdorff finishes in 36 moves), at 250 moves a second."""
    page.goto(f"{site.url}/?mode=race&rows=6&cols=6&speed=250")
    page.wait_for_function(READY)


def test_a_link_shared_as_mode_compare_still_opens_the_race(page, site):
    page.goto(f"{site.url}/?mode=compare&rows=6&cols=6")
    page.wait_for_function(READY)
    expect(page.get_by_label("Race two orderings")).to_be_checked()
    expect(page.locator("#board-second")).to_be_visible()
    expect(page.locator("#status")).not_to_contain_text("could not be used")
    assert "mode=race" in page.url


def test_the_race_boards_are_big_named_and_captioned(page, site):
    open_race(page, site)
    problems = []
    for board, caption, name in LANES:
        box = page.locator(board).bounding_box()
        if box["width"] < 400:
            problems.append(f"the {name} board is {box['width']:.0f} px wide")
        below = page.locator(caption).bounding_box()["y"] - (box["y"] + box["height"])
        if not 0 <= below <= 40:
            problems.append(f"the {name} caption is {below:.0f} px under its board")
        title = page.get_by_role("heading", name=name, exact=True)
        if not title.is_visible():
            problems.append(f"the {name} board has no title")
        elif (
            not box["x"]
            <= title.bounding_box()["x"] + title.bounding_box()["width"] / 2
            <= box["x"] + box["width"]
        ):
            problems.append(f"{name}'s title is not by its board")
    assert problems == []


def test_the_race_says_who_finished_first_and_the_lesson_which_side_it_follows(page, site):
    open_race(page, site)
    page.get_by_role("button", name="Play").click()
    expect(page.get_by_role("status")).to_contain_text(
        re.compile(r"Warnsdorff has finished: Tour found.*Naive is still searching")
    )
    expect(page.get_by_text("The panels follow:")).to_be_visible()
    page.get_by_role("radio", name="Warnsdorff", exact=True).check()
    expect(page.locator("#stack li").first).to_contain_text(re.compile(r"^36\. "))
    page.get_by_role("button", name="Pause").click()


def test_every_control_works_on_the_side_still_searching_once_the_other_has_finished(page, site):
    open_race(page, site)
    status, play = page.get_by_role("status"), page.locator("#play")
    play.click()
    expect(status).to_contain_text("Naive is still searching")
    play.click()  # Pause
    expect(status).to_contain_text("Paused")
    expect(play).to_have_text("Play")
    taken = caught_up(page, site)  # the finished side has no run left on the server
    page.get_by_role("button", **STEP).click()
    wait_for_events(page, taken + 1)
    expect(status).not_to_contain_text("no run to control")
    play.click()  # Play again: the naive side goes on
    expect(play).to_have_text("Pause")
    page.wait_for_function(f"() => knightsTour.model.events > {taken + 1}")
    page.get_by_role("button", name="Skip to end").click()
    expect(status).to_contain_text("Naive: Tour found")
    expect(status).not_to_contain_text("no run to control")


def test_a_class_sees_a_race_with_one_side_finished_paused_and_resumed(page, site, open_page):
    open_race(page, site)
    page.get_by_role("button", name="Start a class").click()
    expect(page.locator("#lead-code")).to_have_text(re.compile(r"^[A-Z2-9]{7}$"))
    code = page.locator("#lead-code").inner_text()
    student = open_page(f"/?class={code}", until=FOLLOWING)
    student.wait_for_function("() => knightsTour.store.settings.mode === 'race'")
    page.get_by_role("button", name="Play").click()
    expect(page.get_by_role("status")).to_contain_text("Naive is still searching")
    page.get_by_role("button", name="Pause").click()
    expect(page.get_by_role("button", name="Play", exact=True)).to_be_visible()
    expect(student.get_by_role("status")).to_contain_text("the instructor has paused")
    held = page.evaluate("() => knightsTour.model.events")
    page.get_by_role("button", name="Play", exact=True).click()
    expect(student.get_by_role("status")).not_to_contain_text("the instructor has paused")
    student.wait_for_function(f"() => knightsTour.model.events > {held + 5}")
    page.get_by_role("button", name="End class").click()
    assert wait_for(lambda: len(classes(site.app)) == 0, 5), "the class outlived its end"


# The boards' column's content, the lesson's box, its tree section's width, and the lesson's panels' top.
RACE_COLUMNS = """() => {
  const box = (el) => el.getBoundingClientRect();
  const shown = [...document.querySelector('.board-area').children].filter((el) => el.checkVisibility());
  return { contentBottom: Math.max(...shown.map((el) => box(el).bottom)),
           lesson: box(document.querySelector('.lesson')).toJSON(),
           tree: box(document.querySelector('.lesson > section[data-panel="tree"]')).width,
           code: box(document.querySelector('.lesson > section[data-panel="code"]')).top };
}"""


def test_a_race_on_a_laptop_packs_the_lesson_under_the_boards_and_points_at_the_smaller_tree(page, site):
    page.goto(f"{site.url}/?mode=race&rows=6&cols=6&speed=1")
    page.wait_for_function(READY)
    page.locator("#speed").fill(FASTEST)
    page.locator("#speed").dispatch_event("change")
    page.get_by_role("button", name="Play").click()
    for _, caption, _ in LANES:
        expect(page.locator(caption)).to_contain_text("Finished", timeout=30_000)
    layout = page.evaluate(RACE_COLUMNS)
    # No empty band between the boards' column and the lesson, nor above the lesson's panels, and
    # the trees across the lesson's width.
    assert layout["lesson"]["top"] - layout["contentBottom"] < 40, layout
    assert layout["code"] - layout["lesson"]["top"] < 80, layout
    assert layout["tree"] >= 0.9 * layout["lesson"]["width"], layout
    # Warnsdorff's 36 nodes are a line at the left edge beside naive's thousands: words point at them.
    tree = page.locator("#tree-picture-second")
    tree.scroll_into_view_if_needed()
    expect(page.locator("#tree-name-second")).to_have_text("Warnsdorff: 36 nodes")
    assert wait_for_pixels(page, TEXT, 50, canvas="#tree-picture-second"), (
        "nothing says where the small tree is"
    )
    # Drawn in the same frame, naive's tree has no such words.
    small, large = pixels(page, TEXT, "#tree-picture-second"), pixels(page, TEXT, "#tree-picture")
    assert large < small / 10, f"words' pixels: {large} in naive's tree, {small} in Warnsdorff's"
