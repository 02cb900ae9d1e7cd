"""Driving the page in the browser tests: plain functions that take a Playwright page."""

from pathlib import Path

from server.runs import runs
from server.wire import SPEED_STEPS

from .waiting import wait_for

ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"  # screenshots of the browser tests
FASTEST = str(SPEED_STEPS.index(0))  # the Speed slider's position of "as fast as it goes"
READY = "() => !document.getElementById('play').disabled"  # the page is connected and can start
STEP = {"name": "Step", "exact": True}  # the Step button's role name (not Step back)


def artifact(name):
    """Return the path, as a string, of a file named name in tests/artifacts/."""
    ARTIFACTS.mkdir(exist_ok=True)
    return str(ARTIFACTS / name)


def set_board(page, rows, cols):
    """Type a board size into Rows and Columns, as a user would."""
    page.get_by_label("Rows").fill(str(rows))
    page.get_by_label("Rows").dispatch_event("change")
    page.get_by_label("Columns").fill(str(cols))
    page.get_by_label("Columns").dispatch_event("change")


def click_square(page, row, col):
    """Click the centre of a board square."""
    board = page.locator("#board")
    box = board.bounding_box()
    rows = int(page.get_by_label("Rows").input_value())
    cols = int(page.get_by_label("Columns").input_value())
    board.click(position={"x": (col + 0.5) * box["width"] / cols, "y": (row + 0.5) * box["height"] / rows})


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
    """Wait until the only run on site's server is paused and page shows every event it has
    taken from its search (so that none is on its way any more); return how many that is."""
    players = runs(site.app).players()
    assert len(players) == 1, f"expected one run on the server, found {len(players)}"
    player = players[0]
    assert wait_for(lambda: player.state() == "paused", timeout), f"the run is {player.state()}, not paused"
    # Paused, the player takes no more events: what it has taken is what the page will get.
    taken = player.events
    page.wait_for_function(f"() => knightsTour.model.events === {taken}", timeout=timeout * 1000)
    return taken
