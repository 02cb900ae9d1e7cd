"""Predict mode on one's own board: the search stops, the user answers, the real move is judged."""

import re

from playwright.sync_api import expect

from server.engine import BACKTRACK, Search, knight_graph
from tests.support.page import STEP, artifact, click_square, model, press, rendered, square_name

ASKING = "() => knightsTour.store.predict.asking !== null"
FREE = "() => [...knightsTour.model.numbers].flatMap((n, s) => (n ? [] : [s]))"


def engine_events(rows, cols, start, order, count):
    """Return the first count events of a search, each as (kind, the knight's square after it):
    that square is what a prediction of the event names (where it goes, or backs up to)."""
    search = Search(knight_graph(rows, cols), start, order)
    events = []
    for kind, _, _ in search:
        events.append((kind, search.path[-1] if search.path else -1))
        if len(events) == count:
            break
    return events


def asked_at(page):
    """Wait for a question and return the event number it stands before."""
    page.wait_for_function(ASKING)
    return page.evaluate("() => knightsTour.store.predict.asking.at")


def answer_by_click(page, square, cols):
    """Answer with a click on square."""
    click_square(page, square // cols, square % cols)


def predict_on(page):
    page.get_by_label("Ask me where the knight goes next").check()


def first_question(page):
    """Step past the start (no choice) and on to the first question."""
    press(page.get_by_role("button", **STEP))
    page.wait_for_function("() => knightsTour.model.events === 1")
    press(page.get_by_role("button", **STEP))
    assert asked_at(page) == 1


def test_each_move_is_asked_judged_against_the_engine_and_explained(open_page):
    page = open_page("/?rows=5&cols=5&start=a5&order=naive&speed=1")
    predict_on(page)
    answers = [square for _, square in engine_events(5, 5, 0, "naive", 3)]
    first_question(page)
    expect(page.locator("#status")).to_have_text(re.compile("Your turn"))
    # The move is held back until answered, and nothing on the page gives it away.
    assert model(page, "events") == 1
    assert page.evaluate("() => knightsTour.overlay().hints") == []
    expect(page.locator("#stack li").first).to_contain_text("what next?")
    answer_by_click(page, answers[1], 5)
    name = square_name(answers[1], 5, 5)
    expect(page.locator("#predict-feedback")).to_have_text(f"Right: the knight goes to {name}.")
    why = page.locator("#predict-why")
    # The naive order in words a student can check on the board, with no square's hidden number.
    expect(why).to_have_text(
        "Naive tries the moves from a5 in reading order: the top row first, each row from left to right:"
        f" c4, b3. The first not on the path is {name}."
    )
    # Stepped, the run stays paused after the answer, and the box says so and why.
    expect(page.locator("#predict-question")).to_have_text(
        "Paused, as the search was when asked: an answer, right or wrong, only shows the move."
        " Press Step or Play to go on."
    )
    assert model(page, "events") == 2
    # A wrong answer: the knight still makes the engine's move, and the score says so.
    press(page.get_by_role("button", **STEP))
    assert asked_at(page) == 2
    wrong = next(s for s in page.evaluate(FREE) if s != answers[2])
    answer_by_click(page, wrong, 5)
    expect(page.locator("#predict-feedback")).to_have_text(
        f"Not this time: the knight goes to {square_name(answers[2], 5, 5)}, not {square_name(wrong, 5, 5)}."
    )
    expect(page.locator("#predict-score")).to_have_text("1 of 2 right; streak 0, best 1.")
    assert page.evaluate("() => knightsTour.model.path.at(-1)") == answers[2]
    expect(why).to_contain_text("a5 (on the path)")
    expect(why).not_to_contain_text(re.compile(r"square \d"))
    page.get_by_label("Language").select_option("zh")
    expect(why).to_contain_text("阅读顺序")
    expect(why).not_to_contain_text(re.compile(r"第 \d+ 格"))
    expect(page.locator("#predict-question")).to_contain_text("已暂停")


def test_around_backtracks_it_stops_at_the_first_dead_end_and_plays_on_after_a_typed_answer(open_page):
    page = open_page("/?rows=5&cols=5&start=a5&order=naive&speed=0")
    predict_on(page)
    page.get_by_label("Ask", exact=True).select_option("backtracks")
    events = engine_events(5, 5, 0, "naive", 400)
    first = [kind for kind, _ in events].index(BACKTRACK)  # the first question: before it
    page.get_by_role("button", name="Play").click()
    assert asked_at(page) == first
    assert model(page, "events") == first
    # The keyboard's way: type the square and press Enter.
    name = square_name(events[first][1], 5, 5)
    field = page.locator("#predict-box").get_by_label("Your answer: a square")
    field.fill(name)
    field.press("Enter")
    expect(page.locator("#predict-feedback")).to_have_text(f"Right: the knight backs up to {name}.")
    expect(page.locator("#predict-why")).to_contain_text("lands on the path")
    # It was playing: it plays on to the next question, just after that backtrack.
    assert asked_at(page) == first + 1
    expect(page.locator("#predict-score")).to_have_text("1 of 1 right; streak 1, best 1.")


def test_warnsdorff_explains_the_counts_and_the_tie_in_both_languages(open_page):
    page = open_page("/?rows=6&cols=6&start=a6&order=warnsdorff&speed=1")
    predict_on(page)
    first_question(page)
    answer_by_click(page, engine_events(6, 6, 0, "warnsdorff", 2)[1][1], 6)
    why = page.locator("#predict-why")
    expect(why).to_contain_text("Warnsdorff counts the onward moves of each free square from a6: c5 5, b4 5")
    expect(why).to_contain_text(
        "c5, b4 tie with 5; the tie goes to the first in the textbook's move order, c5."
    )
    page.get_by_label("Language").select_option("zh")
    expect(why).to_contain_text("并列")
    rendered(page)
    page.screenshot(path=artifact("predict_warnsdorff_zh.png"))


def test_predict_is_offered_only_where_it_can_ask(open_page):
    page = open_page("/?mode=race")
    expect(page.get_by_label("Ask me where the knight goes next")).to_be_disabled()
    expect(page.locator("#predict-note")).to_have_text(re.compile("not in a race"))
