"""A class tournament in real browsers: the instructor opens it, three students compose and
enter orderings (one on a phone), the standings rank them as the engine's searches end, and the
instructor hides a nickname, watches and races entries, downloads the CSV, closes the entries,
and gets it all back after the server restarts."""

import csv
import io
import re
from pathlib import Path

from playwright.sync_api import expect

from server.engine.survey import cell
from tests.support.page import FOLLOWING, artifact, lead
from tests.support.page import open_tournament as open_tournament_with
from tests.support.waiting import wait_for

SIDES = range(5, 13)  # the tournament's boards, from a corner
BUDGET = 2_000
PHONE = {"width": 390, "height": 844}
ENTRIES = [("onward,-corner", "Ada", PHONE), ("naive", "Bo", None), ("warnsdorff", "", None)]


def standing(order):
    """Return (clean boards, backtracks in all) of an ordering, each board searched by the engine."""
    ends = [cell(n, n, 0, order, 0, BUDGET) for n in SIDES]
    return sum(end["outcome"] == "clean" for end in ends), sum(end["backtracks"] for end in ends)


def open_tournament(page):
    open_tournament_with(page, smallest=SIDES[0], largest=SIDES[-1], budget=BUDGET)
    expect(page.locator("#tournament-status")).to_contain_text("entries are open")


def enter(student, order, name):
    """Compose an ordering in the student's composer and enter it under a nickname."""
    student.locator("#composer > summary").click()
    student.get_by_label("Written form").fill(order)
    student.get_by_label("Written form").press("Enter")
    if name:
        student.get_by_label("Your nickname (optional)").fill(name)
    student.get_by_role("button", name="Enter this ordering").click()
    expect(student.locator("#tournament-note")).to_have_text("Your ordering is entered.")


def row_of(page, name):
    """Return the standings row of the entry with that nickname (as its row's header shows it)."""
    return page.locator("#tournament-rows tr").filter(
        has=page.locator("th", has_text=re.compile(f"^{name}$"))
    )


def names_in_order(page):
    return page.locator("#tournament-rows th").all_inner_texts()


def test_a_class_tournament_from_entries_to_standings_csv_and_a_restart(browser, restarting):
    contexts = []
    try:
        contexts.append(browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True))
        page, code = lead(contexts[0], restarting.url)
        room = []
        for _, _, viewport in ENTRIES:
            contexts.append(browser.new_context(viewport=viewport or {"width": 1280, "height": 900}))
            student = contexts[-1].new_page()
            student.goto(f"{restarting.url}/?class={code}")
            student.wait_for_function(FOLLOWING)
            room.append(student)
        # The students are there when it opens: their entries are the tournament's, not late ones.
        open_tournament(page)
        expect(page.locator("#tournament-status")).to_contain_text("3 students were present when it opened")
        for student, (order, name, _) in zip(room, ENTRIES, strict=True):
            expect(student.locator("#tournament")).to_have_attribute("open", "")
            enter(student, order, name)

        total = len(ENTRIES) * len(SIDES)
        expect(page.locator("#tournament-status")).to_contain_text(
            f"Boards searched: {total} of {total}.", timeout=30_000
        )
        # Ranked as the engine's own searches rank them: more clean boards, then fewer backtracks.
        scores = {name or "anonymous": standing(order) for order, name, _ in ENTRIES}
        ranked = sorted(scores, key=lambda name: (-scores[name][0], scores[name][1]))
        assert names_in_order(page) == ranked
        for student, (_, name, _) in zip(room, ENTRIES, strict=True):
            clean, backtracks = scores[name or "anonymous"]
            rank = ranked.index(name or "anonymous") + 1
            words = f"{clean} of {len(SIDES)} boards without a backtrack, {backtracks:,} backtracks in all."
            expect(student.locator("#tournament-mine")).to_have_text(f"You are {rank} of 3: {words}")
            expect(student.locator("#tournament-cells li")).to_have_count(len(SIDES))
            expect(student.locator(".tournament-me th")).to_contain_text("(you)")
        room[0].screenshot(path=artifact("tournament_phone.png"), full_page=True)

        # The instructor hides a nickname: every page shows the entry without it.
        row_of(page, "Bo").get_by_role("button", name=re.compile("^Hide name")).click()
        for student in room[::2]:
            expect(student.locator("#tournament-rows")).to_contain_text("(name hidden)")
            expect(student.locator("#tournament-rows")).not_to_contain_text("Bo")

        # The standings as CSV: one row per entry, best first.
        with page.expect_download() as download:
            page.get_by_role("button", name="Standings as CSV").click()
        rows = list(csv.DictReader(io.StringIO(Path(download.value.path()).read_text())))
        assert [row["nickname"] or "Bo" for row in rows] == ranked
        assert [(int(row["clean"]), int(row["backtracks"])) for row in rows] == [
            scores[name] for name in ranked
        ]
        assert {row["ordering"] for row in rows} == {"onward,-corner", "naive", "warnsdorff"}

        # An entry set up on the board for the class, then raced against another.
        row_of(page, "Ada").get_by_role("button", name=re.compile("^Watch")).click()
        assert page.evaluate("() => knightsTour.store.settings.order") == "onward,-corner"
        row_of(page, "anonymous").get_by_role("button", name=re.compile("^Race")).click()
        assert page.evaluate(
            "() => [knightsTour.store.settings.mode, knightsTour.store.settings.versus]"
        ) == ["race", "warnsdorff"]
        page.get_by_role("button", name="Play").click()
        room[1].wait_for_function("() => knightsTour.store.settings.mode === 'race'")
        assert room[1].evaluate("() => knightsTour.store.settings.order") == "onward,-corner"

        page.set_viewport_size({"width": 1920, "height": 1080})
        page.get_by_role("button", name="Presenter view").click()
        expect(page.locator("#tournament")).to_be_visible()
        page.screenshot(path=artifact("tournament_projector.png"))
        page.get_by_role("button", name="Leave presenter view").click()

        # The server restarts: the instructor's page brings the tournament back, its entries searched again.
        before = names_in_order(page)
        restarting.restart()
        expect(page.locator("#tournament-note")).to_have_text(
            "The tournament is back after the server restarted: its entries are searched again.",
            timeout=20_000,
        )
        expect(page.locator("#tournament-status")).to_contain_text(
            f"Boards searched: {total} of {total}.", timeout=30_000
        )
        assert names_in_order(page) == before
        for student in room:
            student.wait_for_function(FOLLOWING, timeout=20_000)
            expect(student.locator("#tournament-mine")).to_contain_text("of 3:", timeout=20_000)
        expect(room[0].locator("#tournament-rows")).to_contain_text("(name hidden)")

        # Closed: nobody enters any more; a late joiner still sees the standings.
        page.get_by_role("button", name="Close the entries").click()
        for student in room:
            expect(student.locator("#tournament-status")).to_contain_text("entries are closed")
            expect(student.get_by_role("button", name="Enter this ordering")).to_be_disabled()
        contexts.append(browser.new_context(viewport={"width": 1280, "height": 900}))
        late = contexts[-1].new_page()
        late.goto(f"{restarting.url}/?class={code}")
        late.wait_for_function(FOLLOWING)
        expect(late.locator("#tournament-rows tr")).to_have_count(3)
        expect(late.locator("#tournament-mine")).to_have_text("You have not entered an ordering yet.")
        page.get_by_role("button", name="End class").click()
    finally:
        for context in contexts:
            context.close()


def test_space_plays_after_a_click_on_the_tournaments_heading_and_enter_still_folds_it(instructor):
    page = instructor
    heading = page.locator("#tournament > summary")
    heading.click()
    expect(page.locator("#tournament")).to_have_attribute("open", "")
    page.keyboard.press("Space")
    page.wait_for_function("() => knightsTour.state === 'playing'")
    expect(page.locator("#tournament")).to_have_attribute("open", "")  # Space did not fold it
    page.keyboard.press("Space")
    page.wait_for_function("() => knightsTour.state === 'paused'")
    page.keyboard.press("Enter")
    expect(page.locator("#tournament")).not_to_have_attribute("open", "")


# Ten entries of the same shape a class sends: the standings' first ten, each under a nickname.
TEN = [
    "warnsdorff",
    "naive",
    "onward,-centre",
    "-start,onward",
    "index",
    "random",
    "onward,start",
    "-edge,onward",
    "corner,onward",
    "centre,onward",
]

# The race's boards, the screen less the side column, and each standings row's box and type size.
RACE_LAYOUT = """() => {
  const box = (el) => el.getBoundingClientRect();
  const rows = [...document.querySelectorAll('#tournament-rows tr')];
  return {
    boards: ['board', 'board-second'].map((id) => box(document.getElementById(id)).width),
    room: box(document.querySelector('.layout')).width - box(document.getElementById('panel')).width,
    rem: parseFloat(getComputedStyle(document.documentElement).fontSize),
    lesson: document.querySelector('.lesson').checkVisibility(),
    rows: rows.map((row) => {
      const { top, bottom, left, right } = box(row);
      const clip = box(row.closest('.tournament'));
      // Shown whole: on the screen, and not cut off by a scroll box of the tournament's own.
      const whole = top >= 0 && bottom <= innerHeight && right <= innerWidth && left >= 0
        && top >= clip.top && bottom <= clip.bottom + 0.5;
      return { whole, size: parseFloat(getComputedStyle(row.cells[0]).fontSize) };
    }),
  };
}"""


def test_a_race_on_the_projector_with_the_tournament_open_keeps_large_boards_and_ten_readable_rows(
    instructor, site, connect
):
    page = instructor
    code = page.locator("#lead-code").inner_text()
    page.locator("#mode input[value=race]").check()
    open_tournament_with(page, smallest=5, largest=6, budget=100)
    for i, order in enumerate(TEN):
        student = connect(site.url)
        assert student.call("class_join", {"code": code})["ok"]
        assert student.call("tournament_enter", {"order": order, "name": f"Student {i + 1}"})["ok"]
    expect(page.locator("#tournament-rows tr")).to_have_count(10)
    page.get_by_role("button", name="Presenter view").click()
    for size in ({"width": 1920, "height": 1080}, {"width": 1280, "height": 720}):
        page.set_viewport_size(size)

        def laid_out():
            layout = page.evaluate(RACE_LAYOUT)
            fits = min(layout["boards"]) >= 0.4 * layout["room"] and len(layout["rows"]) == 10
            return layout if fits and all(row["whole"] for row in layout["rows"]) else None

        assert wait_for(laid_out, 5), f"at {size}: {page.evaluate(RACE_LAYOUT)}"
        layout = laid_out()
        assert not layout["lesson"], "the lesson's row stayed beside the standings"
        # Type of a size the projector's whole text has (20 px at 1080p): readable from the back.
        assert all(row["size"] >= layout["rem"] - 0.01 for row in layout["rows"]), layout
    # Folded, the tournament gives the lesson its row back.
    page.locator("#tournament > summary").click()
    expect(page.locator(".lesson")).to_be_visible()


def test_an_ordering_a_student_named_is_entered_under_that_name_for_the_whole_class(instructor, open_page):
    page = instructor
    code = page.locator("#lead-code").inner_text()
    open_tournament_with(page, smallest=5, largest=6, budget=100)
    ann, bo = (open_page(f"/?class={code}", until=FOLLOWING) for _ in range(2))
    ann.locator("#composer > summary").click()
    ann.get_by_label("Written form").fill("-start,onward")
    ann.get_by_label("Written form").press("Enter")
    ann.get_by_label("Its name (optional)").fill("Away from start")
    ann.get_by_role("button", name="Use this ordering").click()
    ann.get_by_role("button", name="Enter this ordering").click()
    expect(ann.locator("#tournament-note")).to_have_text("Your ordering is entered.")
    # The other student, and the instructor, read the name Ann gave it (with its written form).
    for other in (bo, page):
        expect(other.locator("#tournament-rows .col-order")).to_have_text("Away from start -start,onward")


def test_a_late_comers_entry_is_ranked_apart_and_the_instructor_removes_it(instructor, open_page):
    page = instructor
    code = page.locator("#lead-code").inner_text()
    there = open_page(f"/?class={code}", until=FOLLOWING)
    open_tournament_with(page, smallest=5, largest=6, budget=100)
    late = open_page(f"/?class={code}", until=FOLLOWING)
    late.get_by_role("button", name="Enter this ordering").click()
    there.get_by_role("button", name="Enter this ordering").click()
    for each in (late, there):
        expect(each.locator("#tournament-note")).to_have_text("Your ordering is entered.")
    status = page.locator("#tournament-status")
    expect(status).to_contain_text("1 student was present when it opened; 1 entered.")
    expect(status).to_contain_text("1 late entry (joined after it opened), ranked apart.")
    rows = page.locator("#tournament-rows tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0).locator(".col-rank")).to_have_text("1")
    expect(rows.nth(1).locator(".col-rank")).to_have_text("1 (late)")
    expect(late.locator("#tournament-mine")).to_contain_text("ranked apart, 1 of 1 late entries")
    rows.nth(1).get_by_role("button", name="Remove the entry ranked 1 (late)").click()
    expect(page.locator("#tournament-note")).to_contain_text("The entry is removed")
    for each in (page, late, there):
        expect(each.locator("#tournament-rows tr")).to_have_count(1)
    late.get_by_role("button", name="Enter this ordering").click()
    expect(late.locator("#tournament-note")).to_have_text(
        "The instructor removed your entry: you cannot enter this tournament again."
    )
