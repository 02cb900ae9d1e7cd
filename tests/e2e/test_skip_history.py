"""Skip to end keeps the events already played: step back and scrub still reach them, and what
the skip searched without sending is summed up on the timeline."""

from playwright.sync_api import expect

from tests.support.page import STEP, model, press, step_events, wait_for_events

PLAYED = 12


def test_skip_to_end_keeps_the_events_played_before_it(open_page):
    page = open_page("/?rows=5&cols=5&order=naive")
    step_events(page, PLAYED - 1)
    one_before = model(page, "path")
    step_events(page, 1)
    played = model(page, "path")
    page.get_by_role("button", name="Skip to end").click()
    status = page.get_by_role("status")
    expect(status).to_contain_text("Tour found")
    head = model(page, "events")
    timeline = page.get_by_label("Timeline")
    expect(page.locator("#timeline-out")).to_have_text(
        f"event {head:,} of {head:,}: the skip searched the {head - PLAYED:,} events before it"
        " without sending them"
    )
    # Back over the skip: to the last event played, as it was.
    page.get_by_role("button", name="Step back").click()
    wait_for_events(page, PLAYED)
    assert model(page, "path") == played
    expect(status).to_have_text(f"Stepped back to event {PLAYED}: Step or Play to go forward again.")
    page.get_by_role("button", name="Step back").click()
    wait_for_events(page, PLAYED - 1)
    assert model(page, "path") == one_before
    # Forward again: the event played, then over the skip to its end.
    press(page.get_by_role("button", **STEP))
    wait_for_events(page, PLAYED)
    assert model(page, "path") == played
    press(page.get_by_role("button", **STEP))
    wait_for_events(page, head)
    expect(status).to_contain_text("Tour found")
    # The timeline reaches the events played; a point the skip did not send goes to its nearer end.
    timeline.fill("5")
    wait_for_events(page, 5)
    timeline.fill(str(head - 3))
    wait_for_events(page, head)
    timeline.fill(str(PLAYED + 3))
    wait_for_events(page, PLAYED)
    page.keyboard.press("Home")
    wait_for_events(page, 0)
