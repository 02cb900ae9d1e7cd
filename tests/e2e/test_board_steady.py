"""The board holds still during a run: its box keeps its size and no frame shows it empty, on a
phone, a laptop and a projector, alone, in the race and in presenter view."""

import pytest
from playwright.sync_api import expect

from server.classes.registry import classes
from tests.support.page import end_class, rendered, start_class
from tests.support.steady import IDS, READY, RUN, WATCH
from tests.support.waiting import wait_for

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
PROJECTOR = {"width": 1920, "height": 1080}

# Enough of the run to pass many dead ends (where the hints go) and the frames that follow them.
ENOUGH = "([events, frames]) => knightsTour.model.events >= events && window.steady.frames >= frames"


def watch_a_run(page, events=240, frames=60):
    """Play, watch the boards from the first event until events events and frames frames have
    passed; return what was seen."""
    page.get_by_role("button", name="Play").click()
    page.wait_for_function("() => knightsTour.model.events > 0")
    page.evaluate(WATCH, IDS)
    page.wait_for_function(READY, arg=len(IDS))
    page.wait_for_function(ENOUGH, arg=[events, frames], timeout=60_000)
    page.get_by_role("button", name="Pause").click()
    return page.evaluate("() => window.steady")


def assert_steady(seen):
    resized = {name: n for name, n in seen["resizes"].items() if n}
    assert seen["frames"] > 0
    assert (resized, seen["empty"]) == ({}, 0), (
        f"resizes during the run: {resized}; {seen['empty']} of {seen['frames']} frames showed an empty board"
    )


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP, PROJECTOR], ids=["390", "1280", "1920"])
@pytest.mark.parametrize("mode", ["board", "race"])
def test_the_board_neither_resizes_nor_blanks_during_a_run(open_page, viewport, mode):
    page = open_page(f"/?{RUN}&mode={mode}", viewport=viewport)
    assert_steady(watch_a_run(page))


@pytest.fixture
def instructor(open_page, site):
    """Return instructor(path, viewport): a page that leads a class; end each after."""
    led = []

    def instructor(path, viewport):
        page = open_page(path, viewport=viewport)
        start_class(page)
        led.append(page)
        return page

    yield instructor
    for page in led:
        end_class(page)
    assert wait_for(lambda: len(classes(site.app)) == 0, 5), "a class outlived its end"


@pytest.mark.parametrize("viewport", [LAPTOP, PROJECTOR], ids=["1280", "1920"])
def test_the_board_holds_still_in_presenter_view(instructor, viewport):
    page = instructor(f"/?{RUN}", viewport)
    page.get_by_role("button", name="Presenter view").click()
    expect(page.locator("#presenter-bar")).to_be_visible()
    assert_steady(watch_a_run(page))


def test_a_board_resized_during_a_run_is_never_shown_empty(open_page):
    # A window dragged wider and narrower: the canvas is re-sized and must be painted in that frame.
    page = open_page(f"/?{RUN}", viewport=LAPTOP)
    page.get_by_role("button", name="Play").click()
    page.wait_for_function("() => knightsTour.model.events > 0")
    page.evaluate(WATCH, IDS)
    page.wait_for_function(READY, arg=len(IDS))
    for resized, width in enumerate([1100, 1000, 1180, 1280], start=1):
        page.set_viewport_size({"width": width, "height": LAPTOP["height"] - 10 * resized})
        page.wait_for_function("(n) => window.steady.resizes.board >= n", arg=resized)
        later = page.evaluate("() => window.steady.frames + 3")
        page.wait_for_function("(n) => window.steady.frames >= n", arg=later)
    page.get_by_role("button", name="Pause").click()
    seen = page.evaluate("() => window.steady")
    assert seen["empty"] == 0, f"{seen['empty']} of {seen['frames']} frames showed an empty board"


# The top of each control, every animation frame, and each distinct one seen.
CONTROLS_WATCH = """(ids) => {
  const seen = Object.fromEntries(ids.map((id) => [id, new Set()]));
  const tick = () => {
    for (const id of ids) seen[id].add(Math.round(document.getElementById(id).getBoundingClientRect().top));
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  window.controlTops = () => Object.fromEntries(ids.map((id) => [id, [...seen[id]]]));
}"""


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP, PROJECTOR], ids=["390", "1280", "1920"])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_controls_stay_under_the_pointer_while_stepping_back_and_forth(open_page, viewport, lang):
    page = open_page("/?rows=5&cols=5&speed=30", viewport=viewport)
    page.select_option("#language", lang)
    step, back = page.locator("#step"), page.locator("#back")
    for events in range(1, 6):
        step.click()
        page.wait_for_function(f"() => knightsTour.model.events === {events}")
    page.evaluate(CONTROLS_WATCH, ["step", "back", "play"])
    # The status says "stepped back to event n", then "at event n of 5": neither moves a button.
    for events in (4, 3, 2):
        back.click()
        page.wait_for_function(f"() => knightsTour.model.events === {events}")
    for events in (3, 4, 5):
        step.click()
        page.wait_for_function(f"() => knightsTour.model.events === {events}")
    rendered(page, frames=2)
    tops = page.evaluate("() => window.controlTops()")
    assert all(len(each) == 1 for each in tops.values()), f"the controls moved while stepping: {tops}"
