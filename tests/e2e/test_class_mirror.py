"""Everything the instructor's page shows reaches the class; students review on their own."""

import re

import pytest
from playwright.sync_api import expect

from server.classes.registry import classes
from tests.support.page import STEP, artifact, press, set_board, step_events
from tests.support.waiting import wait_for

FOLLOWING = "() => knightsTour.store.klass.role === 'student' && knightsTour.store.connection === 'up'"


@pytest.fixture
def lesson(page, site, open_page):
    """Start a class from page and open two students' pages; return them. The class ends after."""
    page.get_by_role("button", name="Start a class").click()
    expect(page.locator("#lead-code")).to_have_text(re.compile(r"^[A-Z2-9]{7}$"))
    code = page.locator("#lead-code").inner_text()
    room = [open_page(f"/?class={code}", until=FOLLOWING) for _ in range(2)]
    yield room
    page.get_by_role("button", name="End class").click()
    assert wait_for(lambda: len(classes(site.app)) == 0, 5), "the class outlived its end"


def shows(student, expression, value):
    """Wait until expression, evaluated in a student's page, is value."""
    student.wait_for_function(f"(value) => JSON.stringify({expression}) === JSON.stringify(value)", arg=value)


def test_the_board_options_and_position_reach_every_student(page, lesson):
    set_board(page, 6, 7)
    page.get_by_label("Ordering", exact=True).select_option("warnsdorff")
    page.get_by_label("Start square").fill("c3")
    page.get_by_label("Start square").press("Enter")
    settings = page.evaluate("() => knightsTour.store.settings")
    for student in lesson:
        shows(student, "knightsTour.store.settings", settings)
        expect(student.get_by_label("Rows", exact=True)).to_have_value("6")
        expect(student.get_by_label("Ordering", exact=True)).to_have_value("warnsdorff")
    events = step_events(page, 6)
    tree = page.evaluate("() => [knightsTour.tree.size, knightsTour.tree.whole]")
    assert tree == [6, True], tree  # Warnsdorff's first six events are visits
    for student in lesson:
        shows(student, "knightsTour.model.events", events)
        shows(student, "[knightsTour.tree.size, knightsTour.tree.whole]", tree)  # the same search tree
    # Stepping back and scrubbing: the class sees the same moment of the search.
    for shown in (events - 1, events - 2):
        press(page.get_by_role("button", name="Step back"))
        page.wait_for_function(f"() => knightsTour.model.events === {shown}")
    path = page.evaluate("() => knightsTour.model.path")
    for student in lesson:
        shows(student, "knightsTour.model.path", path)
    page.locator("#timeline").focus()
    page.keyboard.press("Home")
    for student in lesson:
        shows(student, "knightsTour.model.events", 0)
    page.keyboard.press("End")
    for student in lesson:
        shows(student, "knightsTour.model.events", events)
    # Panels: the instructor hides the lesson, then shows the code line by line.
    page.get_by_label("Code, call stack, chart and tree").uncheck()
    for student in lesson:
        shows(student, "knightsTour.store.view.lesson", False)
        expect(student.locator(".lesson")).to_be_hidden()
    page.get_by_label("Code, call stack, chart and tree").check()
    # Reset: every student's board is empty again, with the instructor's settings.
    press(page.get_by_role("button", name="Reset"))
    for student in lesson:
        shows(student, "knightsTour.store.run.status", "idle")
        shows(student, "knightsTour.model.events", 0)
    # The textbook's example graph, as the instructor shows it.
    page.get_by_label("The textbook's example graph (A to F)").check()
    for student in lesson:
        shows(student, "knightsTour.store.settings.mode", "example")
        shows(student, "[knightsTour.model.rows, knightsTour.model.cols]", [1, 6])


def test_a_student_reviews_on_their_own_then_goes_back_to_live(page, lesson):
    student, other = lesson
    step_events(page, 8)
    student.wait_for_function("() => knightsTour.model.events === 8")
    # One press at a time: the status line's new sentence moves the buttons down.
    for shown in (7, 6):
        press(student.get_by_role("button", name="Step back"))
        student.wait_for_function(f"() => knightsTour.model.events === {shown}")
    expect(student.locator("#status")).to_contain_text("Reviewing on your own at event 6")
    live = student.get_by_role("button", name="Back to live")
    expect(live).to_be_visible()
    # The class goes on: the reviewing student receives it without being moved.
    events = step_events(page, 3)
    other.wait_for_function(f"() => knightsTour.model.events === {events}")
    assert student.evaluate("() => knightsTour.model.events") == 6
    press(student.get_by_role("button", **STEP))
    student.wait_for_function("() => knightsTour.model.events === 7")
    press(live)
    student.wait_for_function(f"() => knightsTour.model.events === {events}")
    expect(live).to_be_hidden()
    expect(student.locator("#status")).to_contain_text("Following class")
    # Live again: the instructor's next move moves this page too.
    events = step_events(page, 1)
    student.wait_for_function(f"() => knightsTour.model.events === {events}")


def test_bookmarks_appear_on_every_students_timeline(page, lesson):
    student = lesson[0]
    step_events(page, 5)
    page.get_by_label("Bookmark label").fill("a good moment")
    page.get_by_role("button", name="Bookmark this moment").click()
    step_events(page, 4)
    page.get_by_role("button", name="Bookmark this moment").click()  # no label: numbered
    for each in lesson:
        marks = each.locator("#marks button")
        expect(marks).to_have_text(["a good moment (event 5)", "Bookmark 2 (event 9)"])
        expect(each.locator("#timeline-marks option")).to_have_count(2)
    # A student goes to a bookmark on their own copy of the run, and back to live.
    student.get_by_role("button", name="a good moment (event 5)").click()
    student.wait_for_function("() => knightsTour.model.events === 5")
    expect(student.locator("#status")).to_contain_text("Reviewing on your own at event 5")
    student.screenshot(path=artifact("class_student_reviewing.png"))
    student.get_by_role("button", name="Back to live").click()
    student.wait_for_function("() => knightsTour.model.events === 9")


def test_a_race_reaches_the_class_as_the_instructor_shows_it(page, lesson):
    page.get_by_label("Race two orderings").check()
    set_board(page, 5, 5)
    page.get_by_label("Speed").fill("11")  # 2500 moves a second
    for student in lesson:
        shows(student, "knightsTour.store.settings.mode", "race")
        expect(student.locator("#board-second")).to_be_visible()
    page.get_by_role("button", name="Play").click()
    expect(page.locator("#status")).to_contain_text("Warnsdorff", timeout=20_000)
    page.wait_for_function("() => knightsTour.store.run.status === 'finished'", timeout=60_000)
    second = page.evaluate("() => knightsTour.second.path")
    assert len(second) == 25  # Warnsdorff's board finds its tour
    for student in lesson:
        shows(student, "knightsTour.second.path", second)
        shows(student, "knightsTour.model.path", page.evaluate("() => knightsTour.model.path"))


def test_a_composed_ordering_and_a_race_of_two_reach_every_student(page, lesson):
    page.get_by_text("Compose your own ordering").click()
    page.get_by_label("Written form").fill("onward,-corner")
    page.get_by_role("button", name="Use this ordering").click()
    for student in lesson:
        expect(student.get_by_label("Ordering", exact=True)).to_have_value("onward,-corner")
    step_events(page, 3)
    for student in lesson:
        shows(student, "knightsTour.model.events", 3)
        expect(student.locator("#ordered-code")).to_contain_text("key=lambda m: (onward(m), -to_corner(m))")
    page.get_by_role("radio", name="Race two orderings").check()
    page.get_by_role("button", name="End this search and change").click()
    page.get_by_label("Raced against (second board)").select_option("warnsdorff-roth")
    step_events(page, 2)
    for student in lesson:
        expect(student.locator("#title-main")).to_have_text("onward,-corner")
        expect(student.locator("#title-second")).to_have_text("Warnsdorff + Roth's tie-break")
