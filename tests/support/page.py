"""Driving the page in the browser tests: plain functions that take a Playwright page."""

import json
import re
from pathlib import Path

from playwright.sync_api import expect

from server.runs.registry import runs
from server.wire import SPEED_STEPS

from .waiting import wait_for

ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"  # screenshots of the browser tests
FASTEST = str(SPEED_STEPS.index(0))  # the Speed slider's position of "as fast as it goes"
# The page is connected and can start. Both read as false, never throw, on a page not yet loaded:
# a wait begun just after a click that navigates may first look at the page being left.
READY = "() => document.getElementById('play')?.disabled === false"
# The page follows a class, connected.
FOLLOWING = (
    "() => window.knightsTour?.store.klass.role === 'student' && knightsTour.store.connection === 'up'"
)
STEP = {"name": "Step", "exact": True}  # the Step button's role name (not Step back)


def artifact(name):
    """Return the path, as a string, of a file named name in tests/artifacts/."""
    ARTIFACTS.mkdir(exist_ok=True)
    return str(ARTIFACTS / name)


def set_board(page, rows, cols):
    """Type a board size into Rows and Columns, as a user would."""
    # Exact: the board's own description names its rows and columns too.
    page.get_by_label("Rows", exact=True).fill(str(rows))
    page.get_by_label("Rows", exact=True).dispatch_event("change")
    page.get_by_label("Columns", exact=True).fill(str(cols))
    page.get_by_label("Columns", exact=True).dispatch_event("change")


# ([row, col, grid colour]) => the centre of that square of the main board as drawn, in CSS
# pixels from the canvas's top-left corner; null until the drawing is of the model's board. The
# board sits in a margin of coordinates whose size depends on the type: its squares are found
# where the user sees them, between the grid lines, whose outer lines nothing is drawn over.
SQUARE_CENTRE = """([row, col, colour]) => {
  const canvas = document.getElementById('board');
  const { rows, cols } = knightsTour.model;
  const w = canvas.width, h = canvas.height;
  if (!w || !h || !canvas.clientWidth || row >= rows || col >= cols) return null;
  const ratio = w / canvas.clientWidth; // device pixels a CSS pixel
  const data = canvas.getContext('2d').getImageData(0, 0, w, h).data;
  const grid = [1, 3, 5].map((i) => parseInt(colour.slice(i, i + 2), 16));
  const inRow = new Array(h).fill(0), inCol = new Array(w).fill(0);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = 4 * (y * w + x);
      if (grid.every((c, k) => Math.abs(data[i + k] - c) <= 3)) { inRow[y]++; inCol[x]++; }
    }
  }
  // The board's edges: the longest lines of the grid's colour (each edge is a whole line).
  const edges = (counts) => {
    const most = Math.max(...counts);
    const at = counts.flatMap((n, i) => (n >= 0.95 * most && most > 0 ? [i] : []));
    return at.length > 1 ? [at[0], at[at.length - 1] + 1] : null;
  };
  const ys = edges(inRow), xs = edges(inCol);
  if (!ys || !xs) return null;
  const [top, bottom] = ys, [left, right] = xs;
  // Each edge is a line a CSS pixel wide: the squares span (last - first) / ratio - 1 pixels.
  const cell = ((right - left) / ratio - 1) / cols;
  if (cell < 2 || Math.abs(cell - ((bottom - top) / ratio - 1) / rows) > 0.5 / ratio) return null;
  // The lines between the squares are where that cell size puts them (mostly: the path crosses them).
  for (let k = 1; k < cols; k++) {
    if (inCol[Math.floor(left + k * cell * ratio)] < 0.5 * (bottom - top)) return null;
  }
  for (let k = 1; k < rows; k++) {
    if (inRow[Math.floor(top + k * cell * ratio)] < 0.5 * (right - left)) return null;
  }
  return { x: left / ratio + (col + 0.5) * cell, y: top / ratio + (row + 0.5) * cell };
}"""


def click_square(page, row, col):
    """Click the centre of the main board's square in row row (0 at the top) and column col
    (0 at the left), once the board is drawn with the model's rows and columns."""
    board = page.locator("#board")
    board.scroll_into_view_if_needed()
    colour = page.evaluate("async () => (await import('/static/js/paint/theme.js')).STYLE.grid")
    centre = page.wait_for_function(SQUARE_CENTRE, arg=[row, col, colour]).json_value()
    board.click(position=centre)


# (selector) => the element's box where the page lays it out, whatever its columns are scrolled to
# (a click that brings a button into view scrolls them, and a reload scrolls them back), or null
# when it is not shown.
LAID_OUT = """(selector) => {
  const element = document.querySelector(selector);
  if (!element || !element.checkVisibility()) return null;
  const { left, top, width, height } = element.getBoundingClientRect();
  let x = left, y = top;
  for (let el = element.parentElement; el; el = el.parentElement) {
    x += el.scrollLeft;
    y += el.scrollTop;
  }
  return { x, y, width, height };
}"""


# Resolve once the page has made frames more animation frames.
FRAMES = """(frames) => new Promise((done) => {
  const next = (left) => requestAnimationFrame(() => (left > 1 ? next(left - 1) : done()));
  next(frames);
})"""


def laid_out(page, selector="#board"):
    """Return {x, y, width, height} of an element as page lays it out (see LAID_OUT), or None."""
    return page.evaluate(LAID_OUT, selector)


def rendered(page, frames=1):
    """Wait until the page has rendered its state as it is now (it renders a change on the next
    animation frame, whose callbacks run in the order they were asked for); frames=2 waits for
    the frame after as well, where the layout that rendering changed has settled."""
    page.evaluate(FRAMES, frames)


def counter(page, name):
    """Return the text of a counter (visits, backtracks, depth, events, tours)."""
    return page.locator(f"#{name}").inner_text()


def model(page, field):
    """Return a field of the model the page shows."""
    return page.evaluate(f"() => knightsTour.model.{field}")


def wait_for_events(page, events):
    """Wait until the page shows exactly events events."""
    page.wait_for_function(f"() => knightsTour.model.events === {events}")


def caught_up(page, site, timeout=10):
    """Wait until the only run on site's server is paused with nothing on its way and page shows
    every event it has taken from its search; return how many that is."""
    # The page's start may still be on its way to the server: wait for its run to be there.
    players = wait_for(lambda: runs(site.app).players(), timeout)
    assert len(players) == 1, f"expected one run on the server, found {len(players)}"
    player = players[0]
    # Then for the requests after it: a Step from idle sends its step once the start is answered.
    page.wait_for_function("() => knightsTour.unanswered === 0", timeout=timeout * 1000)
    assert wait_for(player.settled, timeout), f"the run is {player.state()}, or sends more"
    # Paused and settled, the player takes no more events: what it has taken, the page has.
    taken = player.events
    page.wait_for_function(f"() => knightsTour.model.events === {taken}", timeout=timeout * 1000)
    return taken


# Helpers of the tests of the rebuilt page's fixes (test_board_view, test_links, ...).

BACKTRACK_RED = (0xD7, 0x26, 0x3D)  # a square the knight has just backed out of
KNIGHT_YELLOW = (0xF2, 0xC2, 0x30)  # the knight's square


def square_name(square, rows, cols):
    """Return a square's name in algebraic notation (c3): files a, b, ... from the left, rank 1
    at the bottom."""
    col, row = square % cols, square // cols
    letter = chr(97 + col) if col < 26 else chr(97 + col // 26 - 1) + chr(97 + col % 26)
    return f"{letter}{rows - row}"


def press(button):
    """Click an enabled button on screen without Playwright's wait for it to be still (a click
    the page ignores fails the wait for what it should have done)."""
    button.click(force=True)


def step_events(page, times=1):
    """Press Step times times, each time waiting for its one event; return the events shown."""
    events = model(page, "events")
    for _ in range(times):
        press(page.locator("#step"))  # by id: in any language
        events += 1
        wait_for_events(page, events)
    return events


# (selector, [r, g, b], tolerance = 12) => how many pixels of the canvas are of that colour.
COUNT_PIXELS = """(selector, [r, g, b], tolerance = 12) => {
  const canvas = document.querySelector(selector);
  const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
  let n = 0;
  for (let i = 0; i < data.length; i += 4) {
    if (Math.abs(data[i] - r) <= tolerance && Math.abs(data[i + 1] - g) <= tolerance
        && Math.abs(data[i + 2] - b) <= tolerance && data[i + 3] > 200) n++;
  }
  return n;
}"""


def pixels(page, colour, canvas="#board"):
    """Return how many pixels of a canvas are of colour (r, g, b), give or take a little."""
    return page.evaluate(
        f"([selector, colour]) => ({COUNT_PIXELS})(selector, colour)", [canvas, list(colour)]
    )


def frames_pass(page, ms):
    """Wait until the page has drawn animation frames spanning ms milliseconds (the page's
    animations have had that long), and at least 10 frames."""
    page.evaluate(
        """(ms) => new Promise((done) => {
          let first = null, count = 0;
          const tick = (now) => {
            first ??= now;
            if (++count >= 10 && now - first >= ms) done();
            else requestAnimationFrame(tick);
          };
          requestAnimationFrame(tick);
        })""",
        ms,
    )


def wait_for_pixels(page, colour, more_than, canvas="#board", timeout=5_000):
    """Wait until more_than pixels of a canvas are of colour; return False if that never comes."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_function(
            f"([selector, colour, n]) => ({COUNT_PIXELS})(selector, colour) > n",
            arg=[canvas, list(colour), more_than],
            timeout=timeout,
        )
        return True
    except PlaywrightTimeout:
        return False


def start_class(page):
    """Start a class from page, as its instructor; return the class's code."""
    import re

    from playwright.sync_api import expect

    page.locator("#class-open").click()  # by id: in any language
    expect(page.locator("#lead-code")).to_have_text(re.compile(r"^[A-Z2-9]{7}$"))
    return page.locator("#lead-code").inner_text()


def end_class(page):
    """End the class page leads, from presenter view (its drawer open or not) or the page."""
    if page.locator("#drawer-close").is_visible():
        page.locator("#drawer-close").click()
    if page.locator("#presenter-bar").is_visible():
        page.locator("#presenter-exit").click()
    page.locator("#class-end").click()


def open_tournament(page, **fields):
    """Open a class tournament from the instructor's page (by ids: in any language), typing each
    field given first (smallest, largest, budget) as a user would; return once the server has
    opened it (its entries would be refused before)."""
    page.locator("#tournament > summary").click()
    for name, value in fields.items():
        field = page.locator(f"#tournament-{name}")
        field.fill(str(value))
        field.dispatch_event("change")
    page.locator("#tournament-open").click()
    expect(page.locator("#tournament-close")).to_be_enabled()  # the page's tournament is open


def lead(context, url):
    """Open the app at url in a new page of context and start a class; return the page and its code."""
    page = context.new_page()
    page.goto(url)
    page.wait_for_function(READY)
    page.get_by_role("button", name="Start a class").click()
    shown = page.locator("#lead-code")
    expect(shown).to_have_text(re.compile(r"^[A-Z2-9]{7}$"))
    return page, shown.inner_text()


def limits_in(html):
    """Return the limits and settings the page's script reads from a page's HTML."""
    return json.loads(re.search(r'<script type="application/json" id="limits">(.*?)</script>', html).group(1))


def limits(client):
    """Return the limits and settings the page (/) gives its script (client: Flask's test client)."""
    return limits_in(client.get("/").get_data(as_text=True))
