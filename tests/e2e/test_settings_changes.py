"""Changes of settings as a user makes them: a change waiting for confirmation holds every field
changed while it waits, the example graph starts at A, and the status follows the view's steps."""

from playwright.sync_api import expect

from tests.support.page import STEP, model, press, set_board, step_events

END_AND_CHANGE = {"name": "End this search and change"}


def test_a_pending_change_holds_every_field_changed_while_it_waits(page):
    step_events(page, 3)
    set_board(page, 6, 6)  # Rows, then Columns: two fields changed during the search
    page.get_by_label("Ordering", exact=True).select_option("warnsdorff")
    expect(page.get_by_role("alert")).to_contain_text("ends the search under way")
    # The speed applies at once, and stays after the change is confirmed.
    page.get_by_label("Speed").fill("0")
    page.get_by_role("button", **END_AND_CHANGE).click()
    expect(page.get_by_role("alert")).to_be_hidden()
    expect(page.get_by_label("Rows", exact=True)).to_have_value("6")
    expect(page.get_by_label("Columns", exact=True)).to_have_value("6")
    expect(page.get_by_label("Ordering", exact=True)).to_have_value("warnsdorff")
    expect(page.get_by_label("Speed")).to_have_value("0")
    assert page.evaluate("() => [knightsTour.model.rows, knightsTour.model.cols]") == [6, 6]
    assert page.evaluate("() => knightsTour.store.settings.speed") == 1


def test_kept_searching_the_fields_show_the_run_again(page):
    step_events(page, 2)
    set_board(page, 6, 7)
    page.get_by_role("button", name="Keep searching").click()
    expect(page.get_by_label("Rows", exact=True)).to_have_value("5")
    expect(page.get_by_label("Columns", exact=True)).to_have_value("5")
    # A later change starts from the run's settings, not from the change dropped.
    page.get_by_label("Ordering", exact=True).select_option("warnsdorff")
    page.get_by_role("button", **END_AND_CHANGE).click()
    assert page.evaluate("() => [knightsTour.model.rows, knightsTour.model.cols]") == [5, 5]


def test_the_example_graph_starts_at_a(page):
    page.get_by_label("Start square", exact=True).fill("a1")  # square 20 of 5x5: F would be kept
    page.get_by_label("Start square", exact=True).press("Enter")
    expect(page.get_by_label("Start square", exact=True)).to_have_value("a1")
    page.get_by_label("The textbook's example graph (A to F)").check()
    page.get_by_role("button", name="Play").click()
    expect(page.get_by_role("status")).to_contain_text("Path found through all 6 vertices, A, ")
    # Back on the board, a vertex is no square: the board starts at its first.
    page.get_by_label("The knight's tour").check()
    expect(page.get_by_label("Start square", exact=True)).to_have_value("a5")


def test_a_link_to_the_example_graph_keeps_its_start(open_page):
    page = open_page("/?mode=example&start=C")
    page.get_by_role("button", name="Play").click()
    expect(page.get_by_role("status")).to_contain_text("No tour exists from C")


def test_the_example_graph_chosen_mid_run_starts_at_a(page):
    page.get_by_label("Start square", exact=True).fill("a1")
    page.get_by_label("Start square", exact=True).press("Enter")
    step_events(page, 2)
    page.get_by_label("The textbook's example graph (A to F)").check()
    # The board still shows the run, but a click on it chooses no vertex of the graph.
    page.locator("#board").click()  # its middle: c3, square 12
    page.get_by_role("button", **END_AND_CHANGE).click()
    page.get_by_role("button", name="Play").click()
    expect(page.get_by_role("status")).to_contain_text("Path found through all 6 vertices, A, ")


def test_stepping_forward_after_a_step_back_says_where_the_view_is(page):
    step_events(page, 5)
    status = page.get_by_role("status")
    for _ in range(2):
        page.get_by_role("button", name="Step back").click()
    expect(status).to_have_text("Stepped back to event 3: Step or Play to go forward again.")
    press(page.get_by_role("button", **STEP))
    page.wait_for_function("() => knightsTour.model.events === 4")
    expect(status).to_have_text("At event 4 of 5 received: Step or Play to go forward.")
    press(page.get_by_role("button", **STEP))
    page.wait_for_function("() => knightsTour.model.events === 5")
    expect(status).to_have_text("Paused: press Step to see the next move.")
    # The timeline moves the view too: the status says where it is, not where it was.
    page.get_by_role("button", name="Step back").click()
    page.get_by_label("Timeline").fill("1")
    expect(status).to_have_text("At event 1 of 5 received: Step or Play to go forward.")
    assert model(page, "events") == 1
    page.get_by_label("Timeline").fill("5")
    expect(status).to_have_text("Paused: press Step to see the next move.")
