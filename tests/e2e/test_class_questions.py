"""Class questions in real browsers: an instructor asks, three students answer, the reveal shows."""

import re

from playwright.sync_api import expect

from tests.support.page import (
    FOLLOWING,
    artifact,
    click_square,
    frames_pass,
    pixels,
    press,
    square_name,
    step_events,
    wait_for_pixels,
)
from tests.support.questions import free_squares, next_square, results_csv

RIGHT_RING = (0x13, 0x7A, 0x32)  # paint/theme.js rightAnswer
MY_ANSWER = (0x43, 0x38, 0xCA)  # paint/theme.js myAnswer
DEAD_END = (0x6A, 0x1B, 0x9A)  # paint/theme.js deadEnd
# The student's answer field: its placeholder's width as drawn, and the room inside its padding.
PLACEHOLDER_FITS = """() => {
  const field = document.getElementById('poll-square'), style = getComputedStyle(field);
  const ctx = document.createElement('canvas').getContext('2d');
  ctx.font = style.font;
  const room = field.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  return ctx.measureText(field.placeholder).width <= room;
}"""


def test_three_students_answer_and_the_reveal_shows_the_tally_and_heatmap(instructor, open_page, site):
    page = instructor
    code = page.locator("#lead-code").inner_text()
    students = [
        open_page(f"/?class={code}", until=FOLLOWING, viewport={"width": 390, "height": 844})
        for _ in range(3)
    ]
    events = step_events(page, 3)
    for student in students:
        student.wait_for_function(f"() => knightsTour.model.events === {events}")
    page.get_by_role("button", name="Presenter view").click()
    page.get_by_role("button", name="Ask the class").click()
    expect(page.locator("#poll-text")).to_have_text(
        "Question 1 of 1: 0 answers so far. Students following when it was asked: 3."
    )
    right = next_square(site)
    wrong = next(s for s in free_squares(page) if s != right)
    for student, square in zip(students, (right, right, wrong), strict=True):
        expect(student.locator("#poll-text")).to_contain_text("Tap the square the knight goes to next")
        # Nothing on a student's board gives the answer away.
        assert student.evaluate("() => knightsTour.overlay().hints") == []
        click_square(student, square // 5, square % 5)
        expect(student.locator("#poll-text")).to_have_text(
            f"Your answer: {square_name(square, 5, 5)}. Waiting for the reveal…"
        )
    expect(page.locator("#poll-text")).to_have_text(
        "Question 1 of 1: 3 answers so far. Students following when it was asked: 3."
    )
    # Controls wait for the question: the run stands where it was asked.
    expect(page.get_by_role("button", name="Step", exact=True)).to_be_disabled()
    page.get_by_role("button", name="Reveal").click()
    expect(page.locator("#poll-text")).to_have_text(
        "67% had it right (2 of 3 answers). Students following when it was asked: 3."
    )
    answers = page.evaluate("() => knightsTour.overlay().answers")
    assert answers["heat"] == sorted([[right, 2], [wrong, 1]])
    assert answers["right"] == right
    # The move plays for everyone: one event, to the right square.
    for each in (page, *students):
        each.wait_for_function(f"() => knightsTour.model.events === {events + 1}")
        assert each.evaluate("() => knightsTour.model.path.at(-1)") == right
    name, mine = square_name(right, 5, 5), square_name(wrong, 5, 5)
    for student in students[:2]:
        expect(student.locator("#poll-text")).to_have_text(
            f"Right: the knight went to {name}. 67% of the class had it."
        )
    expect(students[2].locator("#poll-text")).to_have_text(
        f"The knight went to {name}; you said {mine}. 67% of the class had it."
    )
    assert wait_for_pixels(page, RIGHT_RING, 50), "the right square is not ringed on the projector"
    frames_pass(page, 400)  # the knight has landed
    page.screenshot(path=artifact("class_question_revealed.png"))
    students[2].screenshot(path=artifact("class_question_student.png"))
    # The results, as CSV: one row of anonymous tallies for the question.
    page.get_by_role("button", name="Leave presenter view").click()
    rows = results_csv(page)
    assert len(rows) == 1
    assert rows[0]["answer"] == name and rows[0]["answered"] == "3" and rows[0]["right"] == "2"
    assert (rows[0]["present"], rows[0]["late"]) == ("3", "0")
    assert sorted(rows[0]["answers"].split()) == sorted([f"{name}:2", f"{mine}:1"])


WAITING = re.compile(r"^Your answer: \S+\. Waiting for the reveal…$")


def test_a_series_counts_the_class_accuracy_and_a_late_joiner_gets_the_question(instructor, open_page, site):
    page = instructor
    code = page.locator("#lead-code").inner_text()
    student = open_page(f"/?class={code}", until=FOLLOWING)
    step_events(page, 2)
    page.get_by_label("questions in a row").fill("2")
    page.get_by_role("button", name="Ask the class").click()
    expect(page.locator("#poll-text")).to_have_text(
        "Question 1 of 2: 0 answers so far. Students following when it was asked: 1."
    )
    late = open_page(f"/?class={code}", until=FOLLOWING)
    expect(late.locator("#poll-text")).to_contain_text("Tap the square the knight goes to next")
    right = next_square(site)
    for each in (student, late):
        click_square(each, right // 5, right % 5)
    expect(page.locator("#poll-text")).to_have_text(
        "Question 1 of 2: 1 answer so far. Students following when it was asked: 1. "
        "1 answer from a page that joined after the question was asked is not counted."
    )
    # Each student's page says how its answer counts: the late one's, apart.
    expect(student.locator("#poll-text")).to_have_text(WAITING)
    expect(late.locator("#poll-text")).to_have_text(
        re.compile(
            r"^Your answer: \S+\. This page joined after the question was asked, so your answer is kept "
            r"apart from the class's count\. Waiting for the reveal…$"
        )
    )
    press(page.get_by_role("button", name="Reveal"))
    expect(page.locator("#poll-summary")).to_have_text("Series: 1 of 2 questions, class accuracy 100%.")
    page.get_by_role("button", name="Ask question 2 of 2").click()
    expect(page.locator("#poll-text")).to_have_text(
        "Question 2 of 2: 0 answers so far. Students following when it was asked: 2."
    )
    right = next_square(site)
    wrong = next(s for s in free_squares(page) if s != right)
    click_square(student, right // 5, right % 5)
    click_square(late, wrong // 5, wrong % 5)
    expect(late.locator("#poll-text")).to_have_text(WAITING)
    expect(page.locator("#poll-text")).to_have_text(
        "Question 2 of 2: 2 answers so far. Students following when it was asked: 2."
    )
    press(page.get_by_role("button", name="Reveal"))
    expect(page.locator("#poll-summary")).to_have_text("Series: 2 of 2 questions, class accuracy 67%.")
    expect(late.locator("#poll-summary")).to_have_text("Series: 2 of 2 questions, 1 right.")


def test_two_tabs_of_one_browser_answer_as_one_student(instructor, open_page, site, browser):
    page = instructor
    code = page.locator("#lead-code").inner_text()
    first = open_page(f"/?class={code}", until=FOLLOWING)
    # A second tab in the same browser (its context): the same storage, so the same voter's pass.
    second = first.context.new_page()
    second.goto(f"{site.url}/?class={code}")
    second.wait_for_function(FOLLOWING)
    step_events(page, 3)
    page.get_by_role("button", name="Ask the class").click()
    square = next_square(site)
    for tab in (first, second):
        expect(tab.locator("#poll-text")).to_contain_text("Tap the square the knight goes to next")
    click_square(first, square // 5, square % 5)
    expect(page.locator("#poll-text")).to_have_text(
        "Question 1 of 1: 1 answer so far. Students following when it was asked: 1."
    )
    click_square(second, square // 5, square % 5)
    expect(second.locator("#poll-text")).to_contain_text("answered this question already")
    # And a reload of a tab is the same student still, with the answer it gave.
    second.reload()
    second.wait_for_function(FOLLOWING)
    expect(second.locator("#poll-text")).to_contain_text(f"Your answer: {square_name(square, 5, 5)}")
    expect(page.locator("#poll-text")).to_have_text(
        "Question 1 of 1: 1 answer so far. Students following when it was asked: 1."
    )
    page.get_by_role("button", name="Reveal").click()
    expect(page.locator("#poll-text")).to_have_text(
        "100% had it right (1 of 1 answer). Students following when it was asked: 1."
    )


def test_a_student_s_board_holds_still_through_a_question_and_marks_the_answer(instructor, open_page, site):
    page = instructor
    # The class link breaks only between its parts: each but the ticket on one line.
    parts = page.locator("#lead-link .link-part")
    assert [
        parts.nth(i).evaluate("(el) => el.getClientRects().length") for i in range(parts.count() - 1)
    ] == [1] * (parts.count() - 1)
    # A greyed-out Ask says why; a run to ask about lets it be pressed.
    expect(page.locator("#poll-ask")).to_be_disabled()
    expect(page.locator("#poll-why")).to_have_text(
        "Press Play or Step first: a question is about the next move of a run."
    )
    code = page.locator("#lead-code").inner_text()
    student = open_page(f"/?class={code}", until=FOLLOWING, viewport={"width": 390, "height": 844})
    events = step_events(page, 2)
    expect(page.locator("#poll-why")).to_be_hidden()
    # The key under the board names Warnsdorff's rule only for an ordering that follows it.
    expect(page.locator("#hint-key-text")).to_have_text(
        "Dashed box: a move still to try. Big number: its onward moves. #n: its turn."
    )
    student.wait_for_function(f"() => knightsTour.model.events === {events}")
    before = student.locator("#board").bounding_box()
    page.get_by_role("button", name="Ask the class").click()
    # The box's title asks the question; its line says what to do, once.
    expect(student.locator("#poll-text")).to_have_text(
        "Tap the square the knight goes to next (or the square it backs up to)."
    )
    assert student.evaluate(PLACEHOLDER_FITS), "the answer field's placeholder is cut off"
    assert student.locator("#board").bounding_box() == before, "the board moved as the question came"
    wrong = next(s for s in free_squares(page) if s != next_square(site))
    click_square(student, wrong // 5, wrong % 5)
    expect(student.locator("#poll-text")).to_have_text(WAITING)
    # The square tapped is marked on the student's board until the reveal.
    assert student.evaluate("() => knightsTour.overlay().answers") == {
        "heat": None,
        "right": -1,
        "chosen": wrong,
    }
    assert wait_for_pixels(student, MY_ANSWER, 50), "the answer given is not marked on the board"
    assert student.locator("#board").bounding_box() == before, "the board moved as the student answered"
    press(page.get_by_role("button", name="Reveal"))
    expect(student.locator("#poll-text")).to_contain_text(f"you said {square_name(wrong, 5, 5)}")
    assert student.locator("#board").bounding_box() == before, "the board moved at the reveal"


def test_the_instructor_sees_how_many_students_follow_before_any_question(instructor, open_page):
    page = instructor
    counted = page.locator("#lead-students")
    expect(counted).to_have_text("Students following: 0")
    code = page.locator("#lead-code").inner_text()
    first = open_page(f"/?class={code}", until=FOLLOWING)
    expect(counted).to_have_text("Students following: 1")
    second = open_page(f"/?class={code}", until=FOLLOWING)
    expect(counted).to_have_text("Students following: 2")
    page.get_by_role("button", name="Presenter view").click()
    expect(page.locator("#presenter-students")).to_have_text("Students following: 2")
    second.get_by_role("button", name="Leave the class").click()
    expect(page.locator("#presenter-students")).to_have_text("Students following: 1")
    first.close()
    expect(page.locator("#presenter-students")).to_have_text("Students following: 0")
    assert page.locator("#poll-text").is_hidden(), "no question was asked"


def test_the_reveal_after_a_backtrack_reads_over_the_dead_end(instructor, open_page, site):
    page = instructor
    code = page.locator("#lead-code").inner_text()
    student = open_page(f"/?class={code}", until=FOLLOWING)
    # Naive 5x5 from a5: event 13 is the first backtrack, the move the question asks about.
    events = step_events(page, 12)
    student.wait_for_function(f"() => knightsTour.model.events === {events}")
    page.get_by_role("button", name="Presenter view").click()
    page.get_by_role("button", name="Ask the class").click()
    right = next_square(site)
    expect(student.locator("#poll-text")).to_contain_text("Tap the square the knight goes to next")
    click_square(student, right // 5, right % 5)
    expect(page.locator("#poll-text")).to_contain_text("1 answer so far")
    page.get_by_role("button", name="Reveal").click()
    assert wait_for_pixels(page, RIGHT_RING, 50), "the right square is not ringed on the projector"
    frames_pass(page, 400)
    page.screenshot(path=artifact("class_backtrack_revealed.png"))
    page.wait_for_function(f"() => knightsTour.model.events === {events + 1}")
    assert page.evaluate("() => knightsTour.model.backtracks") == 1, "the move revealed is a backtrack"
    assert page.evaluate("() => knightsTour.overlay().answers") is not None, "the reveal still shows"
    assert pixels(page, DEAD_END) < 20, "the dead end's marks lie over the reveal"
