"""The lesson features, in a real Chromium: stepping back, the code and call stack, the
Warnsdorff counts, the chart, the example graph, the race, sharing, keyboard and access."""

import itertools
import json

import pytest
from playwright.sync_api import expect

from server.engine.graph import example_graph, knight_graph
from server.engine.search import Search
from server.wire import encode
from tests.support.page import FASTEST, READY, STEP, artifact, model, press, rendered, set_board, step_events

# The path and the visit number of each square, as the page's model has them.
PATH_AND_NUMBERS = "() => [knightsTour.model.path, Array.from(knightsTour.model.numbers)]"


def path_and_numbers(page):
    return tuple(page.evaluate(PATH_AND_NUMBERS))


def test_step_back_undoes_each_event_exactly(page):
    set_board(page, 5, 5)
    seen = []
    expect(page.get_by_role("button", **STEP)).to_be_enabled()
    for events in range(1, 41):  # the naive 5x5 search backtracks within its first 40 events
        press(page.get_by_role("button", **STEP))
        shown = page.wait_for_function(
            f"() => knightsTour.model.events === {events} && ({PATH_AND_NUMBERS})()"
        )
        seen.append(tuple(shown.json_value()))
    assert model(page, "backtracks") > 0
    expect(page.get_by_role("button", name="Step back")).to_be_enabled()
    for path, numbers in reversed(seen[:-1]):
        press(page.get_by_role("button", name="Step back"))
        assert path_and_numbers(page) == (path, numbers)
    # Forward again through what was received, without asking the server.
    step_events(page, 39)
    assert path_and_numbers(page) == seen[-1]


def test_timeline_scrubs_home_and_end(page):
    set_board(page, 6, 6)
    page.get_by_label("Speed").fill("12")  # 5,000 events a second
    page.get_by_role("button", name="Play").click()
    page.wait_for_function("() => knightsTour.model.events > 2000")
    page.locator("body").click(position={"x": 5, "y": 5})
    page.keyboard.press("Home")
    expect(page.get_by_role("button", name="Play")).to_be_visible()
    assert model(page, "events") == 0 and model(page, "path") == []
    head = page.evaluate("() => Number(document.getElementById('timeline').max)")
    page.get_by_label("Timeline").fill(str(head // 2))
    page.get_by_label("Timeline").dispatch_event("input")
    page.wait_for_function(f"() => knightsTour.model.events === {head // 2}")
    page.keyboard.press("End")
    page.wait_for_function(f"() => knightsTour.model.events === {head}")
    expected = encode(list(Search(knight_graph(6, 6), 0))[:head])
    depth = sum(1 if isinstance(c, int) and c >= 0 else -1 for c in expected if c != "found")
    assert len(model(page, "path")) == depth


def test_code_line_follows_the_event(page):
    step_events(page, 1)
    expect(page.locator("#code span.now")).to_contain_text("path.append(square)")
    # Naive 5x5 from square 0: the first backtrack is event 26 or so; step until one shows.
    while model(page, "backtracks") == 0:
        step_events(page, 1)
    expect(page.locator("#code span.now")).to_contain_text("path.pop()")


@pytest.mark.parametrize(
    "order, seed", [("naive", 0), ("warnsdorff", 0), ("warnsdorff-roth", 0), ("random", 77)]
)
def test_call_stack_predicts_every_move_the_engine_makes(page, order, seed):
    events = encode(list(itertools.islice(Search(knight_graph(6, 6), 0, order, seed=seed), 3000)))
    mismatches = page.evaluate(
        """async ([events, order, seed]) => {
          const { createModel, apply } = await import('/static/js/model.js');
          const { knightMoves } = await import('/static/js/orderings/orderings.js');
          const { callStack } = await import('/static/js/lesson.js');
          const run = { order, seed, rows: 6, cols: 6 };
          const moves = knightMoves(6, 6);
          const m = createModel(6, 6, 0);
          let last = null, bad = [];
          for (const code of events) {
            if (typeof code === 'number' && code >= 0 && m.path.length) {
              const stack = callStack(m, moves, run, last);
              const top = stack[stack.length - 1];
              if (top.toTry[0] !== code) bad.push([m.events, code, top.toTry]);
            }
            if (typeof code === 'number' && code < 0 && m.path.length) {
              // A backtrack comes only when nothing is left to try at the top.
              const stack = callStack(m, moves, run, last);
              if (stack[stack.length - 1].toTry.length) bad.push([m.events, code, 'left']);
            }
            apply(m, code);
            last = code;
          }
          return bad.slice(0, 5);
        }""",
        [events, order, seed],
    )
    assert mismatches == []


def test_warnsdorff_counts_are_shown_for_the_next_moves(page):
    page.get_by_label("Ordering", exact=True).select_option("warnsdorff")
    step_events(page, 3)
    hints = page.evaluate("() => knightsTour.overlay().hints")
    path = model(page, "path")
    graph = knight_graph(5, 5)
    free = [w for w in graph.neighbors(path[-1]) if w not in path]
    onward = {w: sum(1 for x in graph.neighbors(w) if x not in path) for w in free}
    assert sorted(h["square"] for h in hints) == sorted(free)
    assert all(h["onward"] == onward[h["square"]] for h in hints)
    assert [h["square"] for h in hints] == sorted(free, key=lambda w: onward[w])  # stable, like the engine
    page.get_by_label("Onward moves of the next squares").uncheck()
    assert page.evaluate("() => knightsTour.overlay().hints") == []
    page.get_by_label("Moves from each square on an empty board").check()
    degrees = page.evaluate("() => knightsTour.overlay().degrees")
    assert degrees == [len(graph.neighbors(v)) for v in range(25)]


def test_chart_and_the_textbooks_estimate(page):
    expect(page.locator("#analysis")).to_contain_text("3.84 moves a square on average")
    expect(page.locator("#analysis")).to_contain_text("25 squares")
    page.get_by_label("Speed").fill(FASTEST)
    page.get_by_role("button", name="Play").click()
    expect(page.get_by_role("status")).to_contain_text("Tour found")
    expect(page.locator("#analysis")).to_contain_text("explored 5,010 of them")
    page.get_by_role("button", name="Reset").click()
    page.get_by_label("Speed").fill("10")  # 1,000 events a second
    page.get_by_role("button", name="Play").click()
    # The naive 5x5 search first backtracks within its first 40 events.
    page.wait_for_function("() => knightsTour.model.events > 40 && knightsTour.depthSamples().length > 20")
    buckets = page.evaluate("() => knightsTour.depthSamples()")
    # Each bucket sums up a stretch of events: the lowest, highest and last depth in it.
    assert all(b["low"] <= b["last"] <= b["high"] for b in buckets)
    assert all(a["to"] < b["from"] for a, b in itertools.pairwise(buckets)), "buckets follow one another"
    drops = [b for b in buckets if b["last"] < b["high"]] + [
        b for a, b in itertools.pairwise(buckets) if b["low"] < a["last"]
    ]
    assert drops, "backtracking shows as drops in depth"
    assert max(b["high"] for b in buckets) > 10


def test_the_textbooks_example_graph_steps_through_the_books_sequence(page):
    expect(page.get_by_role("status")).to_contain_text("the knight starts on a5 (or click another square)")
    page.get_by_label("The textbook's example graph (A to F)").check()
    # Its vertices are no squares: nothing to click to start elsewhere.
    expect(page.get_by_role("status")).to_have_text("Ready: press Play.")
    paths = []
    graph = example_graph()
    for _ in range(9):
        step_events(page, 1)
        paths.append("".join(graph.names[v] for v in model(page, "path")))
    assert paths == ["A", "AB", "ABC", "AB", "ABD", "ABDE", "ABDEF", "ABDEFC", "ABDEFC"]
    expect(page.get_by_role("status")).to_contain_text(
        "Path found through all 6 vertices, A, B, D, E, F, C, after 7 visits and 1 backtrack."
    )
    page.screenshot(path=artifact("example_graph.png"))


def test_naive_and_warnsdorff_race_side_by_side(page):
    page.get_by_label("Race two orderings").check()
    expect(page.locator("#board-second")).to_be_visible()
    page.get_by_label("Speed").fill(FASTEST)
    page.get_by_role("button", name="Play").click()
    expect(page.get_by_role("status")).to_contain_text("Warnsdorff: Tour found", timeout=20_000)
    expect(page.get_by_role("status")).to_contain_text("Naive: Tour found")
    assert page.evaluate("() => [knightsTour.model.backtracks, knightsTour.second.backtracks]") == [4985, 0]
    expect(page.locator("#caption-main")).to_contain_text("4,985 backtracks")
    expect(page.locator("#caption-second")).to_contain_text("0 backtracks")
    page.screenshot(path=artifact("race.png"))


def test_the_address_keeps_the_setup(page, site):
    set_board(page, 6, 7)
    page.get_by_label("Ordering", exact=True).select_option("random")
    page.get_by_label("Seed", exact=True).fill("4242")
    page.get_by_label("Seed", exact=True).dispatch_event("change")
    page.get_by_label("Closed tours only").check()
    page.get_by_label("Speed").fill("9")
    page.get_by_label("Speed").dispatch_event("input")
    rendered(page)  # the address follows the settings as the page renders them
    url = page.url
    assert "rows=6" in url and "cols=7" in url and "seed=4242" in url and "closed=true" in url
    fresh = page.context.new_page()
    fresh.goto(url)
    fresh.wait_for_function(READY)
    assert fresh.get_by_label("Rows", exact=True).input_value() == "6"
    assert fresh.get_by_label("Columns", exact=True).input_value() == "7"
    assert fresh.get_by_label("Ordering", exact=True).input_value() == "random"
    assert fresh.get_by_label("Seed", exact=True).input_value() == "4242"
    assert fresh.get_by_label("Closed tours only").is_checked()
    assert fresh.get_by_label("Speed").input_value() == "9"
    fresh.goto(site.url + "/?rows=99&cols=x&start=-4&order=bogus")  # nonsense falls back to defaults
    fresh.wait_for_function(READY)
    assert fresh.get_by_label("Rows", exact=True).input_value() == "5"
    fresh.close()


def test_exports(page):
    page.get_by_label("Ordering", exact=True).select_option("warnsdorff")
    page.get_by_label("Speed").fill(FASTEST)
    page.get_by_role("button", name="Play").click()
    expect(page.get_by_role("status")).to_contain_text("Tour found")
    with page.expect_download() as saved:
        page.get_by_role("button", name="Tour as JSON").click()
    tour = json.loads(open(saved.value.path()).read())
    assert tour["path"] == model(page, "path") and tour["complete"] is True
    assert tour["notation"][0] == "a5" and len(tour["notation"]) == 25
    with page.expect_download() as saved:
        page.get_by_role("button", name="Tour in notation").click()
    assert open(saved.value.path()).read().split() == tour["notation"]
    with page.expect_download() as saved:
        page.get_by_role("button", name="Board as PNG").click()
    assert open(saved.value.path(), "rb").read(8) == b"\x89PNG\r\n\x1a\n"


def test_keyboard_shortcuts_and_help(page):
    page.locator("body").click(position={"x": 5, "y": 5})
    speed = int(page.get_by_label("Speed").input_value())
    page.keyboard.press("+")
    expect(page.get_by_label("Speed")).to_have_value(str(speed + 1))
    page.keyboard.press("-")
    page.keyboard.press("-")
    expect(page.get_by_label("Speed")).to_have_value(str(speed - 1))
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => knightsTour.model.events === 1")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => knightsTour.model.events === 2")
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("() => knightsTour.model.events === 1")
    page.keyboard.press("r")
    expect(page.get_by_role("status")).to_contain_text("Ready")
    page.keyboard.press("?")
    expect(page.get_by_role("dialog", name="Keyboard shortcuts")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.get_by_role("dialog")).to_be_hidden()
    # Typing in a field is typing, not a shortcut.
    page.get_by_label("Rows", exact=True).focus()
    page.keyboard.press("r")
    page.keyboard.press("ArrowRight")
    assert model(page, "events") == 0


def test_a_screen_reader_hears_the_moves(page):
    page.get_by_role("button", **STEP).click()
    expect(page.locator("#announcer")).to_have_text("Knight to a5.")
    assert page.locator("#announcer").get_attribute("aria-live") == "polite"


def test_reduced_motion_is_respected(open_page):
    opened = open_page(reduced_motion="reduce")
    assert opened.evaluate("() => knightsTour.reducedMotion") is True


# How far the page scrolls on below the bottom of its layout, in whole pixels.
BELOW = """() => {
  const layout = Math.ceil(document.querySelector('main').getBoundingClientRect().bottom + scrollY);
  return Math.max(0, document.documentElement.scrollHeight - Math.max(window.innerHeight, layout));
}"""
# Every element whose text a user reads must show all of it: nothing cut off or spilling out.
OVERFLOWS = """() => [...document.querySelectorAll('button, dd, .lane-caption, .status, label, legend')]
    .filter((el) => el.offsetParent && !el.matches('.sr-only') && el.scrollWidth > el.clientWidth + 1)
    .map((el) => el.id || el.textContent)"""


def looks_right(opened, width, shot):
    """Check nothing sticks out sideways, nor below the page's layout (the page would scroll on to
    a blank screen), nor overflows, then save a screenshot named shot."""
    assert opened.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    assert opened.evaluate(BELOW) == 0, "the page scrolls on below its layout"
    assert opened.evaluate(OVERFLOWS) == []
    board = opened.locator("#board").bounding_box()
    assert (
        board["width"] > 0.4 * min(width, 1000) and board["x"] >= 0 and board["x"] + board["width"] <= width
    )
    opened.screenshot(path=artifact(f"{shot}.png"), full_page=True)


@pytest.mark.parametrize(
    "name, size", [("phone", (390, 844)), ("projector", (1920, 1080)), ("laptop", (1280, 800))]
)
def test_it_looks_right_from_phone_to_projector(open_page, name, size):
    opened = open_page("/?rows=6&cols=6&speed=250", viewport={"width": size[0], "height": size[1]})
    looks_right(opened, size[0], f"{name}-start")
    opened.get_by_role("button", name="Play").click()
    opened.wait_for_function("() => knightsTour.model.path.length > 20", timeout=30_000)
    opened.get_by_role("button", name="Pause").click()
    looks_right(opened, size[0], f"{name}-mid-search")
    # Step on to just after a backtrack (the naive 6x6 search backtracks every few events).
    opened.wait_for_function("() => knightsTour.state === 'paused'")
    for _ in range(100):
        if opened.locator("#dead-end").text_content():
            break
        before = opened.evaluate("() => knightsTour.model.events")
        opened.get_by_role("button", name="Step", exact=True).click()
        opened.wait_for_function(f"() => knightsTour.model.events > {before}")
    expect(opened.locator("#dead-end")).not_to_be_empty()
    looks_right(opened, size[0], f"{name}-backtrack")
    opened.get_by_role("button", name="Skip to end").click()
    expect(opened.get_by_role("status")).to_contain_text("Tour found", timeout=30_000)
    looks_right(opened, size[0], f"{name}-finished")
    opened.get_by_label("Race two orderings").check()
    opened.get_by_role("button", name="Play").click()
    expect(opened.get_by_role("status")).to_contain_text("Warnsdorff has finished", timeout=30_000)
    looks_right(opened, size[0], f"{name}-race")
