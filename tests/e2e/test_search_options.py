"""The search's options, reached from the page: orderings, closed and all tours, budgets, skip."""

import functools
import itertools

import pytest
from playwright.sync_api import expect

from server.engine.graph import knight_graph
from server.engine.search import FOUND, Search
from tests.support.page import FASTEST, STEP, artifact, click_square, model, rendered, set_board


def play_fastest(page):
    page.get_by_label("Speed").fill(FASTEST)
    page.get_by_role("button", name="Play").click()


def test_every_ordering_is_offered_with_an_explanation(page):
    ordering = page.get_by_label("Ordering", exact=True)
    labels = ordering.locator("option").all_inner_texts()
    assert labels == ["Naive", "Warnsdorff", "Warnsdorff + Roth's tie-break", "Random"]
    notes = set()
    for label in labels:
        ordering.select_option(label=label)
        rendered(page)
        notes.add(page.locator("#order-note").inner_text())
        expect(page.get_by_label("Seed", exact=True)).to_be_visible(visible=label == "Random")
    assert len(notes) == 4 and all(notes)


def test_random_runs_repeat_with_their_seed(page):
    set_board(page, 6, 6)
    page.get_by_label("Ordering", exact=True).select_option(label="Random")
    page.get_by_label("Step budget").fill("400")
    page.get_by_label("Step budget").dispatch_event("change")
    paths = {}
    for seed in ("11", "11", "12"):
        page.get_by_label("Seed", exact=True).fill(seed)
        page.get_by_label("Seed", exact=True).dispatch_event("change")
        play_fastest(page)
        expect(page.get_by_role("status")).to_contain_text("Stopped after 400 steps")
        paths.setdefault(seed, []).append(page.evaluate("() => knightsTour.model.path"))
        page.get_by_role("button", name="Reset").click()
    assert paths["11"][0] == paths["11"][1]
    assert paths["12"][0] != paths["11"][0]


def test_closed_tour_is_found_and_closed(page):
    set_board(page, 3, 10)
    page.get_by_label("Ordering", exact=True).select_option(label="Warnsdorff + Roth's tie-break")
    page.get_by_label("Closed tours only").check()
    play_fastest(page)
    expect(page.get_by_role("status")).to_contain_text("Closed tour found", timeout=20_000)
    path = page.evaluate("() => knightsTour.model.path")
    assert len(path) == 30 and page.evaluate("() => knightsTour.model.justFound")
    (r0, c0), (r1, c1) = divmod(path[0], 10), divmod(path[-1], 10)
    assert {abs(r0 - r1), abs(c0 - c1)} == {1, 2}


def test_all_tours_are_counted(page):
    set_board(page, 3, 4)
    page.get_by_label("Find every tour").check()
    play_fastest(page)
    expect(page.get_by_role("status")).to_contain_text("Found 2 tours from a3")
    expect(page.locator("#tours")).to_have_text("2")


def test_skip_to_the_end_of_every_tour_on_five_by_five(page):
    page.get_by_label("Find every tour").check()
    page.get_by_role("button", name="Skip to end").click()
    expect(page.get_by_role("status")).to_contain_text("Found 304 tours", timeout=30_000)
    expect(page.locator("#tours")).to_have_text("304")
    expect(page.locator("#depth")).to_have_text("25 / 25")  # the last tour is shown


def test_step_budget_stops_the_run_and_says_so(page):
    set_board(page, 6, 6)
    page.get_by_label("Step budget").fill("1000")
    page.get_by_label("Step budget").dispatch_event("change")
    play_fastest(page)
    expect(page.get_by_role("status")).to_contain_text(
        "Stopped after 1,000 steps (the step budget): no tour found yet"
    )
    expect(page.locator("#events")).to_have_text("1,000")


def test_skip_shows_progress_and_can_be_cancelled(page):
    set_board(page, 8, 8)
    page.get_by_role("button", name="Skip to end").click()
    expect(page.get_by_role("status")).to_contain_text("events so far", timeout=5_000)
    page.wait_for_function("() => knightsTour.model.events > 1000000", timeout=10_000)
    page.get_by_role("button", name="Cancel skip").click()
    expect(page.get_by_role("status")).to_contain_text("Skip cancelled")
    events = page.evaluate("() => knightsTour.model.events")
    page.get_by_role("button", **STEP).click()
    page.wait_for_function(f"() => knightsTour.model.events === {events + 1}")
    page.screenshot(path=artifact("skip_cancelled.png"))


def test_skip_to_the_end_matches_the_streamed_result(page):
    set_board(page, 6, 6)
    page.get_by_role("button", name="Skip to end").click()
    expect(page.get_by_role("status")).to_contain_text("Tour found", timeout=20_000)
    expect(page.locator("#visits")).to_have_text("183,635")
    expect(page.locator("#backtracks")).to_have_text("183,599")
    expect(page.locator("#depth")).to_have_text("36 / 36")


def test_a_hopeless_start_is_announced_before_the_search(page):
    status = page.get_by_role("status")
    click_square(page, 0, 1)
    expect(page.get_by_label("Start square")).to_have_value("b5")
    expect(status).to_contain_text("No tour from this square")
    expect(status).to_contain_text("a tour must start on a square of the corners' colour")
    page.get_by_label("Start square").fill("a5")  # the keyboard's way to choose the start
    page.get_by_label("Start square").dispatch_event("change")
    expect(status).to_contain_text("Ready")
    expect(status).not_to_contain_text("No tour")
    assert model(page, "start") == 0
    page.get_by_label("Closed tours only").check()
    expect(status).to_contain_text("even number of squares")
    page.get_by_label("Closed tours only").uncheck()
    set_board(page, 3, 5)
    expect(status).to_contain_text("no knight's tour from any square")
    play_fastest(page)  # the search still runs, to show it
    expect(page.get_by_role("status")).to_contain_text("No tour exists")


SMALL = [(r, c) for r in range(1, 6) for c in range(1, 6) if r * c <= 20] + [(3, 6), (6, 3), (4, 6)]


def symmetries(rows, cols):
    """Return the eight symmetries of a rows x cols board (its four reflections, each also
    transposed), each a function from a square to (rows, cols, square) of the board it lands on."""

    def symmetry(down, across, transpose):
        def move(square):
            r, c = divmod(square, cols)
            r, c = (rows - 1 - r if down else r), (cols - 1 - c if across else c)
            return (cols, rows, c * rows + r) if transpose else (rows, cols, r * cols + c)

        return move

    return [symmetry(*flags) for flags in itertools.product((False, True), repeat=3)]


def test_the_symmetries_map_the_knights_graph_onto_itself():
    for rows, cols in SMALL + [(5, 5)]:
        graph = knight_graph(rows, cols)
        for symmetry in symmetries(rows, cols):
            images = [symmetry(v) for v in range(rows * cols)]
            image_rows, image_cols = images[0][:2]
            assert sorted(square for _, _, square in images) == list(range(rows * cols))
            image_graph = knight_graph(image_rows, image_cols)
            for v in range(rows * cols):
                moved = sorted(images[w][2] for w in graph.neighbors(v))
                assert moved == sorted(image_graph.neighbors(images[v][2])), (rows, cols, v)


@functools.cache
def searched_has_tour(rows, cols, start, closed):
    return any(kind == FOUND for kind, _, _ in Search(knight_graph(rows, cols), start, closed=closed))


def has_tour(rows, cols, start, closed):
    """Tell, by exhaustive search, whether a tour starts there: searched once for all the squares a
    symmetry of the board maps start to (a tour turned or flipped is a tour)."""
    return searched_has_tour(*min(symmetry(start) for symmetry in symmetries(rows, cols)), closed)


@pytest.mark.parametrize("closed, boards", [(False, SMALL + [(5, 5)]), (True, SMALL)])
def test_the_pages_verdicts_agree_with_exhaustive_search(page, closed, boards):
    verdicts = page.evaluate(
        """([boards, closed]) => boards.map(([rows, cols]) => Array.from(
            { length: rows * cols }, (_, start) => knightsTour.whyNoTour(rows, cols, start, closed)))""",
        [boards, closed],
    )
    flagged = 0
    for (rows, cols), whys in zip(boards, verdicts, strict=True):
        assert len(whys) == rows * cols
        for start, why in enumerate(whys):
            if why:
                flagged += 1
                assert not has_tour(rows, cols, start, closed), (rows, cols, start, why)
    assert flagged > 100  # the rules do flag the hopeless cases, not just nothing
