"""The orderings lab in the page: an ordering composed key by key or typed, named and kept, run as
the engine runs it, carried by the link, shown as code, and raced against another."""

import itertools
import re

import pytest
from playwright.sync_api import expect

from server.engine.graph import knight_graph
from server.engine.search import FOUND, VISIT, Search
from server.engine.survey import cell
from tests.support.page import FASTEST, READY, artifact, rendered

ORDERING = {"text": "Ordering", "exact": True}


def engine_path(rows, cols, start, order, seed=0):
    """Return the path of the engine's first tour (or its last path) with an ordering."""
    path = []
    for kind, square, _ in Search(knight_graph(rows, cols), start, order, seed=seed):
        if kind == FOUND:
            break
        if kind == VISIT:
            path.append(square)
        else:
            path.pop()
    return path


def play_to_the_end(page):
    page.get_by_label("Speed").fill(FASTEST)
    page.get_by_role("button", name="Play").click()
    page.wait_for_function("() => knightsTour.state === 'finished'", timeout=30_000)


def compose_corners_last(page):
    """Compose Warnsdorff's rule with ties sent away from the corners, name it, and use it."""
    page.get_by_text("Compose your own ordering").click()
    page.get_by_label(**ORDERING).select_option(label="Warnsdorff")
    expect(page.get_by_label("Written form")).to_have_value("onward")
    page.get_by_label("Add a key").select_option(label="Distance from the nearest corner")
    page.get_by_role("button", name="Add", exact=True).click()
    page.get_by_role("button", name="Reverse nearest a corner first").click()
    expect(page.get_by_label("Written form")).to_have_value("onward,-corner")
    page.get_by_label("Its name (optional)").fill("Corners last")
    page.get_by_role("button", name="Use this ordering").click()
    expect(page.locator("#composer-note")).to_have_text(
        "Now searching with Corners last. It is kept in this browser, under Yours."
    )


def test_a_composed_ordering_searches_as_the_engine_and_its_link_brings_it_back(page, site):
    page.goto(f"{site.url}/?rows=6&cols=6&start=c4")
    page.wait_for_function(READY)
    compose_corners_last(page)
    expect(page.get_by_label(**ORDERING)).to_have_value("onward,-corner")
    expect(page.locator("#order-note")).to_have_text(
        "Ranks the moves by fewest onward moves first, then furthest from the corners first; "
        "moves still tied go in the textbook's move order."
    )
    expect(page.locator("#ordered-code")).to_contain_text("key=lambda m: (onward(m), -to_corner(m))")
    rendered(page)
    assert "order=onward,-corner" in page.url
    play_to_the_end(page)
    start = 2 * 6 + 2  # c4 on 6x6
    assert page.evaluate("() => knightsTour.model.path") == engine_path(6, 6, start, "onward,-corner")

    # The link opens the same ordering; the browser's library still names it.
    again = page.context.new_page()
    again.goto(page.url)
    again.wait_for_function(READY)
    expect(again.get_by_label(**ORDERING)).to_have_value("onward,-corner")
    assert again.locator("#order option:checked").inner_text() == "Corners last"
    again.close()
    # In another browser, with nothing kept, the link names it too.
    elsewhere = page.context.browser.new_context()
    try:
        fresh = elsewhere.new_page()
        fresh.goto(page.url)
        fresh.wait_for_function(READY)
        assert "name=Corners+last" in page.url
        assert fresh.locator("#order option:checked").inner_text() == "Corners last"
        expect(fresh.get_by_label("Its name (optional)")).to_have_value("Corners last")
    finally:
        elsewhere.close()


def test_keys_after_one_that_never_ties_decide_nothing_and_no_draft_starts_with_one(page, site):
    page.goto(f"{site.url}/?rows=6&cols=6&order=naive")
    page.wait_for_function(READY)
    page.get_by_text("Compose your own ordering").click()
    written = page.get_by_label("Written form")
    expect(written).to_have_value("")  # naive's one key never ties: nothing added after it would count
    keys = ("Square number (the textbook's order)", "Onward moves (Warnsdorff)")
    keys += ("Distance from the start square",)
    for key in keys:
        page.get_by_label("Add a key").select_option(label=key)
        page.get_by_role("button", name="Add", exact=True).click()
    expect(written).to_have_value("index,onward,start")
    rows = page.locator("#composer-keys li")
    expect(rows.nth(0)).not_to_contain_text("decides nothing")
    for later in (1, 2):
        expect(rows.nth(later)).to_contain_text("decides nothing: “lowest square number first” above it")
    page.get_by_role("button", name="Use this ordering").click()
    expect(page.locator("#order-note")).to_have_text(
        "Ranks the moves by lowest square number first, which never leaves two moves tied: the keys "
        "after it (fewest onward moves first, then nearest the start square first) decide nothing."
    )
    page.get_by_role("button", name="Remove lowest square number first").click()
    expect(rows.nth(0)).not_to_contain_text("decides nothing")
    expect(rows.nth(1)).not_to_contain_text("decides nothing")


def test_a_typed_form_that_is_no_ordering_is_refused_saying_why_and_changes_nothing(page, site):
    page.goto(f"{site.url}/?rows=5&cols=5")
    page.wait_for_function(READY)
    page.get_by_text("Compose your own ordering").click()
    page.get_by_label("Written form").fill("onward,-onward")
    page.get_by_role("button", name="Use this ordering").click()
    expect(page.locator("#composer-note")).to_have_text(
        "onward,-onward is not an ordering: it names onward twice"
    )
    expect(page.get_by_label(**ORDERING)).to_have_value("naive")
    # What was typed stays, to be mended.
    expect(page.get_by_label("Written form")).to_have_value("onward,-onward")
    page.get_by_label("Written form").fill("onward,,x")
    page.get_by_label("Written form").press("Enter")
    expect(page.locator("#composer-note")).to_have_text(
        "onward,,x is not an ordering: a key is missing (two commas together, or one at an end)"
    )
    expect(page.get_by_label("Written form")).to_have_value("onward,,x")
    # A name another ordering has is refused: a race's titles must tell the two apart.
    page.get_by_label("Written form").fill("edge")
    page.get_by_label("Its name (optional)").fill("Warnsdorff")
    page.get_by_role("button", name="Use this ordering").click()
    expect(page.locator("#composer-note")).to_have_text(
        "Warnsdorff already names another ordering: choose another name."
    )
    expect(page.get_by_label(**ORDERING)).to_have_value("naive")
    page.get_by_label("Written form").fill("pohl, -edge")
    page.get_by_label("Its name (optional)").fill("<script>")
    page.get_by_role("button", name="Use this ordering").click()
    expect(page.locator("#composer-note")).to_contain_text("A name has at most 24 letters")
    expect(page.get_by_label(**ORDERING)).to_have_value("naive")
    page.get_by_label("Its name (optional)").fill("")
    page.get_by_role("button", name="Use this ordering").click()
    expect(page.get_by_label(**ORDERING)).to_have_value("pohl,-edge")
    expect(page.locator("#order option:checked")).to_have_text("pohl,-edge")
    # The page's own ordering written out is the page's own: not kept again under another name.
    page.get_by_label("Written form").fill("onward,-centre")
    page.get_by_label("Its name (optional)").fill("Far first")
    page.get_by_role("button", name="Use this ordering").click()
    expect(page.locator("#composer-note")).to_have_text(
        "That is the page's own Warnsdorff + Roth's tie-break: now searching with it."
    )
    expect(page.get_by_label(**ORDERING)).to_have_value("warnsdorff-roth")
    expect(page.locator("#order-kept option")).to_have_text(["pohl,-edge"])


def test_the_composer_is_worked_with_the_keyboard_alone(page, site):
    page.goto(f"{site.url}/?rows=5&cols=5&order=warnsdorff")
    page.wait_for_function(READY)
    summary = page.locator("#composer summary")
    summary.focus()
    page.keyboard.press("Space")  # opens it: Space is the composer's own, not Play's
    expect(page.get_by_label("Add a key")).to_be_visible()
    page.get_by_label("Add a key").focus()
    page.keyboard.press("Tab")
    expect(page.get_by_role("button", name="Add", exact=True)).to_be_focused()
    page.keyboard.press("Space")
    expect(page.get_by_label("Written form")).to_have_value("onward,index")
    assert page.evaluate("() => knightsTour.state") == "idle", "Space played the search"
    page.get_by_role("button", name="Move lowest square number first up").focus()
    page.keyboard.press("Enter")
    expect(page.get_by_label("Written form")).to_have_value("index,onward")
    # The focus stays with the key moved, and after a removal goes to the row now in its place.
    expect(page.get_by_role("button", name="Reverse lowest square number first")).to_be_focused()
    page.keyboard.press("Tab")  # past Up, which the first key cannot take
    expect(page.get_by_role("button", name="Remove lowest square number first")).to_be_focused()
    page.keyboard.press("Space")
    expect(page.get_by_label("Written form")).to_have_value("onward")
    expect(page.get_by_role("button", name="Remove fewest onward moves first")).to_be_focused()


def test_a_link_with_an_ordering_that_is_none_says_so_and_keeps_the_page_own(page, site):
    page.goto(f"{site.url}/?order=onward,__import__")
    page.wait_for_function(READY)
    expect(page.get_by_label(**ORDERING)).to_have_value("naive")
    expect(page.get_by_role("status")).to_contain_text("order=onward,__import__")


def test_two_composed_orderings_race_each_as_the_engine_searches_it(page, site):
    first, second = "pohl,-edge", "onward,-corner"
    page.goto(f"{site.url}/?mode=race&rows=6&cols=6&order={first}&versus={second}")
    page.wait_for_function(READY)
    expect(page.locator("#title-main")).to_have_text(first)
    expect(page.locator("#title-second")).to_have_text(second)
    expect(page.get_by_label("First board's ordering")).to_have_value(first)
    expect(page.get_by_label("Raced against (second board)")).to_have_value(second)
    play_to_the_end(page)
    assert page.evaluate("() => knightsTour.model.path") == engine_path(6, 6, 0, first)
    assert page.evaluate("() => knightsTour.second.path") == engine_path(6, 6, 0, second)
    expect(page.get_by_role("status")).to_contain_text(f"{first}: Tour found")
    expect(page.get_by_role("status")).to_contain_text(f"{second}: Tour found")


def test_the_race_of_two_kept_orderings_is_chosen_from_the_fields(page, site):
    page.goto(f"{site.url}/?rows=6&cols=6")
    page.wait_for_function(READY)
    compose_corners_last(page)
    page.get_by_label("Written form").fill("-onward")
    page.get_by_label("Its name (optional)").fill("Most first")
    page.get_by_role("button", name="Use this ordering").click()
    page.get_by_role("radio", name="Race two orderings").check()
    page.get_by_label("Raced against (second board)").select_option(label="Corners last")
    expect(page.locator("#title-main")).to_have_text("Most first")
    expect(page.locator("#title-second")).to_have_text("Corners last")
    expect(page.get_by_role("radio", name="Corners last")).to_be_visible()
    rendered(page)
    assert "order=-onward&versus=onward,-corner" in page.url


@pytest.mark.parametrize(
    "width, height, language",
    [(w, h, language) for (w, h), language in itertools.product([(390, 844), (1920, 1080)], ["en", "zh"])],
)
def test_the_composer_fits_phone_and_projector_in_both_languages(open_page, width, height, language):
    viewport = {"width": width, "height": height}
    page = open_page(f"/?rows=6&cols=6&order=onward,-corner,pohl&lang={language}", viewport=viewport)
    page.locator("#composer summary").click()
    rendered(page)
    composer = page.locator("#composer")
    overflowing = composer.evaluate(
        """(box) => [box, ...box.querySelectorAll('*')].filter((el) => el.scrollWidth > el.clientWidth + 1
             && getComputedStyle(el).overflowX !== 'auto').map((el) => el.id || el.tagName)"""
    )
    assert overflowing == [], f"the composer overflows at {width}, {language}"
    assert composer.locator("li").count() == 3
    box, column = composer.bounding_box(), page.locator("#search-setup").bounding_box()
    assert box["x"] + box["width"] <= column["x"] + column["width"] + 1
    composer.screenshot(path=artifact(f"composer-{width}-{language}.png"))


def open_strip(page):
    page.get_by_text("Every board", exact=True).click()
    expect(page.get_by_role("button", name="Run on every board")).to_be_visible()


def run_strip(page):
    page.locator("#strip-run").click()
    page.wait_for_function(
        "() => knightsTour.store.strip.id !== null && !knightsTour.store.strip.running", timeout=60_000
    )


def shown_cells(page, row):
    """Return the cells of a strip's row as (text, outcome)."""
    cells = page.locator(".strip-row").nth(row).locator(".strip-cell")
    return [(cell.inner_text(), cell.get_attribute("class").split("cell-")[1]) for cell in cells.all()]


def test_the_strip_shows_each_board_as_the_engine_ends_it_beside_another_ordering(page, site):
    page.goto(f"{site.url}/?order=warnsdorff")
    page.wait_for_function(READY)
    open_strip(page)
    page.get_by_label("Largest side").fill("12")
    page.get_by_label("Largest side").dispatch_event("change")
    page.get_by_label("Backtracks allowed on each board").fill("2000")
    page.get_by_label("Backtracks allowed on each board").dispatch_event("change")
    page.locator("#strip-compared").get_by_label("Warnsdorff + Roth's tie-break").check()
    run_strip(page)
    for row, order in enumerate(["warnsdorff", "warnsdorff-roth"]):
        expected = [(str(n), cell(n, n, 0, order, 0, 2_000)["outcome"]) for n in range(5, 13)]
        assert shown_cells(page, row) == expected, order
    clean = [
        sum(cell(n, n, 0, order, 0, 2_000)["outcome"] == "clean" for n in range(5, 13))
        for order in ("warnsdorff", "warnsdorff-roth")
    ]
    expect(page.locator("#strip-verdict")).to_have_text(
        f"Warnsdorff solved {clean[0]} of 8 boards without a backtrack; "
        f"Warnsdorff + Roth's tie-break {clean[1]}"
    )
    seven = page.locator(".strip-row").first.get_by_role("link", name="7 × 7, from a7: solved after")
    expect(seven).to_have_count(1)
    # A cell opens its run in a tab of its own, and the strip stays.
    with page.context.expect_page() as opened:
        seven.click()
    run = opened.value
    run.wait_for_function(READY)
    assert "rows=7&cols=7&start=0&order=warnsdorff" in run.url
    expect(run.get_by_label("Rows", exact=True)).to_have_value("7")
    run.close()
    expect(page.locator(".strip-cell")).to_have_count(16)
    # A search stopped at the budget opens with the budget its events were: it stops where it did.
    stopped = page.locator(".strip-cell.cell-stopped").first
    expect(stopped).to_have_attribute("href", re.compile(r"&budget=\d+"))


def test_the_strip_from_every_square_of_the_board_and_its_stop(page, site):
    page.goto(f"{site.url}/?rows=5&cols=5&order=onward,-corner")
    page.wait_for_function(READY)
    open_strip(page)
    page.get_by_label("From every square of this 5 × 5 board instead").check()
    page.get_by_label("Backtracks allowed on each board").fill("300")
    page.get_by_label("Backtracks allowed on each board").dispatch_event("change")
    run_strip(page)
    expected = [cell(5, 5, start, "onward,-corner", 0, 300)["outcome"] for start in range(25)]
    assert [outcome for _, outcome in shown_cells(page, 0)] == expected
    assert shown_cells(page, 0)[0][0] == "a5" and shown_cells(page, 0)[24][0] == "e1"
    # A long strip stopped: the rest waits, and says so.
    page.get_by_label("From every square of this 5 × 5 board instead").uncheck()
    page.get_by_label("Largest side").fill("100")
    page.get_by_label("Largest side").dispatch_event("change")
    # 192 boards of 20,000: within what a server without helpers takes (4,000,000 backtracks).
    page.get_by_label("Backtracks allowed on each board").fill("20000")
    page.get_by_label("Backtracks allowed on each board").dispatch_event("change")
    page.locator("#strip-compared").get_by_label("Naive").check()
    page.get_by_role("button", name="Run on every board").click()
    expect(page.locator("#strip-note")).to_contain_text("Searching:")
    page.get_by_role("button", name="Stop").click()
    expect(page.locator("#strip-note")).to_have_text("Stopped.")
    expect(page.locator(".strip-row").first).to_contain_text("waiting")
    expect(page.get_by_role("button", name="Run on every board")).to_be_enabled()


@pytest.mark.parametrize(
    "width, height, language",
    [(w, h, language) for (w, h), language in itertools.product([(390, 844), (1920, 1080)], ["en", "zh"])],
)
def test_the_strip_fits_phone_and_projector_in_both_languages(open_page, width, height, language):
    page = open_page(f"/?order=warnsdorff&lang={language}", viewport={"width": width, "height": height})
    page.locator("#strip summary").click()
    page.locator("#strip-to").fill("30")
    page.locator("#strip-to").dispatch_event("change")
    page.locator("#strip-compared input").first.check()
    run_strip(page)
    strip = page.locator("#strip")
    strip.scroll_into_view_if_needed()
    overflowing = strip.evaluate(
        """(box) => [box, ...box.querySelectorAll('*')].filter((el) => el.scrollWidth > el.clientWidth + 1)
             .map((el) => el.id || el.className || el.tagName)"""
    )
    assert overflowing == [], f"the strip overflows at {width}, {language}"
    assert strip.locator(".strip-cell").count() == 2 * 26
    # Reachable: the board's column scrolls to its last cell (the page does, on a phone).
    last = strip.locator(".strip-cell").last
    last.scroll_into_view_if_needed()
    expect(last).to_be_in_viewport()
    strip.screenshot(path=artifact(f"strip-{width}-{language}.png"))


@pytest.mark.parametrize("order", ["naive", "-pohl,-onward,-centre,-start,-edge,-corner,random,-index"])
def test_the_orderings_code_is_whole_in_the_lesson_at_laptop_width(open_page, order):
    page = open_page(f"/?rows=6&cols=6&order={order}", viewport={"width": 1280, "height": 800})
    code = page.locator("#ordered-code")
    expect(code).to_contain_text("def ordered(square):")
    cut = code.evaluate("(box) => box.scrollWidth - box.clientWidth")
    assert cut <= 0, f"the ordering's code is cut by {cut} px"


# [line, rows it takes] for each line of the ordering's code (its comments left out).
CODE_ROWS = """(box) => {
  const text = box.firstChild, rows = [];
  let at = 0;
  for (const line of box.textContent.split("\\n")) {
    if (line && !line.trimStart().startsWith("#")) {
      const range = document.createRange();
      range.setStart(text, at);
      range.setEnd(text, at + line.length);
      rows.push([line, new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size]);
    }
    at += line.length + 1;
  }
  return rows;
}"""


@pytest.mark.parametrize("order", ["naive", "warnsdorff"])
@pytest.mark.parametrize("width, height", [(1280, 800), (1920, 1080)])
def test_the_textbooks_orderings_code_lines_do_not_wrap_on_a_laptop_or_projector(
    open_page, order, width, height
):
    page = open_page(f"/?rows=6&cols=6&order={order}", viewport={"width": width, "height": height})
    code = page.locator("#ordered-code")
    expect(code).to_contain_text("return sorted(")
    rows = code.evaluate(CODE_ROWS)
    assert len(rows) >= 2 and [line for line, taken in rows if taken != 1] == [], rows


@pytest.mark.parametrize(
    "language, words",
    [("en", "a strip may take at most 4,000,000 backtracks"), ("zh", "一次最多 4,000,000 次回溯")],
)
def test_a_strip_too_costly_for_a_server_without_helpers_is_refused_in_the_pages_words(
    open_page, language, words
):
    # The tests' server searches strips itself: 96 boards of 100,000 backtracks are too many.
    page = open_page(f"/?lang={language}")
    page.locator("#strip summary").click()
    for field, value in (("#strip-to", "100"), ("#strip-budget", "100000")):
        page.locator(field).fill(value)
        page.locator(field).dispatch_event("change")
    page.locator("#strip-run").click()
    note = page.locator("#strip-note")
    expect(note).to_contain_text(words)
    expect(note).to_contain_text("9,600,000")
    assert page.evaluate("() => knightsTour.store.strip.running") is False
