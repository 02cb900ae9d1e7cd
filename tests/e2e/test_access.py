"""What the user must know is in sight, and a screen reader hears the position as it changes."""

import re

from playwright.sync_api import expect

from server.engine.graph import knight_graph
from tests.support.page import READY, square_name, step_events

SCREENS = [(390, 844), (1280, 800), (1920, 1080)]  # phone, laptop, projector


def before(page, a, b):
    """Tell whether locator a's element comes before locator b's in the document."""
    return page.evaluate(
        "([a, b]) => Boolean(a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING)",
        [a.element_handle(), b.element_handle()],
    )


def test_a_hopeless_start_is_said_in_the_status_in_sight(page, site):
    page.goto(f"{site.url}/?rows=5&cols=5&start=1")  # b5: the colour no 5x5 tour starts on
    page.wait_for_function(READY)
    for width, height in SCREENS:
        page.set_viewport_size({"width": width, "height": height})
        status = page.get_by_role("status")
        expect(status).to_contain_text("No tour from this square")
        expect(status, f"the status is out of sight at {width}x{height}").to_be_in_viewport()


def test_the_board_and_search_settings_come_before_the_counters_and_the_class(page):
    counters = page.get_by_text("Visits", exact=True)
    klass = page.get_by_role("group", name="Class")
    for name in ("Rows", "Columns", "Start square", "Ordering"):
        setting = page.get_by_label(name, exact=True)
        assert before(page, setting, counters), f"{name} comes after the counters"
        assert before(page, setting, klass), f"{name} comes after the class"


def test_the_hint_boxes_come_with_their_key_in_sight(page):
    step_events(page, 1)
    page.wait_for_function("() => knightsTour.overlay().hints.length > 0")
    key = page.get_by_text(re.compile("move still to try", re.I)).filter(visible=True)
    expect(key, "no key to the hint boxes is shown").not_to_have_count(0)
    expect(key.first).to_be_in_viewport()


def test_a_screen_reader_hears_the_position_change(page):
    board = page.locator("#board")
    labels = [board.get_attribute("aria-label")]
    graph = knight_graph(5, 5)
    for _ in range(3):
        step_events(page, 1)
        path = page.evaluate("() => knightsTour.model.path")
        here = square_name(path[-1], 5, 5)
        expect(board, "the board's description does not follow the knight").to_have_attribute(
            "aria-label", re.compile(rf"\b{here}\b")
        )
        labels.append(board.get_attribute("aria-label"))
    assert len(set(labels)) == len(labels)
    # The position as text: the path, the knight's square and the moves left from it.
    page.get_by_text("The position as text").click()
    text = page.get_by_text(re.compile(r"^Path: "))
    expect(text).to_contain_text(" ".join(square_name(s, 5, 5) for s in path))
    expect(text).to_contain_text(f"The knight is on {here}")
    free = [square_name(w, 5, 5) for w in graph.neighbors(path[-1]) if w not in path]
    shown = text.inner_text().rsplit(":", 1)[1]
    assert sorted(re.findall(r"[a-e][1-5]", shown)) == sorted(free)
