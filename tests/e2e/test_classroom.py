"""A class in real browsers: the instructor drives, students follow, join late, leave and rejoin."""

import re

import pytest
from playwright.sync_api import expect

from server.classes.registry import classes
from tests.support.page import FASTEST, READY, STEP, artifact, caught_up, set_board
from tests.support.waiting import wait_for

LOADED = "() => knightsTour.state !== undefined"  # a student's Play stays disabled


@pytest.fixture
def open_student(open_page):
    """Return a factory of students' pages: open_student(path="/", **open_page's options)."""
    return lambda path="/", **options: open_page(path, until=LOADED, **options)


@pytest.fixture
def code(page, site):
    """Start a class from page, the instructor's, and return its code; after the test, end the
    class as its instructor would (rather than leave it for the server to reap)."""
    page.get_by_role("button", name="Start a class").click()
    shown = page.locator("#lead-code")
    expect(shown).to_have_text(re.compile(r"^[A-Z2-9]{7}$"))
    yield shown.inner_text()
    end = page.get_by_role("button", name="End class")
    if len(classes(site.app)) and end.is_visible():
        end.click(timeout=5_000)
        assert wait_for(lambda: len(classes(site.app)) == 0, 5), "the class outlived its end"


def test_students_follow_the_instructor_live(page, code, open_student):
    assert f"?class={code}" in page.locator("#lead-link").inner_text()
    student = open_student(f"/?class={code}")
    expect(student.get_by_role("status")).to_contain_text(f"Following class {code}")
    for name in ("Play", "Step", "Step back", "Skip to end", "Reset"):
        expect(student.get_by_role("button", name=name, exact=True)).to_be_disabled()
    expect(student.get_by_label("Rows", exact=True)).to_be_disabled()
    page.get_by_label("Ordering", exact=True).select_option("warnsdorff")
    page.get_by_label("Speed").fill("7")  # 120 moves a second
    page.get_by_role("button", name="Play").click()
    expect(student.get_by_role("status")).to_contain_text("Tour found", timeout=15_000)
    assert student.evaluate("() => knightsTour.model.path") == page.evaluate("() => knightsTour.model.path")
    expect(student.locator("#depth")).to_have_text("25 / 25")
    # The shortcuts of disabled controls do nothing either; those of review move the student's copy.
    student.locator("body").click(position={"x": 5, "y": 5})
    student.keyboard.press("r")
    assert student.evaluate("() => knightsTour.model.path.length") == 25
    expect(student.get_by_role("status")).to_contain_text("Tour found")
    student.keyboard.press("Home")
    student.wait_for_function("() => knightsTour.model.events === 0")
    expect(student.get_by_role("status")).to_contain_text("Reviewing on your own at event 0")
    student.screenshot(path=artifact("class_student.png"))


def test_a_late_joiner_sees_the_board_at_once_then_follows(page, code, site, open_student):
    set_board(page, 6, 6)
    page.get_by_label("Speed").fill("8")  # 250 moves a second: a class still sees every move
    page.get_by_role("button", name="Play").click()
    page.wait_for_function("() => knightsTour.model.events > 60")
    late = open_student(f"/?class={code}", viewport={"width": 390, "height": 844})
    late.wait_for_function("() => knightsTour.model.events > 60")
    page.get_by_role("button", name="Pause").click()
    expect(late.get_by_role("status")).to_contain_text("the instructor has paused")
    # The batches on their way when the instructor paused reach the instructor and the class.
    events = caught_up(page, site)
    late.wait_for_function(f"() => knightsTour.model.events === {events}")
    assert late.evaluate("() => knightsTour.model.path") == page.evaluate("() => knightsTour.model.path")
    assert late.evaluate("() => knightsTour.model.events") == page.evaluate("() => knightsTour.model.events")
    events = page.evaluate("() => knightsTour.model.events") + 1
    page.get_by_role("button", **STEP).click()
    page.wait_for_function(f"() => knightsTour.model.events === {events}")
    late.wait_for_function(f"() => knightsTour.model.events === {events}")
    late.screenshot(path=artifact("class_late_joiner_phone.png"), full_page=True)


def test_a_student_leaves_to_explore_and_rejoins(page, code, open_student):
    student = open_student()
    student.get_by_label("Join a class with its code").fill(code.lower())
    student.get_by_role("button", name="Join", exact=True).click()
    expect(student.get_by_role("status")).to_contain_text(f"Following class {code}")
    student.get_by_role("button", name="Leave the class").click()
    expect(student.get_by_role("button", name="Play")).to_be_enabled()
    student.get_by_label("Speed").fill("16")
    student.get_by_role("button", name="Play").click()
    expect(student.get_by_role("status")).to_contain_text("Tour found")
    page.get_by_role("button", **STEP).click()
    student.get_by_role("button", name="Rejoin the class").click()
    expect(student.get_by_role("status")).to_contain_text(f"class {code}")
    student.wait_for_function("() => knightsTour.model.events === 1")


def test_the_instructor_ends_the_class(page, code, site, open_student):
    student = open_student(f"/?class={code}")
    expect(student.get_by_role("status")).to_contain_text(f"Following class {code}")
    page.get_by_role("button", name="End class").click()
    # The class panel says why (its note is spoken); the status line offers the board to explore.
    ended = f"Class {code} has ended: the instructor ended the class."
    expect(student.locator("#class-note")).to_have_text(ended)
    assert student.locator("#class-note").get_attribute("aria-live") == "polite"
    expect(student.get_by_role("status")).to_contain_text("Ready")
    expect(student.get_by_role("button", name="Play")).to_be_enabled()
    assert len(classes(site.app)) == 0


def test_the_instructor_keeps_the_class_across_a_reload(page, code, site, open_student):
    classes(site.app).orphan_seconds = 600  # a busy machine's reload may take longer than the tests' 2 s
    page.reload()
    expect(page.locator("#lead-code")).to_have_text(code)
    expect(page.locator("#class-note")).to_contain_text(f"You lead class {code} again")
    # Another browser with the link is a student, whatever it tries.
    other = open_student(f"/?class={code}")
    expect(other.get_by_role("status")).to_contain_text(f"Following class {code}")
    expect(other.locator("#class-lead")).to_be_hidden()


def test_presenter_view_shows_the_code_and_a_big_board(page, code):
    before = page.locator("#board").bounding_box()["width"]
    page.get_by_role("button", name="Presenter view").click()
    expect(page.locator("#presenter-code")).to_have_text(code)
    expect(page.locator("#code")).to_be_visible()  # the lesson stays (tests/e2e/test_presenter.py)
    expect(page.get_by_label("Rows", exact=True)).to_be_hidden()
    expect(page.get_by_role("button", name="Play")).to_be_visible()
    # The board grows to the room the layout gives it (it is sized on the next frames).
    page.wait_for_function(f"() => document.getElementById('board').getBoundingClientRect().width > {before}")
    assert page.locator("#board").bounding_box()["width"] > before
    page.screenshot(path=artifact("presenter.png"))
    page.get_by_role("button", name="Leave presenter view").click()
    expect(page.get_by_label("Rows", exact=True)).to_be_visible()


def test_the_class_sees_the_instructors_skip_as_a_whole_tree_and_a_late_joiner_is_told_why_not(
    page, code, open_student
):
    set_board(page, 6, 6)
    student = open_student(f"/?class={code}")
    expect(student.get_by_role("status")).to_contain_text(f"Following class {code}")
    for events in range(1, 4):
        page.get_by_role("button", **STEP).click()
        student.wait_for_function(f"() => knightsTour.model.events === {events}")
    late = open_student(f"/?class={code}")
    late.wait_for_function("() => knightsTour.model.events === 3")
    page.get_by_role("button", name="Skip to end").click()
    for each in (page, student, late):
        expect(each.get_by_role("status")).to_contain_text("Tour found", timeout=30_000)
    # 183,635 visits: the instructor's tree and the student's, every node counted.
    trees = "() => [knightsTour.tree.whole, knightsTour.tree.size]"
    assert page.evaluate(trees) == student.evaluate(trees) == [True, 183_635]
    expect(student.locator("#tree-picture")).to_be_visible()
    expect(student.locator("#tree-note")).to_be_hidden()
    # Joined after the run began, the late student holds no tree of its first moves: it is told so.
    assert late.evaluate(trees)[0] is False
    expect(late.locator("#tree-note")).to_be_visible()
    expect(late.locator("#tree-note")).to_contain_text("a run joined under way")


def test_a_class_following_a_run_too_fast_to_watch_still_holds_its_whole_tree(page, code, open_student):
    set_board(page, 6, 6)
    student = open_student(f"/?class={code}")
    expect(student.get_by_role("status")).to_contain_text(f"Following class {code}")
    page.get_by_label("Speed").fill(FASTEST)
    page.get_by_role("button", name="Play").click()
    expect(student.get_by_role("status")).to_contain_text("Tour found", timeout=60_000)
    # The room was sent snapshots, not the 367,235 events, each with the outline of those left out.
    tree = "() => { const t = knightsTour.tree; return [t.whole, t.size, t.exact < t.size]; }"
    assert student.evaluate(tree) == [True, 183_635, True]
    expect(student.locator("#tree-picture")).to_be_visible()
    expect(student.locator("#tree-note")).to_be_hidden()


def test_the_class_sees_the_node_the_instructor_chooses_in_the_tree_and_the_zoom(page, code, open_student):
    student = open_student(f"/?class={code}")
    expect(student.get_by_role("status")).to_contain_text(f"Following class {code}")
    page.get_by_label("Speed").fill(FASTEST)
    page.get_by_role("button", name="Play").click()
    expect(student.get_by_role("status")).to_contain_text("Tour found", timeout=30_000)
    tree = page.locator("#tree-picture")
    tree.focus()
    for key in ("ArrowDown", "ArrowDown", "ArrowRight", "+", "+"):
        tree.press(key)
    # The page renders the keys' choice on its next frame: wait for it there.
    expect(page.locator("#tree-point")).to_contain_text(", depth 3:")
    said = page.locator("#tree-point").inner_text()
    expect(student.locator("#tree-point")).to_have_text(said)
    span = "knightsTour.store.view.treeSpan"
    first, last = page.evaluate(f"() => [{span}.from, {span}.to]")
    student.wait_for_function(f"() => {span}?.from === {first} && {span}.to === {last}")
    # The instructor zooms back out: so does the class.
    tree.press("0")
    student.wait_for_function("() => knightsTour.store.view.treeSpan === null")


def test_a_class_the_server_never_opens_says_so(page, site):
    # The server never hears this page's request to open a class (each other message passes).
    def relay(socket):
        server = socket.connect_to_server()
        socket.on_message(lambda message: '"class_open"' not in str(message) and server.send(message))

    page.route_web_socket(re.compile(r"/socket\.io/"), relay)
    page.reload()
    page.wait_for_function(READY)
    page.get_by_role("button", name="Start a class").click()
    said = "The server did not answer; check the connection."
    expect(page.locator("#class-note")).to_have_text(said, timeout=10_000)  # the page waits 5 s for it
    expect(page.get_by_role("button", name="Start a class")).to_be_visible()
    assert not classes(site.app)
