"""A class in real browsers through faults: the instructor offline or stalled, a second tab, a
restart, a server that stops or vanishes."""

import signal

import psutil
import pytest
from playwright.sync_api import expect

from server.classes.registry import classes
from tests.support.page import FOLLOWING, READY, STEP, lead, set_board
from tests.support.tap import Tap
from tests.support.waiting import wait_for

VIEWPORT = {"width": 1280, "height": 800}


def end_class(page, site):
    """End the class page leads, as its instructor would, and wait until the server has."""
    page.get_by_role("button", name="End class").click()
    assert wait_for(lambda: len(classes(site.app)) == 0, 5), "the class outlived its end"


def play_slowly(page, events, speed="5"):
    """Play a 6x6 Warnsdorff search (37 events) slowly and wait until page shows at least events
    events. speed: the Speed slider's step, an index into server.wire.SPEED_STEPS (5: 30 moves a
    second, 3: 10, 1: 2)."""
    set_board(page, 6, 6)
    page.get_by_label("Ordering", exact=True).select_option("warnsdorff")
    page.get_by_label("Speed").fill(speed)
    page.get_by_role("button", name="Play").click()
    page.wait_for_function(f"() => knightsTour.model.events >= {events}")


def events(page):
    """Return how many events page shows."""
    return page.evaluate("() => knightsTour.model.events")


def pause(page, room):
    """Pause the class's run on its instructor's page; return the events every page then shows."""
    page.get_by_role("button", name="Pause").click()
    # The room is told once the server has paused the run: the batches sent before are in.
    for student in room:
        expect(student.locator("#status")).to_contain_text("the instructor has paused")
    assert wait_for(lambda: len({events(each) for each in (page, *room)}) == 1, 5), "the pages disagree"
    return events(page)


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
        # 2 moves a second: the run must still be going when the server notices the page has
        # gone, which takes seconds on a busy machine (at 30 a second it could end meanwhile).
        play_slowly(page, 5, speed="1")
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


def test_a_class_goes_on_after_the_server_restarts(browser, restarting):
    contexts = [browser.new_context(viewport=VIEWPORT) for _ in range(3)]
    try:
        page, code = lead(contexts[0], restarting.url)
        room = [context.new_page() for context in contexts[1:]]
        for student in room:
            student.goto(f"{restarting.url}/?class={code}")
            student.wait_for_function(FOLLOWING)
        play_slowly(page, 4, speed="2")  # 5 moves a second: paused long before the tour's 37th
        held = pause(page, room)

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


STALLED = "waiting for the instructor's connection"
STOPPING = "The server is restarting or has stopped"
OFFLINE = "Offline: the connection to the server is down. Reconnecting…"


def play_long(page, speed="6"):
    """Play a search of an 8x8 board that lasts minutes (60 moves a second by default)."""
    set_board(page, 8, 8)
    page.get_by_label("Speed").fill(speed)
    page.get_by_role("button", name="Play").click()
    page.wait_for_function("() => knightsTour.model.events >= 20")


def follow(context, url, code):
    """Open the class code's link in a new page of context, following it; return the page."""
    student = context.new_page()
    student.goto(f"{url}/?class={code}")
    student.wait_for_function(FOLLOWING)
    return student


def expect_stopped(student):
    """Check that a student's board shows no search going on: Play, not Pause."""
    expect(student.locator("#play")).to_have_text("Play")
    assert student.evaluate("() => document.body.dataset.status") != "playing"


@pytest.fixture
def tapped(serve):
    """Serve an app, with a relay to it whose traffic can be held; return both."""
    # Pings every 0.25 s, answered within 20 s: the server would call a quiet page gone only
    # after 20 s; its stall is told well before.
    served = serve({"PING_TIMEOUT": 20})
    tap = Tap(int(served.url.rsplit(":", 1)[1]))
    yield served, tap
    tap.close()


def test_students_are_told_when_the_instructors_connection_stalls_and_when_it_is_back(browser, tapped):
    served, tap = tapped
    contexts = [browser.new_context(viewport=VIEWPORT) for _ in range(3)]
    try:
        # The instructor's page reaches the server through the relay; the students' directly.
        page, code = lead(contexts[0], tap.url)
        room = [follow(context, served.url, code) for context in contexts[1:]]
        play_long(page)
        for student in room:
            expect(student.locator("#status")).to_contain_text(f"Following class {code}: searching")
        # The instructor's network goes quiet: its acknowledgements stop reaching the server.
        tap.hold()
        for student in room:
            expect(student.locator("#status")).to_have_text(f"Following class {code}: {STALLED}…")
            expect_stopped(student)
        held = [events(student) for student in room]
        assert classes(served.app).find(code).instructor is not None, "told before the ping timeout"
        tap.release()
        # Back, the page acknowledges again: the run goes on for everyone, on the same connection.
        for student, before in zip(room, held, strict=True):
            expect(student.locator("#status")).to_contain_text(f"Following class {code}: searching")
            expect(student.locator("#play")).to_have_text("Pause")
            student.wait_for_function(f"() => knightsTour.model.events > {before + 5}")
        expect(page.locator("#offline")).to_be_hidden()
        end_class(page, served)
    finally:
        for context in contexts:
            context.close()


def test_a_displaced_tab_reloaded_after_a_restart_follows_and_the_leading_tab_keeps_the_run(
    browser, restarting
):
    teacher, other = (browser.new_context(viewport=VIEWPORT) for _ in range(2))
    try:
        first, code = lead(teacher, restarting.url)
        student = follow(other, restarting.url, code)
        # The same browser opens the class's link in another tab, which takes the class.
        second = teacher.new_page()
        second.goto(f"{restarting.url}/?class={code}")
        second.wait_for_function(READY)
        expect(second.locator("#lead-code")).to_have_text(code)
        expect(first.locator("#status")).to_contain_text(f"Following class {code}")
        play_long(second)
        held = pause(second, [first, student])

        restarting.restart()
        expect(second.locator("#status")).to_contain_text(f"go on from event {held}", timeout=20_000)
        # The displaced tab is reloaded (as the browser does with a tab it discarded, once shown
        # again): it follows the class, and the tab that leads it keeps it and its run.
        first.reload()
        first.wait_for_function(FOLLOWING)
        expect(first.locator("#follow-code")).to_have_text(code)
        expect(second.locator("#lead-code")).to_have_text(code)
        expect(second.locator("#class-note")).not_to_contain_text("now led from another tab")
        assert events(second) == held
        second.get_by_role("button", name="Play").click()
        for page in (first, student):
            page.wait_for_function(f"() => knightsTour.model.events > {held}", timeout=15_000)
            expect(page.locator("#status")).to_contain_text(f"Following class {code}: searching")
        assert events(second) > held
        second.get_by_role("button", name="End class").click()
    finally:
        teacher.close()
        other.close()


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_stopping_server_says_goodbye_and_every_page_shows_it(browser, restarting, stop):
    contexts = [browser.new_context(viewport=VIEWPORT) for _ in range(2)]
    try:
        page, code = lead(contexts[0], restarting.url)
        student = follow(contexts[1], restarting.url, code)
        play_long(page)
        expect(student.locator("#play")).to_have_text("Pause")
        restarting.process.send_signal(stop)  # a deploy's stop, or Ctrl-C
        for each in (page, student):
            expect(each.locator("#status")).to_contain_text(STOPPING)
            expect(each.locator("#offline")).to_have_text(OFFLINE)
        expect_stopped(student)
        assert restarting.process.wait(10) == 0
        restarting.restart()
        # Back, the pages reconnect by themselves: the class goes on from where it was.
        for each in (page, student):
            expect(each.locator("#offline")).to_be_hidden(timeout=20_000)
        expect(page.locator("#status")).to_contain_text("go on from event", timeout=20_000)
        expect(student.locator("#status")).to_contain_text(f"Following class {code}")
        page.get_by_role("button", name="End class").click()
    finally:
        for context in contexts:
            context.close()


@pytest.fixture
def vanishing(production):
    """Return a `python -m server` pinging every second, answered within one."""
    server = production("--ping-interval", "1", "--ping-timeout", "1")
    yield server
    for each in (server.process.pid, server.worker.pid):
        try:
            psutil.Process(each).resume()
        except psutil.NoSuchProcess:
            pass
    server.close()


def test_a_vanished_server_is_shown_within_the_ping_window(browser, vanishing):
    contexts = [browser.new_context(viewport=VIEWPORT) for _ in range(2)]
    processes = [psutil.Process(vanishing.process.pid), vanishing.worker.process]
    try:
        page, code = lead(contexts[0], vanishing.url)
        student = follow(contexts[1], vanishing.url, code)
        play_long(page)
        expect(student.locator("#play")).to_have_text("Pause")
        # The server stops answering and keeps its sockets open, as one whose network has gone.
        for each in processes:
            each.suspend()
        for each in (page, student):
            expect(each.locator("#offline")).to_have_text(OFFLINE)
            expect(each.locator("#status")).to_have_text("Connection to the server lost; reconnecting…")
        expect_stopped(student)
        for each in reversed(processes):
            each.resume()
        for each in (page, student):
            expect(each.locator("#offline")).to_be_hidden(timeout=20_000)
        expect(student.locator("#status")).to_contain_text(f"Following class {code}")
        page.get_by_role("button", name="End class").click()
    finally:
        for context in contexts:
            context.close()
