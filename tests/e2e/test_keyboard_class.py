"""A student in a class with the keyboard alone: the question is announced, answered and its
receipt and reveal announced; the student reviews, goes back to live, leaves and rejoins. The
student's page is driven by key presses only (the instructor's by clicks); what a screen reader
would hear is read from the accessibility tree (Playwright's aria snapshots)."""

import re

from playwright.sync_api import expect

from server.classes.registry import classes
from tests.support.page import square_name, step_events
from tests.support.waiting import wait_for

FOLLOWING = "() => knightsTour.store.klass.role === 'student' && knightsTour.store.connection === 'up'"


def tab_to(page, element_id, most=400):
    """Press Tab until the element with that id has the focus, as a keyboard user would."""
    for _ in range(most):
        if page.evaluate("() => document.activeElement?.id") == element_id:
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"#{element_id} never took the focus in {most} presses of Tab")


def heard(page, selector, text):
    """Tell whether the accessibility tree has text as a paragraph within an element (an aria
    snapshot quotes a text with a colon in it)."""
    snapshot = " ".join(page.locator(selector).aria_snapshot().split())
    return re.search(rf'paragraph: "?{re.escape(text)}', snapshot) is not None


def test_a_student_answers_reviews_leaves_and_rejoins_with_the_keyboard_alone(open_page, site):
    teacher = open_page(
        "/?rows=5&cols=5&start=a5&order=naive&speed=1", viewport={"width": 1280, "height": 900}
    )
    teacher.get_by_role("button", name="Start a class").click()
    expect(teacher.locator("#lead-code")).to_have_text(re.compile(r"^[A-Z2-9]{7}$"))
    code = teacher.locator("#lead-code").inner_text()
    student = open_page(f"/?class={code}", until=FOLLOWING, viewport={"width": 1280, "height": 900})
    events = step_events(teacher, 3)
    student.wait_for_function(f"() => knightsTour.model.events === {events}")

    # The question: the status line (a live region) announces it, and the answer field takes it.
    teacher.get_by_role("button", name="Ask the class").click()
    expect(student.get_by_role("status")).to_have_text("Your instructor asks: where does the knight go next?")
    (klass,) = classes(site.app).shared()[0]
    upcoming = klass.main.player.upcoming()
    kind, vertex, _ = upcoming["next"]
    right = square_name(vertex if kind == "visit" else upcoming["path"][-2], 5, 5)
    tab_to(student, "poll-square")
    student.keyboard.type(right)
    student.keyboard.press("Enter")
    receipt = f"Your answer: {right}. Waiting for the reveal…"
    expect(student.locator("#poll-text")).to_have_text(receipt)
    assert student.locator("#poll-text").get_attribute("aria-live") == "polite"
    assert heard(student, "#poll", receipt)

    teacher.get_by_role("button", name="Reveal").click()
    revealed = f"Right: the knight went to {right}. 100% of the class had it."
    expect(student.locator("#poll-text")).to_have_text(revealed)
    assert heard(student, "#poll", revealed)
    student.wait_for_function(f"() => knightsTour.model.events === {events + 1}")

    # Review: the board takes the focus, Left steps back on the student's own copy; Back to live.
    tab_to(student, "board")
    student.keyboard.press("ArrowLeft")
    expect(student.get_by_role("status")).to_have_text(
        re.compile(rf"^Reviewing on your own at event {events}")
    )
    tab_to(student, "live")
    student.keyboard.press("Enter")
    expect(student.get_by_role("status")).to_contain_text(f"Following class {code}")
    assert student.evaluate("() => knightsTour.model.events") == events + 1

    # Leave and rejoin, each said where a screen reader hears it.
    tab_to(student, "class-leave")
    student.keyboard.press("Enter")
    expect(student.locator("#class-note")).to_have_text(
        f"You left class {code}: this board is yours to explore."
    )
    assert heard(student, "#class-setup", f"You left class {code}")
    tab_to(student, "class-rejoin")
    student.keyboard.press("Enter")
    student.wait_for_function(FOLLOWING)
    expect(student.get_by_role("status")).to_contain_text(f"Following class {code}")
    student.wait_for_function(f"() => knightsTour.model.events === {events + 1}")

    teacher.get_by_role("button", name="End class").click()
    assert wait_for(lambda: len(classes(site.app)) == 0, 5), "the class outlived its end"
