"""The presenter view: board, lesson, counters and the class's link, code and QR code, on any projector."""

import re

import pytest
from playwright.sync_api import expect

from server.classes.registry import classes
from tests.support.page import FASTEST, artifact, caught_up, set_board, step_events
from tests.support.qr import encodes
from tests.support.waiting import wait_for

PUBLIC = "http://198.51.100.7:5000"  # a documentation address (RFC 5737): nothing is sent to it
# What the presenter view keeps on screen, by element id.
KEPT = ["board", "code", "stack", "chart", "status", "play", "speed", "visits", "backtracks", "depth"]
KEPT += ["events", "presenter-link", "presenter-code", "presenter-qr", "presenter-exit"]
KEPT += ["tree-picture", "tree-explored"]

# {id: its box} of the elements ids, and the window's size.
BOXES = """(ids) => ({
  boxes: Object.fromEntries(ids.map((id) => {
    const box = document.getElementById(id).getBoundingClientRect();
    return [id, box.toJSON()];
  })),
  width: innerWidth, height: innerHeight,
})"""
# The type sizes presenting changes, and whether the page scrolls or the code is cut off.
LOOKS = """() => ({
  root: parseFloat(getComputedStyle(document.documentElement).fontSize),
  code: parseFloat(getComputedStyle(document.getElementById('code')).fontSize),
  scrolls: document.documentElement.scrollHeight > innerHeight
    || document.documentElement.scrollWidth > innerWidth,
  codeCut: document.getElementById('code').scrollWidth > document.getElementById('code').clientWidth,
})"""
QR_SHOWN = "(img) => img.complete && img.naturalWidth > 0"
# (presenting) => whether the page is in (or out of) presenter view and the board has been fitted
# to its box as the layout left it: as wide or as tall as the box, but for its cells' rounding.
FITTED = """(presenting) => {
  const board = document.getElementById('board').getBoundingClientRect();
  const box = document.getElementById('board-box');
  const slack = 1 + Math.max(knightsTour.model.rows, knightsTour.model.cols);
  const within = board.width <= box.clientWidth + 1 && board.height <= box.clientHeight + 1;
  const fills = box.clientWidth - board.width < slack || box.clientHeight - board.height < slack;
  return document.body.dataset.presenter === String(presenting) && within && fills;
}"""


@pytest.fixture
def site(serve):
    """Serve a fresh app whose students join at PUBLIC, as `python -m server --public-url` gives."""
    return serve({"PUBLIC_URL": PUBLIC})


@pytest.fixture
def instructor(open_page, site):
    """Return instructor(viewport, scale=1): a page that has started a class, and its code; end each after."""
    led, problems = [], []

    def instructor(viewport, scale=1):
        page = open_page(viewport=viewport, device_scale_factor=scale)
        page.on("pageerror", lambda exc: problems.append(str(exc)))
        page.on("console", lambda msg: msg.type == "error" and problems.append(msg.text))
        page.get_by_role("button", name="Start a class").click()
        expect(page.locator("#lead-code")).to_have_text(re.compile(r"^[A-Z2-9]{7}$"))
        led.append(page)
        return page, page.locator("#lead-code").inner_text()

    yield instructor
    for page in led:
        if page.locator("#presenter-bar").is_visible():
            page.get_by_role("button", name="Leave presenter view").click()
        page.get_by_role("button", name="End class").click()
    assert wait_for(lambda: len(classes(site.app)) == 0, 5), "a class outlived its end"
    assert problems == []


def mid_search(page, site):
    """Pause a naive 6x6 search at a dead end, where the lesson panels are at their longest."""
    set_board(page, 6, 6)
    page.get_by_label("Speed").fill("13")  # 10,000 moves a second
    page.get_by_role("button", name="Play").click()
    page.wait_for_function("() => knightsTour.model.events > 300")
    page.get_by_role("button", name="Pause").click()
    caught_up(page, site)
    for _ in range(60):
        if page.locator("#dead-end").inner_text():
            break
        step_events(page)
    expect(page.locator("#dead-end")).not_to_be_empty()


def test_the_class_link_and_its_qr_code_give_the_address_students_reach(instructor):
    page, code = instructor({"width": 1280, "height": 800})
    link = f"{PUBLIC}/?class={code}"
    # The link to copy and the QR code carry the class's ticket; the one to type does not.
    ticket = page.evaluate("() => knightsTour.store.klass.ticket")
    assert re.fullmatch(r"[\w-]{8}\.[\w-]{32}", ticket)
    expect(page.locator("#lead-link")).to_have_text(f"{link}&ticket={ticket}")
    page.get_by_role("button", name="Presenter view").click()
    expect(page.locator("#presenter-link")).to_have_text(link)
    expect(page.locator("#presenter-code")).to_have_text(code)
    qr = page.locator("#presenter-qr")
    qr.wait_for()
    assert qr.get_attribute("src") == f"/class/{code}/qr.svg?ticket={ticket}"
    page.wait_for_function(QR_SHOWN, arg=qr.element_handle())
    # The picture the page shows is the one of the link it copies (fetched as the page did).
    picture = page.request.get(qr.evaluate("(img) => img.src"))
    assert picture.ok and picture.headers["content-type"].startswith("image/svg+xml")
    assert encodes(picture.text(), f"{link}&ticket={ticket}")
    assert not encodes(picture.text(), f"{page.url.split('/?')[0]}/?class={code}&ticket={ticket}")


SCREENS = [
    pytest.param({"width": 1920, "height": 1080}, 1, id="1080p"),
    pytest.param({"width": 1280, "height": 720}, 1, id="720p"),
    pytest.param({"width": 1920, "height": 1080}, 2, id="4k-at-200%"),
    pytest.param({"width": 2560, "height": 1440}, 1.5, id="4k-at-150%"),
]


@pytest.mark.parametrize(("viewport", "scale"), SCREENS)
def test_presenter_view_keeps_the_lesson_on_screen_and_readable(instructor, site, viewport, scale):
    page, code = instructor(viewport, scale)
    mid_search(page, site)
    before = page.evaluate(LOOKS)
    board_before = page.locator("#board").bounding_box()

    page.get_by_role("button", name="Presenter view").click()
    expect(page.locator("#presenter-code")).to_have_text(code)
    page.wait_for_function(QR_SHOWN, arg=page.locator("#presenter-qr").element_handle())
    page.wait_for_function(FITTED, arg=True)  # on the frames after the layout changes
    shown = page.evaluate(BOXES, KEPT)
    width, height, boxes = shown["width"], shown["height"], shown["boxes"]
    for name, box in boxes.items():
        assert box["width"] > 0 and box["height"] > 0, f"{name} is not shown"
        assert box["left"] >= -1 and box["top"] >= -1, f"{name} is off screen: {box}"
        assert box["right"] <= width + 1 and box["bottom"] <= height + 1, f"{name} is off screen: {box}"
    looks = page.evaluate(LOOKS)
    assert not looks["scrolls"] and not looks["codeCut"], looks
    # Type follows the screen: the code is as tall for its height as 24 px are for 1080 lines.
    assert looks["code"] >= 24 * height / 1080, f"the code is {looks['code']} px on a {width}x{height} screen"
    board, qr = boxes["board"], boxes["presenter-qr"]
    assert board["height"] >= 0.8 * height, f"the board is {board['height']} px of {height}"
    # The picture keeps its shape inside its box; 14% of 1920 px is about 40 cm on a 3 m screen.
    side = min(qr["width"], qr["height"])
    assert side >= 0.14 * width, f"the QR code is {side} px wide on a {width} px screen"
    for name in ("code", "presenter-qr", "status"):
        other = boxes[name]
        assert board["right"] <= other["left"] or board["left"] >= other["right"], f"the board covers {name}"
    expect(page.locator(".bar")).to_be_hidden()
    expect(page.get_by_label("Rows", exact=True)).to_be_hidden()
    page.screenshot(path=artifact(f"presenter_{width}x{height}_at_{scale}.png"))

    page.get_by_role("button", name="Leave presenter view").click()
    expect(page.locator("#presenter-bar")).to_be_hidden()
    expect(page.locator(".bar")).to_be_visible()
    expect(page.get_by_label("Rows", exact=True)).to_be_visible()
    page.wait_for_function(FITTED, arg=False)
    assert page.evaluate(LOOKS) == before
    assert page.locator("#board").bounding_box() == board_before


def race_presented(instructor, viewport):
    """Return an instructor's page that has run a 6x6 race to its end in presenter view."""
    page, _ = instructor(viewport)
    page.get_by_label("Race two orderings").check()
    set_board(page, 6, 6)
    page.get_by_role("button", name="Presenter view").click()
    page.get_by_label("Speed").fill(FASTEST)
    page.get_by_role("button", name="Play").click()
    page.wait_for_function("() => knightsTour.state === 'finished'", timeout=60_000)
    return page


def test_presenter_view_of_a_race_keeps_both_trees_and_the_class_link_in_sight(instructor):
    page = race_presented(instructor, {"width": 1920, "height": 1080})
    expect(page.locator("#tree-parting-text")).not_to_be_empty()
    ids = ["board", "board-second", "tree-picture", "tree-picture-second", "tree-parting"]
    ids += ["presenter-exit", "status"]
    shown = page.evaluate(BOXES, ids)
    boxes = shown["boxes"]
    for name, box in boxes.items():
        assert box["width"] > 0 and box["height"] > 0, f"{name} is not shown"
        within = box["right"] <= shown["width"] + 1 and box["bottom"] <= shown["height"] + 1
        assert within, f"{name} is off screen: {box}"
    # The race's long status stays under the button that leaves presenter view, not over it.
    assert boxes["presenter-exit"]["bottom"] <= boxes["status"]["top"], boxes
    # Both boards are drawn alike: the projector's contrast is the race's, not one side's.
    looks = page.evaluate(
        "() => ['board', 'board-second'].map((id) => getComputedStyle(document.getElementById(id)).filter)"
    )
    assert looks[0] == looks[1] != "none", looks
    page.screenshot(path=artifact("presenter_race_1920x1080.png"))


def test_on_a_phone_a_races_captions_are_whole_above_the_status(instructor):
    page = race_presented(instructor, {"width": 390, "height": 844})
    # The naive board's caption is the longest: four lines at this width.
    expect(page.locator("#caption-main")).to_contain_text("backtracks")
    boxes = page.evaluate(BOXES, ["caption-main", "caption-second", "status"])["boxes"]
    for caption in ("caption-main", "caption-second"):
        assert boxes[caption]["bottom"] <= boxes["status"]["top"], boxes
    page.locator("#board").scroll_into_view_if_needed()
    page.screenshot(path=artifact("presenter_race_390x844.png"))


def test_the_qr_code_fills_the_screen_for_the_back_of_the_room(instructor):
    page, code = instructor({"width": 1920, "height": 1080})
    page.get_by_role("button", name="Presenter view").click()
    large = page.locator("#presenter-qr-large")
    expect(large).to_be_hidden()
    page.get_by_role("button", name="Show the QR code large").click()
    expect(large).to_be_visible()
    expect(large).to_contain_text(f"{PUBLIC}/?class={code}")
    big = page.locator("#presenter-qr-big")
    page.wait_for_function(QR_SHOWN, arg=big.element_handle())
    box = big.bounding_box()
    assert box["height"] >= 0.75 * 1080 and box["width"] == pytest.approx(box["height"], abs=1)
    page.screenshot(path=artifact("presenter_qr_large.png"))
    page.keyboard.press("Escape")
    expect(large).to_be_hidden()
    page.get_by_role("button", name="Show the QR code large").click()
    expect(large).to_be_visible()
    large.get_by_role("button", name="Close").click()
    expect(large).to_be_hidden()
