"""The instructor's board keeps its box through every stage of a question, on a laptop and on a
projector, in presenter view and in the full page: the class reads a board that never jumps."""

import pytest
from playwright.sync_api import expect

from tests.support.page import (
    FOLLOWING,
    artifact,
    click_square,
    laid_out,
    open_tournament,
    rendered,
    step_events,
)
from tests.support.questions import free_squares, next_square

SIZES = [{"width": 1280, "height": 800}, {"width": 1920, "height": 1080}]


def board_box(page):
    """Return the instructor's board's box, once the page has rendered what it has."""
    rendered(page)
    box = laid_out(page)
    return tuple(round(box[k]) for k in ("x", "y", "width", "height"))


@pytest.mark.parametrize("presenter", [True, False], ids=["presenter", "full-page"])
@pytest.mark.parametrize("viewport", SIZES, ids=lambda v: f"{v['width']}x{v['height']}")
def test_the_board_keeps_its_box_through_every_stage_of_a_question(
    instructor, open_page, site, viewport, presenter
):
    page = instructor
    page.set_viewport_size(viewport)
    code = page.locator("#lead-code").inner_text()
    student = open_page(f"/?class={code}", until=FOLLOWING)
    events = step_events(page, 3)
    student.wait_for_function(f"() => knightsTour.model.events === {events}")
    page.get_by_label("two rounds, with a discussion between").check()
    page.get_by_label("ask how sure").check()
    open_tournament(page)
    expect(page.locator("#tournament-status")).to_contain_text("entries are open")
    page.locator("#tournament > summary").click()  # folded, until its stage
    if presenter:
        page.get_by_role("button", name="Presenter view").click()
    boxes = {"before": board_box(page)}

    def stage(name, button, then=lambda: None):
        page.get_by_role("button", name=button).click()
        then()
        boxes[name] = board_box(page)

    right = next_square(site)
    wrong = next(s for s in free_squares(page) if s != right)

    def answer(square):
        def answered():
            expect(student.locator("#poll-square")).to_be_enabled()  # the question has reached them
            click_square(student, square // 5, square % 5)
            expect(page.locator("#poll-text")).to_contain_text("1 answer")

        return answered

    stage("round 1", "Ask the class", answer(wrong))
    stage("discussion", "Discuss with your neighbour")
    stage("timer", "Soft timer: 1 minute", lambda: expect(page.locator("#poll-clock")).not_to_be_empty())
    stage("round 2", "Second round", answer(right))
    stage("reveal", "Reveal", lambda: expect(page.locator("#poll-text")).to_contain_text("Round 2"))
    view = "presenter" if presenter else "page"
    page.screenshot(path=artifact(f"question-revealed-{view}-{viewport['width']}.png"))
    stage("asked again", "Ask it again mirrored")
    stage("cancelled", "Cancel the question")
    # The tournament's standings unfolded and folded (in presenter view, in the lesson's column).
    for name in ("standings", "standings folded"):
        page.locator("#tournament > summary").click()
        boxes[name] = board_box(page)
    moved = {
        name: box
        for name, box in boxes.items()
        if any(abs(a - b) > 4 for a, b in zip(box, boxes["before"], strict=True))
    }
    assert moved == {}, f"the board's box was {boxes['before']} (x, y, width, height) before the question"
