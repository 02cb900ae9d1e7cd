"""A class in real browsers through faults: the instructor offline, a second tab, a restart."""

import re

import pytest
from playwright.sync_api import expect

from server.class_events import classes
from tests.support.page import READY, STEP, set_board
from tests.support.waiting import wait_for

FOLLOWING = "() => knightsTour.store.klass.role === 'student' && knightsTour.store.connection === 'up'"
VIEWPORT = {"width": 1280, "height": 800}


def lead(context, url):
    """Open the app at url in a new page of context and start a class; return the page and its code."""
    page = context.new_page()
    page.goto(url)
    page.wait_for_function(READY)
    page.get_by_role("button", name="Start a class").click()
    shown = page.locator("#lead-code")
    expect(shown).to_have_text(re.compile(r"^[A-Z2-9]{5}$"))
    return page, shown.inner_text()


def end_class(page, site):
    """End the class page leads, as its instructor would, and wait until the server has."""
    page.get_by_role("button", name="End class").click()
    assert wait_for(lambda: len(classes(site.app)) == 0, 5), "the class outlived its end"


def play_slowly(page, events):
    """Play a 6x6 Warnsdorff search slowly and wait until page shows at least events events."""
    set_board(page, 6, 6)
    page.get_by_label("Ordering").select_option("warnsdorff")
    page.get_by_label("Speed").fill("5")  # 15 moves a second
    page.get_by_role("button", name="Play").click()
    page.wait_for_function(f"() => knightsTour.model.events >= {events}")


def events(page):
    """Return how many events page shows."""
    return page.evaluate("() => knightsTour.model.events")


@pytest.fixture
def students(open_page):
    """Return students(code, n): n students' pages following the class code."""
    return lambda code, n=2: [open_page(f"/?class={code}", until=FOLLOWING) for _ in range(n)]


@pytest.fixture
def site(serve):
    """Serve an app that notices within seconds a connection whose page went offline without a
    word (Chromium does not always close its socket when it goes offline)."""
    return serve({"PING_TIMEOUT": 3})


def test_the_instructor_goes_offline_and_takes_the_run_on_where_it_was(browser, site, students):
    classes(site.app).orphan_seconds = 120
    context = browser.new_context(viewport=VIEWPORT)
    try:
        page, code = lead(context, site.url)
        room = students(code)
        play_slowly(page, 5)
        run = page.evaluate("() => knightsTour.store.run && knightsTour.model.events")
        context.set_offline(True)
        expect(page.locator("#offline")).to_be_visible()
        for student in room:
            expect(student.locator("#status")).to_contain_text(
                "The instructor has disconnected", timeout=15_000
            )
        held = events(page)
        assert held >= run
        context.set_offline(False)
        # Back: the page takes its class and its run back where they were, paused.
        expect(page.locator("#class-note")).to_contain_text(f"You lead class {code} again")
        expect(page.locator("#status")).to_contain_text("Paused")
        expect(page.locator("#offline")).to_be_hidden()
        for student in room:
            expect(student.locator("#status")).to_contain_text("the instructor has paused")
        assert page.evaluate("() => knightsTour.model.events") >= held
        page.get_by_label("Speed").fill("12")  # 5000 moves a second: the class sees every one
        page.get_by_role("button", name="Play").click()
        expect(page.locator("#status")).to_contain_text("Tour found", timeout=20_000)
        path = page.evaluate("() => knightsTour.model.path")
        assert len(path) == 36
        for student in room:
            expect(student.locator("#status")).to_contain_text("Tour found")
            assert student.evaluate("() => knightsTour.model.path") == path
        # The instructor's page holds the whole search, from its first event: no gap to scrub over.
        assert events(page) == 37  # 36 visits and the tour found
        end_class(page, site)
    finally:
        context.close()


def test_a_second_tab_takes_the_class_and_the_first_follows(browser, site, students):
    context = browser.new_context(viewport=VIEWPORT)
    try:
        first, code = lead(context, site.url)
        (student,) = students(code, 1)
        # The same browser (the token is in its storage) opens the class's link in another tab.
        second = context.new_page()
        second.goto(f"{site.url}/?class={code}")
        second.wait_for_function(READY)
        expect(second.locator("#lead-code")).to_have_text(code)
        expect(first.locator("#class-note")).to_contain_text(f"Class {code} is now led from another tab")
        expect(first.locator("#status")).to_contain_text(f"Following class {code}")
        for name in ("Play", "Skip to end", "Reset"):
            expect(first.get_by_role("button", name=name, exact=True)).to_be_disabled()
        second.get_by_role("button", **STEP).click()
        for page in (first, student, second):
            page.wait_for_function("() => knightsTour.model.events === 1")
        expect(student.locator("#status")).to_contain_text("the instructor has paused")
        end_class(second, site)
    finally:
        context.close()


@pytest.fixture
def restarting(production):
    """Return a `python -m server` to restart, stopped after the test."""
    server = production()
    yield server
    server.close()


def test_a_class_goes_on_after_the_server_restarts(browser, restarting):
    contexts = [browser.new_context(viewport=VIEWPORT) for _ in range(3)]
    try:
        page, code = lead(contexts[0], restarting.url)
        room = [context.new_page() for context in contexts[1:]]
        for student in room:
            student.goto(f"{restarting.url}/?class={code}")
            student.wait_for_function(FOLLOWING)
        play_slowly(page, 4)
        page.get_by_role("button", name="Pause").click()
        for student in room:
            student.wait_for_function(f"() => knightsTour.model.events >= {events(page)}")
        held = events(page)

        restarting.restart()
        # Nobody clicks: the instructor's page opens the same class again, students rejoin it.
        expect(page.locator("#status")).to_contain_text(f"go on from event {held}", timeout=20_000)
        expect(page.locator("#lead-code")).to_have_text(code)
        for student in room:
            expect(student.locator("#status")).to_contain_text(f"Following class {code}", timeout=20_000)
            student.wait_for_function("() => knightsTour.store.connection === 'up'")
            assert events(student) == held
        page.get_by_label("Speed").fill("12")
        page.get_by_role("button", name="Play").click()
        expect(page.locator("#status")).to_contain_text("Tour found", timeout=20_000)
        path = page.evaluate("() => knightsTour.model.path")
        assert len(path) == 36 and events(page) == 37
        for student in room:
            expect(student.locator("#status")).to_contain_text("Tour found")
            assert student.evaluate("() => knightsTour.model.path") == path
            # Each kept the search from its first event: the rest followed on from where it was.
            assert student.evaluate("() => knightsTour.store.run.status") == "finished"
    finally:
        for context in contexts:
            context.close()
