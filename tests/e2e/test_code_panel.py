"""The lesson panels: the call stack numbered as the board is, the code lit line by line, and
the depth chart kept across the timeline."""

import re

from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from tests.support.page import FASTEST, caught_up, rendered, set_board, square_name, step_events

# The code line lit now (1 to 10, 0 for none) and the events the board shows.
LIT = """() => [
  [...document.querySelectorAll('#code span')].findIndex((span) => span.classList.contains('now')) + 1,
  knightsTour.model.events,
]"""
BUCKETS = 1024  # the most buckets the depth chart shows (static/js/timeline.js)
EVENT_LINES = {2, 4, 9}  # the lines that make an event: append, return True (a tour), pop
# The lines that can run next after each line of the code.
FOLLOWS = {1: {2}, 2: {3}, 3: {4, 5}, 4: {7}, 5: {6, 9}, 6: {5, 7}, 7: {1, 5, 8}, 8: {7}, 9: {10}, 10: {7}}


def next_line(page, before):
    """Press → and return [line lit, events shown] once the lit line has moved on from before's."""
    page.keyboard.press("ArrowRight")
    try:
        shown = page.wait_for_function(
            f"(before) => {{ const now = ({LIT})(); return now[0] !== before[0] && now; }}",
            arg=before,
            timeout=5_000,
        ).json_value()
    except PlaywrightTimeout:
        raise AssertionError(f"→ lit no line after line {before[0]} (event {before[1]} shown)") from None
    assert not before[0] or shown[0] in FOLLOWS[before[0]], f"→ went from line {before[0]} to line {shown[0]}"
    return shown


def lines_to_the_end(page):
    """Press → until Step is disabled (at most 100 times); return the lines lit one by one."""
    rendered(page)
    shown, seen = page.evaluate(LIT), []
    while page.get_by_role("button", name="Step", exact=True).is_enabled() and len(seen) < 100:
        shown = next_line(page, shown)
        seen.append(shown[0])
    return seen


def lit_lines(page):
    """Return the lines the code panel lights, as the line numbers 1 to 10."""
    return set(
        page.evaluate(
            """() => [...document.querySelectorAll('#code span')].flatMap(
             (span, i) => (span.matches('.now, .ran') ? [i + 1] : []))"""
        )
    )


def step_line_by_line(page):
    """Tick "Step line by line", and take the focus off the fields so that → steps."""
    lines = page.get_by_label("Step line by line")
    expect(lines, "the code cannot be stepped line by line").to_be_visible()
    lines.check()
    page.locator("body").click(position={"x": 5, "y": 5})


def play_and_pause(page, site, speed="10", until="knightsTour.model.events > 400"):
    page.get_by_label("Speed").fill(speed)
    page.get_by_role("button", name="Play").click()
    page.wait_for_function(f"() => {until}")
    page.get_by_role("button", name="Pause").click()
    return caught_up(page, site)


def test_the_call_stack_numbers_the_squares_as_the_board_does(page, site):
    play_and_pause(page, site, "8", "knightsTour.model.backtracks > 5 && knightsTour.model.events > 40")
    rendered(page)
    path, numbers = page.evaluate("() => [knightsTour.model.path, Array.from(knightsTour.model.numbers)]")
    rows = page.locator("#stack li:not(.more)").all_inner_texts()
    assert rows, "the call stack is empty"
    for depth, text in zip(range(len(path), 0, -1), rows, strict=False):
        square = path[depth - 1]
        expected = f"{numbers[square]}. {square_name(square, 5, 5)}:"
        assert text.startswith(expected), f"stack row {text!r} is not {expected!r} (visit number and square)"
    top = re.match(r"\d+", rows[0]).group()
    expect(page.locator("#depth")).to_have_text(f"{top} / 25")


def test_the_code_lights_the_lines_each_event_ran(page):
    seen = set()
    for _ in range(15):  # naive 5x5: its first backtrack is event 13
        step_events(page, 1)
        rendered(page)
        seen |= lit_lines(page)
    assert {5, 6} <= seen, f"only lines {sorted(seen)} were lit: the loop's lines 5 and 6 never were"
    assert {1, 2, 3, 5, 6, 7, 9, 10} <= seen


def test_line_by_line_every_line_lights_and_the_board_moves_on_its_events_line(page):
    step_line_by_line(page)
    shown, seen = page.evaluate(LIT), set()
    while len(seen) < 8 or shown[1] < 15:  # naive 5x5: its first backtrack is event 13
        before, shown = shown, next_line(page, shown)
        seen.add(shown[0])
        moved = shown[1] != before[1]
        assert moved == (shown[0] in EVENT_LINES), (
            f"line {shown[0]}: the board went {before[1]} -> {shown[1]}"
        )
        assert shown[1] - before[1] in (0, 1)
        assert shown[1] < 40, f"lines {sorted(seen)} lit in 40 events"
    assert seen == {1, 2, 3, 5, 6, 7, 9, 10}


def test_line_by_line_a_tour_is_handed_back_up_the_calls(page, site):
    page.get_by_label("Ordering", exact=True).select_option("warnsdorff")
    page.get_by_label("Speed").fill(FASTEST)
    page.get_by_role("button", name="Play").click()
    expect(page.locator("#status")).to_contain_text("Tour found")
    page.get_by_label("Timeline").fill("24")  # the last visit comes next: event 25, then the tour
    page.wait_for_function("() => knightsTour.model.events === 24")
    step_line_by_line(page)
    seen = lines_to_the_end(page)
    assert 4 in seen, f"lines lit: {seen}"
    assert 8 in seen, f"the tour is never handed back up the calls (line 8): lines lit {seen}"


def test_line_by_line_live_through_the_end_of_a_tour(page):
    # As above, with each event fetched from the server as → needs it.
    page.get_by_label("Ordering", exact=True).select_option("warnsdorff")
    step_events(page, 24)
    step_line_by_line(page)
    seen = lines_to_the_end(page)
    assert 4 in seen and 8 in seen, f"lines lit: {seen}"


def test_the_depth_chart_is_kept_across_home_end_and_scrubbing(page, site):
    set_board(page, 6, 6)
    head = play_and_pause(page, site)
    rendered(page)
    played = page.evaluate("() => knightsTour.depthSamples()")
    page.locator("body").click(position={"x": 5, "y": 5})
    page.keyboard.press("Home")
    page.wait_for_function("() => knightsTour.model.events === 0")
    page.keyboard.press("End")
    page.wait_for_function(f"() => knightsTour.model.events === {head}")
    assert page.evaluate("() => knightsTour.depthSamples()") == played, "Home and End lost the depth chart"
    # The chart keeps its buckets in levels, each twice as coarse as the one before, and shows
    # an event from the level whose BUCKETS buckets reach it: a position of head's own level is
    # shown in the buckets head is (a busy machine's late pause can take head past the first).
    level = next(level for level in range(64) if head < BUCKETS * 2**level)
    middle = ((BUCKETS * 2 ** (level - 1) if level else 0) + head) // 2
    page.get_by_label("Timeline").fill(str(middle))
    page.wait_for_function(f"() => knightsTour.model.events === {middle}")
    samples = page.evaluate("() => knightsTour.depthSamples()")
    assert samples[-1]["to"] == middle and all(b["to"] <= middle for b in samples)
    assert samples[:-1] == [b for b in played if b["to"] < samples[-1]["from"]]
