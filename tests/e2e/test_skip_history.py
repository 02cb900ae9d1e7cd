"""Skip to end keeps the events already played: step back and scrub still reach them, and what
the skip searched without sending is summed up on the timeline."""

from playwright.sync_api import expect

from tests.support.page import STEP, model, press, step_events, wait_for_events

PLAYED = 12
# [first event, last event] of each stretch of the depth chart's buckets with none missing.
STRETCHES = """() => knightsTour.depthSamples().reduce((stretches, b) => {
  const last = stretches.at(-1);
  if (last && b.from <= last[1] + 1) last[1] = b.to;
  else stretches.push([b.from, b.to]);
  return stretches;
}, [])"""


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
    # The depth chart greys what the skip passed over, and says so, rather than draw a line of
    # depths across it that the page never saw.
    skipped = page.locator("#chart-skipped")
    expect(skipped).to_have_text("Grey: the events a skip passed over, which this page never received.")
    assert [stretch[0] for stretch in page.evaluate(STRETCHES)] == [0, head]
    # Back over the skip: to the last event played, as it was.
    page.get_by_role("button", name="Step back").click()
    wait_for_events(page, PLAYED)
    assert model(page, "path") == played
    expect(skipped).to_be_hidden()
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
    expect(skipped).to_be_visible()
    # The timeline reaches the events played; a point the skip did not send goes to its nearer end.
    timeline.fill("5")
    wait_for_events(page, 5)
    timeline.fill(str(head - 3))
    wait_for_events(page, head)
    timeline.fill(str(PLAYED + 3))
    wait_for_events(page, PLAYED)
    page.keyboard.press("Home")
    wait_for_events(page, 0)
