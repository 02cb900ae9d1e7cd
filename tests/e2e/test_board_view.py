"""The board in the browser: every board size plays, and a dead end stays marked while paused."""

import re

from playwright.sync_api import expect

from server.engine.graph import knight_graph
from tests.support.page import (
    BACKTRACK_RED,
    KNIGHT_YELLOW,
    READY,
    frames_pass,
    model,
    pixels,
    press,
    set_board,
    square_name,
    step_events,
    wait_for_pixels,
)

SIZES = [(n, n) for n in range(1, 33)] + [(3, 4), (7, 31), (32, 1), (20, 32)]


def test_every_board_size_from_1_to_32_plays_without_an_error(page, site):
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{site.url}/?order=warnsdorff-roth&speed=0")
    page.wait_for_function(READY)
    for rows, cols in SIZES:
        set_board(page, rows, cols)
        expect(page.locator("#depth")).to_have_text(f"0 / {rows * cols}")
        press(page.get_by_role("button", name="Play"))
        # A few events, or the whole run of a board with hardly any.
        page.wait_for_function("() => knightsTour.model.events >= 3 || knightsTour.state === 'finished'")
        page.get_by_role("button", name="Reset").click()
        page.wait_for_function("() => knightsTour.state === 'idle'")
        assert errors == [], f"{rows}x{cols}: {errors}"


def test_a_26x26_board_shows_the_knight_during_play(page, site):
    page.goto(f"{site.url}/?rows=26&cols=26&order=warnsdorff-roth&speed=60")
    page.wait_for_function(READY)
    page.get_by_role("button", name="Play").click()
    page.wait_for_function("() => knightsTour.model.events > 20")
    assert page.evaluate("() => knightsTour.state") == "playing"
    assert wait_for_pixels(page, KNIGHT_YELLOW, 20), (
        "the board shows no knight's square while the search plays"
    )
    text = page.locator("#analysis").inner_text()
    assert "nodes" in text and not re.search("Infinity|NaN|undefined", text), text


def test_a_dead_end_stays_marked_and_explained_while_paused(page):
    step_events(page, 13)  # naive 5x5 from a5: event 13 is the first backtrack
    assert model(page, "backtracks") == 1
    assert wait_for_pixels(page, BACKTRACK_RED, 500), "the dead end is not marked red"
    frames_pass(page, 1_000)  # longer than the 650 ms a mark takes to fade while playing
    assert pixels(page, BACKTRACK_RED) > 500, "the dead end's red mark faded while the run is paused"
    # Its moves, each with the visit number the board shows on the square it lands on.
    square = model(page, "lastBacktrack")
    numbers = page.evaluate("() => Array.from(knightsTour.model.numbers)")
    text = page.locator("#dead-end").inner_text()
    assert f"Dead end at {square_name(square, 5, 5)}" in text, text
    moves = knight_graph(5, 5).neighbors(square)
    assert dict(re.findall(r"\b([a-e][1-5]) \(visit (\d+)\)", text)) == {
        square_name(w, 5, 5): str(numbers[w]) for w in moves
    }, "every move of the dead end lands on the path, each shown with its visit number"
