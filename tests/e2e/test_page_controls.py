"""The controls: a change asks before it ends a run, the shortcuts work wherever the focus is,
and the small things (fit, words, speeds, the timeline, exports, the estimate, warnings)."""

import re
import struct

from playwright.sync_api import expect

from tests.support.page import (
    FASTEST,
    READY,
    STEP,
    caught_up,
    model,
    press,
    set_board,
    step_events,
)

SCREENS = [(390, 844), (1280, 800), (1920, 1080)]  # phone, laptop, projector
RUN = "() => [knightsTour.model.events, knightsTour.model.path]"
OVERFLOWS = "(el) => el.scrollWidth > el.clientWidth"


def play_to_the_end(page, order="warnsdorff"):
    page.get_by_label("Ordering", exact=True).select_option(order)
    page.get_by_label("Speed").fill(FASTEST)
    page.get_by_role("button", name="Play").click()
    expect(page.get_by_role("status")).to_contain_text("Tour found")


def test_a_click_or_a_change_mid_run_asks_before_ending_it(page):
    step_events(page, 5)
    run = page.evaluate(RUN)
    page.locator("#board").click()  # its middle: c3
    assert page.evaluate(RUN) == run, "one click on the board threw the run away"
    ask = page.get_by_role("alert")
    expect(ask, "no confirmation was asked").to_contain_text("ends the search under way")
    page.get_by_role("button", name="Keep searching").click()
    expect(ask).to_be_hidden()
    assert page.evaluate(RUN) == run
    expect(page.get_by_label("Start square", exact=True)).to_have_value("a5")
    step_events(page, 1)
    # A changed option asks too, and the field shows the run's setting again if kept.
    page.get_by_label("Closed tours only").check()
    expect(ask).to_be_visible()
    page.get_by_role("button", name="Keep searching").click()
    expect(page.get_by_label("Closed tours only")).not_to_be_checked()
    assert page.evaluate(RUN)[0] == run[0] + 1
    page.locator("#board").click()
    page.get_by_role("button", name="End this search and change").click()
    expect(page.get_by_label("Start square", exact=True)).to_have_value("c3")
    assert page.evaluate(RUN) == [0, []]
    expect(page.get_by_role("status")).to_contain_text("Ready")


def test_a_finished_run_comes_back_with_undo(page):
    play_to_the_end(page)
    tour = model(page, "path")
    page.get_by_label("Ordering", exact=True).select_option(
        "naive"
    )  # a finished run: the change applies at once
    expect(page.locator("#depth")).to_have_text("0 / 25")
    undo = page.get_by_role("button", name="Undo")
    expect(undo, "no undo is offered").to_be_visible()
    undo.click()
    expect(page.locator("#status")).to_contain_text("Tour found")
    assert model(page, "path") == tour
    expect(page.get_by_label("Ordering", exact=True)).to_have_value("warnsdorff")


def test_the_shortcuts_work_from_a_slider(page, site):
    speed = page.get_by_label("Speed")
    speed.click()
    page.keyboard.press("Space")
    expect(page.get_by_role("button", name="Pause"), "Space on the Speed slider did not play").to_be_visible()
    page.keyboard.press("Space")
    expect(page.get_by_role("button", name="Play")).to_be_visible()
    events, at = caught_up(page, site), speed.input_value()
    page.keyboard.press("ArrowRight")  # a step, not a move of the slider
    page.wait_for_function(f"() => knightsTour.model.events === {events + 1}")
    assert speed.input_value() == at


def test_space_after_a_click_on_step_plays_and_typing_is_typing(page, site):
    page.get_by_role("button", **STEP).click()
    caught_up(page, site)
    page.keyboard.press("Space")
    expect(page.get_by_role("button", name="Pause"), "Space pressed the focused Step button").to_be_visible()
    page.keyboard.press("Space")
    expect(page.get_by_role("button", name="Play")).to_be_visible()
    events = caught_up(page, site)
    # Keys typed into a text field are typing: no step, seek, reset or help.
    page.get_by_label("Start square", exact=True).click()
    for key in ("ArrowRight", "ArrowLeft", "Home", "End"):
        page.keyboard.press(key)
    code = page.get_by_label("Join a class with its code")
    code.click()
    page.keyboard.type("r ?")
    code.fill("")
    expect(page.get_by_role("dialog")).to_be_hidden()
    assert model(page, "events") == events and page.evaluate("() => knightsTour.state") == "paused"


def test_eight_digit_counts_fit(page):
    set_board(page, 8, 8)
    page.get_by_label("Step budget").fill("10000000")
    page.get_by_label("Step budget").dispatch_event("change")
    page.get_by_role("button", name="Skip to end").click()
    expect(page.get_by_role("status")).to_contain_text("Stopped after 10,000,000 steps", timeout=120_000)
    expect(page.locator("#events")).to_have_text("10,000,000")
    overflowing = page.evaluate(
        """() => [document.querySelector('.counters'), ...document.querySelectorAll('.counters dd')]
                   .filter((el) => el.scrollWidth > el.clientWidth).map((el) => el.id || 'counters')"""
    )
    assert overflowing == [], "counters overflow their boxes"


def test_after_a_skip_the_timeline_is_at_its_end_and_step_is_done(page):
    page.get_by_role("button", name="Skip to end").click()
    expect(page.get_by_role("status")).to_contain_text("Tour found")
    timeline = page.get_by_label("Timeline")
    low, high = (int(timeline.get_attribute(name)) for name in ("min", "max"))
    assert low < high and int(timeline.input_value()) == high, "the timeline's thumb is not at its right end"
    expect(page.get_by_role("button", **STEP)).to_be_disabled()


def test_step_back_fits_its_button_in_english_and_chinese(page):
    for language in ("en", "zh"):
        page.locator("#language").select_option(language)
        for width, height in SCREENS:
            page.set_viewport_size({"width": width, "height": height})
            assert not page.locator("#back").evaluate(OVERFLOWS), (
                f"Step back overflows at {width}, {language}"
            )


def test_the_show_choices_are_all_in_sight(page):
    for width, height in SCREENS:
        page.set_viewport_size({"width": width, "height": height})
        for choice in (
            "The knight's tour",
            "Race two orderings",
            "The textbook's example graph (A to F)",
        ):
            radio = page.get_by_role("radio", name=choice)
            expect(radio, f"{choice!r} is not shown at {width}").to_be_visible()
            assert not page.locator("label", has=radio).evaluate(OVERFLOWS), (
                f"{choice!r} is cut off at {width}"
            )


def test_five_moves_a_second_is_offered(page):
    speed = page.get_by_label("Speed")
    steps = [int(s) for s in speed.get_attribute("data-steps").split(",")]
    assert 5 in steps, "5 moves a second is not offered"
    speed.fill(str(steps.index(5)))
    expect(page.locator("#speed-out")).to_have_text("5 moves a second")


def test_the_slowest_speed_reads_one_move_a_second(page):
    page.get_by_label("Speed").fill("0")
    expect(page.locator("#speed-out")).to_have_text("1 move a second")


def test_the_first_move_at_one_a_second_comes_at_once(page):
    page.get_by_label("Speed").fill("0")
    waited = page.evaluate(
        """() => new Promise((done) => {
          const begun = performance.now();
          document.getElementById('play').click();
          const look = () => (knightsTour.model.events > 0
            ? done(performance.now() - begun) : requestAnimationFrame(look));
          look();
        })"""
    )
    assert waited < 500, f"the first move at 1 a second came {waited:.0f} ms after Play"


def replaying_says_so(page):
    """Press Play with the view behind the run, at 1 event a second, and check the status says it
    replays the events received (while it does: 5 s for 5 events)."""
    page.get_by_label("Speed").fill("0")
    page.get_by_role("button", name="Play").click()
    expect(page.get_by_role("button", name="Pause")).to_be_visible()
    status = page.get_by_role("status")
    expect(status).to_contain_text("Replaying")
    expect(status).not_to_contain_text("Paused")
    page.get_by_role("button", name="Pause").click()


def test_a_replay_says_it_is_replaying(page, site):
    page.get_by_label("Speed").fill("8")  # 250 a second
    page.get_by_role("button", name="Play").click()
    page.wait_for_function("() => knightsTour.model.events > 10")
    page.get_by_role("button", name="Pause").click()
    events = caught_up(page, site)
    page.get_by_label("Timeline").fill(str(events - 5))
    page.wait_for_function(f"() => knightsTour.model.events === {events - 5}")
    replaying_says_so(page)


def test_a_replay_after_stepping_back_says_it_is_replaying(page):
    step_events(page, 8)
    for events in range(7, 2, -1):
        press(page.get_by_role("button", name="Step back"))
        page.wait_for_function(f"() => knightsTour.model.events === {events}")
    replaying_says_so(page)


def test_the_board_is_saved_at_least_at_twice_its_size(page):
    play_to_the_end(page)
    box = page.locator("#board").bounding_box()
    with page.expect_download() as saved:
        page.get_by_role("button", name="Board as PNG").click()
    head = open(saved.value.path(), "rb").read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR"
    width, height = struct.unpack(">II", head[16:24])
    # Twice the board on screen, or 1600 pixels on its longer side if that is more; its shape kept.
    assert width == round(max(2, 1600 / max(box["width"], box["height"])) * box["width"])
    assert abs(width / height - box["width"] / box["height"]) < 0.01


def test_the_estimate_explains_the_books_figure(page):
    expect(page.locator("#analysis")).to_contain_text("3.12 × 10¹⁴")


def test_closed_tours_with_warnsdorff_come_with_a_warning(page, site):
    page.goto(f"{site.url}/?rows=6&cols=6&order=warnsdorff")
    page.wait_for_function(READY)
    page.get_by_label("Closed tours only").check()
    warning = page.get_by_text(re.compile("not at one that closes|does not aim at closed tours"))
    expect(warning.first).to_be_visible()
