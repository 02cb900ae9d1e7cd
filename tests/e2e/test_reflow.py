"""Reflow (WCAG 1.4.10): at 320 CSS pixels wide, and at 640 (a 1280 pixel window zoomed to 200%),
the page loses nothing: no sideways scrolling of the page, and no text cut off or spilling out of
its box, on a student's own search and in a class with a question open and a tournament."""

import re

import pytest
from playwright.sync_api import expect

from server.classes.registry import classes
from tests.support.page import FOLLOWING, open_tournament, start_class, step_events
from tests.support.waiting import wait_for

# Every element whose text a user reads (as test_lessons.py checks at its widths), and the class's parts.
CUT = """() => [...document.querySelectorAll(
      'button, dd, .lane-caption, .status, label, legend, .poll-text, .note, .tournament-mine, h2, summary')]
    .filter((el) => el.offsetParent && !el.matches('.sr-only') && el.scrollWidth > el.clientWidth + 1)
    .map((el) => el.id || el.textContent.trim().slice(0, 40))"""


def loses_nothing(page, state):
    """Check the page does not scroll sideways and shows every text whole."""
    wide = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    assert wide <= 0, f"{state}: the page scrolls {wide} px sideways"
    assert page.evaluate(CUT) == [], f"{state}: text cut off"


@pytest.mark.parametrize("width", [320, 640])
def test_a_narrow_or_zoomed_window_loses_nothing(open_page, site, width):
    viewport = {"width": width, "height": 720}
    alone = open_page("/?rows=5&cols=5&order=naive&speed=60", viewport=viewport)
    loses_nothing(alone, "the start")
    step_events(alone, 13)  # past the first backtrack
    loses_nothing(alone, "after a backtrack")

    teacher = open_page("/?rows=5&cols=5&order=naive&speed=1", viewport={"width": 1280, "height": 900})
    code = start_class(teacher)
    student = open_page(f"/?class={code}", until=FOLLOWING, viewport=viewport)
    step_events(teacher, 2)
    student.wait_for_function("() => knightsTour.model.events === 2")
    teacher.locator("#poll-ask").click()
    expect(student.locator("#poll")).to_have_attribute("data-open", "true")
    loses_nothing(student, "a question open")
    teacher.locator("#poll-cancel").click()
    open_tournament(teacher, largest=8)
    expect(student.locator("#tournament")).to_have_attribute("open", "")
    student.locator("#tournament-name").fill("Ada Lovelace-Byron")
    student.locator("#tournament-enter").click()
    expect(student.locator("#tournament-mine")).to_have_text(re.compile(r"^You are 1 of 1"))
    loses_nothing(student, "the tournament")
    teacher.locator("#class-end").click()
    assert wait_for(lambda: len(classes(site.app)) == 0, 5), "the class outlived its end"
