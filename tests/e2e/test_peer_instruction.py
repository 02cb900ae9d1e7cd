"""A two-round question in real browsers: an instructor and four students, round 1, the discussion,
round 2, then the reveal on the projector with both rounds, the shift and how sure, and the CSV."""

import re

from playwright.sync_api import expect

from tests.support.page import FOLLOWING, artifact, click_square, frames_pass, square_name, step_events
from tests.support.questions import free_squares, next_square, open_answer, results_csv

PHONE = {"width": 390, "height": 844}


def following(page, open_page, n, steps):
    """Have n students follow the instructor's class (the first on a phone), then step its run
    `steps` events and wait until every student's board has them; return their pages."""
    code = page.locator("#lead-code").inner_text()
    sizes = [{"viewport": PHONE}] + [{}] * (n - 1)
    students = [open_page(f"/?class={code}", until=FOLLOWING, **size) for size in sizes]
    events = step_events(page, steps)
    for student in students:
        student.wait_for_function(f"() => knightsTour.model.events === {events}")
    return students


def tap(student, square, sure=None):
    """Answer with a square on the board, saying first how sure (None: not said)."""
    if sure is not None:
        student.locator("#poll-sure").get_by_label("not sure" if not sure else "sure", exact=True).check()
    click_square(student, square // 5, square % 5)


def test_two_rounds_with_a_discussion_show_the_shift_and_how_sure_on_the_projector(
    instructor, open_page, site
):
    page = instructor
    students = following(page, open_page, 4, 3)
    page.get_by_label("two rounds, with a discussion between").check()
    page.get_by_label("ask how sure").check()
    page.get_by_role("button", name="Presenter view").click()
    page.get_by_role("button", name="Ask the class").click()
    counting = (
        "Question 1 of 1, round 1 (each on their own): {} so far. Students following when it was asked: 4."
    )
    expect(page.locator("#poll-text")).to_have_text(counting.format("0 answers"))
    # On the phone each choice of how sure is one line: "not sure" as tall as "sure".
    phone = students[0].locator("#poll-sure")
    expect(phone).to_be_visible()
    heights = [phone.locator("label").nth(i).bounding_box()["height"] for i in (0, 1)]
    assert abs(heights[0] - heights[1]) < 2, f"the choices of how sure are {heights} px tall on a phone"
    right = next_square(site)
    wrong = next(s for s in free_squares(page) if s != right)
    name = {right: square_name(right, 5, 5), wrong: square_name(wrong, 5, 5)}

    # Round 1: two right, two wrong; the last student does not say how sure.
    first = (right, right, wrong, wrong)
    for student, square, sure in zip(students, first, (True, True, True, None), strict=True):
        expect(student.locator("#poll-text")).to_contain_text("Round 1, on your own")
        tap(student, square, sure)
        expect(student.locator("#poll-text")).to_have_text(
            f"Your first answer: {name[square]}. A discussion comes next: keep it to yourself for now."
        )
    expect(page.locator("#poll-text")).to_have_text(counting.format("4 answers"))
    assert page.evaluate("() => knightsTour.overlay().answers") is None, "nobody sees round 1's answers"

    page.get_by_role("button", name="Discuss with your neighbour").click()
    expect(page.locator("#poll-text")).to_have_text(
        "4 students answered round 1. The class discusses with their neighbours: press Second round "
        "when they are ready. Students following when it was asked: 4."
    )
    for student, square in zip(students, first, strict=True):
        expect(student.locator("#poll-text")).to_have_text(
            "Discuss with your neighbour: where does the knight go next, and why? "
            f"Your first answer: {name[square]}."
        )
        expect(student.locator("#poll-square")).to_be_disabled()
    # A soft timer for the discussion: everyone sees it count down; it closes nothing.
    page.get_by_role("button", name="Soft timer: 1 minute").click()
    for each in (page, *students):
        expect(each.locator("#poll-clock")).to_have_text(
            re.compile(r"^About (60|59|58) seconds left to think\. Nothing closes when it ends\.$")
        )

    page.get_by_role("button", name="Second round").click()
    # Round 2: three right; the second student changes from right to wrong, and is not sure.
    second = (right, wrong, right, right)
    for student, was, square, sure in zip(students, first, second, (True, False, True, False), strict=True):
        expect(student.locator("#poll-text")).to_have_text(
            f"Round 2: answer again, after the discussion. Your first answer was {name[was]}."
        )
        tap(student, square, sure)
        expect(student.locator("#poll-text")).to_have_text(
            f"Your second answer: {name[square]} (first: {name[was]}). Waiting for the reveal…"
        )
    expect(page.locator("#poll-text")).to_contain_text("round 2: 4 answers so far.")

    page.get_by_role("button", name="Reveal").click()
    expect(page.locator("#poll-text")).to_have_text(
        "Round 1: 50% right (2 of 4). Round 2: 75% right (3 of 4)."
    )
    expect(page.locator("#poll-detail")).to_have_text(
        "From wrong to right: 2. From right to wrong: 1. Right answers: 2 sure, 1 not sure. "
        "Wrong answers: 0 sure, 1 not sure. Students following when it was asked: 4."
    )
    shift = page.get_by_role("list", name="How answers moved from round 1 to round 2:")
    expect(shift.get_by_role("listitem")).to_have_text(
        [f"{name[wrong]} → {name[right]}: 2 students", f"{name[right]} → {name[wrong]}: 1 student"]
    )
    answers = page.evaluate("() => knightsTour.overlay().answers")
    assert answers["heat"] == sorted([[right, 3], [wrong, 1]]), "the heatmap shows round 2"
    expect(students[1].locator("#poll-text")).to_have_text(
        f"The knight went to {name[right]}; you said {name[wrong]}. 75% of the class had it. "
        f"You said {name[right]}, then {name[wrong]}. The class: 50% right in round 1, 75% in round 2."
    )
    expect(students[2].locator("#poll-text")).to_have_text(
        f"Right: the knight went to {name[right]}. 75% of the class had it. "
        f"You said {name[wrong]}, then {name[right]}. The class: 50% right in round 1, 75% in round 2."
    )
    frames_pass(page, 400)  # the knight has landed
    page.screenshot(path=artifact("peer_revealed_projector.png"))
    students[0].screenshot(path=artifact("peer_revealed_phone.png"))

    page.get_by_role("button", name="Leave presenter view").click()
    (row,) = results_csv(page)
    assert (row["rounds"], row["answered"], row["right"], row["share_right"]) == ("2", "4", "3", "0.750")
    assert (row["round1_answered"], row["round1_right"], row["round1_share_right"]) == ("4", "2", "0.500")
    moved = [row[key] for key in ("right_to_right", "wrong_to_right", "right_to_wrong", "wrong_to_wrong")]
    assert moved == ["1", "2", "1", "0"]
    sure = [row[key] for key in ("sure_right", "unsure_right", "unsaid_right", "sure_wrong", "unsure_wrong")]
    assert sure == ["2", "1", "0", "0", "1"]
    assert row["moved"] == f"{name[wrong]}>{name[right]}:2 {name[right]}>{name[wrong]}:1"


def test_a_question_asked_again_mirrored_shows_the_turned_board_and_both_shares(instructor, open_page, site):
    page = instructor
    students = following(page, open_page, 2, 4)
    asked = page.evaluate("() => knightsTour.model.path")  # the position the question is about
    page.get_by_role("button", name="Ask the class").click()
    right = next_square(site)
    wrong = next(s for s in free_squares(page) if s != right)
    for student, square in zip(students, (right, wrong), strict=True):
        expect(student.locator("#poll-text")).to_contain_text("Tap the square the knight goes to next")
        tap(student, square)
    page.get_by_role("button", name="Reveal").click()
    expect(page.locator("#poll-text")).to_contain_text("50% had it right (1 of 2 answers).")

    page.get_by_role("button", name="Ask it again mirrored").click()
    mirrored = [row * 5 + 4 - col for row, col in (divmod(square, 5) for square in asked)]
    for each in (page, *students):
        expect(each.locator("#board")).to_have_attribute(
            "aria-label", re.compile(r"^The same position, mirrored")
        )
        label = each.locator("#board").get_attribute("aria-label")
        assert f"The knight is on {square_name(mirrored[-1], 5, 5)} after {len(mirrored)} squares" in label, (
            label
        )
    expect(students[0].locator("#poll-text")).to_contain_text(
        "The same position, mirrored (left and right swapped)."
    )
    turned_right = open_answer(site)
    for student in students:
        tap(student, turned_right)
    page.get_by_role("button", name="Reveal").click()
    expect(page.locator("#poll-text")).to_have_text(
        "The same position, mirrored (left and right swapped). 100% had it right (2 of 2 answers). "
        "As first asked: 50% right. Students following when it was asked: 2."
    )
    expect(students[1].locator("#poll-text")).to_have_text(
        f"The same position, mirrored (left and right swapped). Right: here the search would go to "
        f"{square_name(turned_right, 5, 5)}. 100% of the class had it. As first asked: 50% right."
    )
    answers = page.evaluate("() => knightsTour.overlay().answers")
    assert answers["heat"] == [[turned_right, 2]] and answers["right"] == turned_right
    # The run has not moved: its path is the one asked about and the move revealed.
    page.wait_for_function("(path) => knightsTour.model.path.join() === path.join()", arg=[*asked, right])
    expect(page.locator("#dead-end")).to_have_text(
        "The board shows the same position turned; this call stack is the run's own, unturned."
    )
    page.screenshot(path=artifact("transfer_revealed_projector.png"))
    students[0].screenshot(path=artifact("transfer_revealed_phone.png"))
    # The next step of the run brings back its own board.
    page.get_by_role("button", name="Step", exact=True).click()
    for each in (page, *students):
        expect(each.locator("#board")).not_to_have_attribute("aria-label", re.compile("mirrored"))
