"""A class in real browsers: the instructor drives, students follow, join late, leave and rejoin."""

import re

from playwright.sync_api import expect

from server.class_events import classes

from .conftest import ARTIFACTS


def open_page(browser, url, width=1280, height=800):
    page = browser.new_context(viewport={"width": width, "height": height}).new_page()
    page.goto(url)
    page.wait_for_function("() => knightsTour.state !== undefined")
    return page


def start_class(page):
    page.get_by_role("button", name="Start a class").click()
    code = page.locator("#lead-code")
    expect(code).to_have_text(re.compile(r"^[A-Z2-9]{5}$"))
    return code.inner_text()


def test_students_follow_the_instructor_live(page, browser, site):
    code = start_class(page)
    assert f"?class={code}" in page.locator("#lead-link").inner_text()
    student = open_page(browser, f"{site.url}/?class={code}")
    expect(student.get_by_role("status")).to_contain_text(f"Following class {code}")
    for name in ("Play", "Step", "Step back", "Skip to end", "Reset"):
        expect(student.get_by_role("button", name=name, exact=True)).to_be_disabled()
    expect(student.get_by_label("Rows")).to_be_disabled()
    page.get_by_label("Ordering").select_option("warnsdorff")
    page.get_by_label("Speed").fill("7")  # 120 moves a second
    page.get_by_role("button", name="Play").click()
    expect(student.get_by_role("status")).to_contain_text("Tour found", timeout=15_000)
    assert student.evaluate("() => knightsTour.model.path") == page.evaluate("() => knightsTour.model.path")
    expect(student.locator("#depth")).to_have_text("25 / 25")
    # The shortcuts of disabled controls do nothing either.
    student.locator("body").click(position={"x": 5, "y": 5})
    for key in ("ArrowLeft", "Home", "r"):
        student.keyboard.press(key)
    assert student.evaluate("() => knightsTour.model.path.length") == 25
    expect(student.get_by_role("status")).to_contain_text("Tour found")
    student.screenshot(path=str(ARTIFACTS / "class_student.png"))
    student.context.close()


def test_a_late_joiner_sees_the_board_at_once_then_follows(page, browser, site):
    code = start_class(page)
    page.get_by_label("Rows").fill("6")
    page.get_by_label("Rows").dispatch_event("change")
    page.get_by_label("Columns").fill("6")
    page.get_by_label("Columns").dispatch_event("change")
    page.get_by_label("Speed").fill("6")  # 60 moves a second
    page.get_by_role("button", name="Play").click()
    page.wait_for_function("() => knightsTour.model.events > 60")
    late = open_page(browser, f"{site.url}/?class={code}", 390, 844)
    late.wait_for_function("() => knightsTour.model.events > 60")
    page.get_by_role("button", name="Pause").click()
    expect(late.get_by_role("status")).to_contain_text("the instructor has paused")
    page.wait_for_timeout(300)
    assert late.evaluate("() => knightsTour.model.path") == page.evaluate("() => knightsTour.model.path")
    assert late.evaluate("() => knightsTour.model.events") == page.evaluate("() => knightsTour.model.events")
    events = page.evaluate("() => knightsTour.model.events") + 1
    page.get_by_role("button", name="Step", exact=True).click()
    page.wait_for_function(f"() => knightsTour.model.events === {events}")
    late.wait_for_function(f"() => knightsTour.model.events === {events}")
    late.screenshot(path=str(ARTIFACTS / "class_late_joiner_phone.png"), full_page=True)
    late.context.close()


def test_a_student_leaves_to_explore_and_rejoins(page, browser, site):
    code = start_class(page)
    student = open_page(browser, site.url)
    student.get_by_label("Join a class with its code").fill(code.lower())
    student.get_by_role("button", name="Join", exact=True).click()
    expect(student.get_by_role("status")).to_contain_text(f"Following class {code}")
    student.get_by_role("button", name="Leave the class").click()
    expect(student.get_by_role("button", name="Play")).to_be_enabled()
    student.get_by_label("Speed").fill("16")
    student.get_by_role("button", name="Play").click()
    expect(student.get_by_role("status")).to_contain_text("Tour found")
    page.get_by_role("button", name="Step", exact=True).click()
    student.get_by_role("button", name="Rejoin the class").click()
    expect(student.get_by_role("status")).to_contain_text(f"class {code}")
    student.wait_for_function("() => knightsTour.model.events === 1")
    student.context.close()


def test_the_instructor_ends_the_class(page, browser, site):
    code = start_class(page)
    student = open_page(browser, f"{site.url}/?class={code}")
    expect(student.get_by_role("status")).to_contain_text(f"Following class {code}")
    page.get_by_role("button", name="End class").click()
    expect(student.get_by_role("status")).to_contain_text(
        f"Class {code} has ended: the instructor ended the class"
    )
    expect(student.get_by_role("button", name="Play")).to_be_enabled()
    assert len(classes(site.app)) == 0
    student.context.close()


def test_the_instructor_keeps_the_class_across_a_reload(page, browser, site):
    code = start_class(page)
    page.reload()
    expect(page.locator("#lead-code")).to_have_text(code)
    expect(page.locator("#class-note")).to_contain_text(f"You lead class {code} again")
    # Another browser with the link is a student, whatever it tries.
    other = open_page(browser, f"{site.url}/?class={code}")
    expect(other.get_by_role("status")).to_contain_text(f"Following class {code}")
    expect(other.locator("#class-lead")).to_be_hidden()
    other.context.close()


def test_presenter_view_shows_the_code_and_a_big_board(page):
    code = start_class(page)
    before = page.locator("#board").bounding_box()["width"]
    page.get_by_role("button", name="Presenter view").click()
    expect(page.locator("#presenter-code")).to_have_text(code)
    expect(page.locator(".lesson")).to_be_hidden()
    expect(page.get_by_label("Rows")).to_be_hidden()
    expect(page.get_by_role("button", name="Play")).to_be_visible()
    page.wait_for_timeout(200)
    assert page.locator("#board").bounding_box()["width"] > before
    page.screenshot(path=str(ARTIFACTS / "presenter.png"))
    page.get_by_role("button", name="Leave presenter view").click()
    expect(page.locator(".lesson")).to_be_visible()
