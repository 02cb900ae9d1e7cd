"""Browser fixtures: Debian's Chromium driven by Playwright, against a real server."""

import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from playwright.sync_api import expect, sync_playwright

from server.classes.registry import classes
from tests.support.browser import CHROMIUM, FLAGS
from tests.support.page import READY, artifact
from tests.support.servers import OtherSite
from tests.support.waiting import wait_for

VIEWPORT = {"width": 1280, "height": 800}


@pytest.fixture(scope="session")
def browser():
    """Launch Debian's Chromium once for all browser tests."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"Chromium not found at {CHROMIUM}: run `make test`, which installs it")
    # Playwright writes screenshots and downloads through its event loop's default executor,
    # whose threads would start in the first tests that save files and outlive them (the leak
    # check counts them): give the loop an executor of one thread, started with the browser.
    files = ThreadPoolExecutor(max_workers=1, thread_name_prefix="playwright-files")
    files.submit(lambda: None).result()
    manager = sync_playwright()
    playwright = manager.start()
    try:
        manager._loop.set_default_executor(files)
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield chromium
        chromium.close()
    finally:
        playwright.stop()
        files.shutdown()


@pytest.fixture
def instructor(open_page, site):
    """Open an instructor's page at projector size and start a class; end it after the test."""
    page = open_page("/?rows=5&cols=5&start=a5&order=naive&speed=1", viewport={"width": 1920, "height": 1080})
    page.get_by_role("button", name="Start a class").click()
    expect(page.locator("#lead-code")).to_have_text(re.compile(r"^[A-Z2-9]{7}$"))
    yield page
    if page.locator("#presenter-bar").is_visible():
        page.get_by_role("button", name="Leave presenter view").click()
    page.get_by_role("button", name="End class").click()
    assert wait_for(lambda: len(classes(site.app)) == 0, 5), "the class outlived its end"


@pytest.fixture
def site(serve):
    """Serve a fresh app for one browser test."""
    return serve()


@pytest.fixture
def page(browser, site, request):
    """Open the app in a fresh browser page and fail the test on any page error."""
    context = browser.new_context(viewport=VIEWPORT)
    problems = []
    try:
        opened = context.new_page()
        opened.on("pageerror", lambda exc: problems.append(str(exc)))
        opened.on("console", lambda msg: msg.type == "error" and problems.append(msg.text))
        opened.goto(site.url)
        opened.wait_for_function(READY)
        yield opened
        opened.screenshot(path=artifact(f"{request.node.name}.png"))
    finally:
        context.close()
    assert problems == []
    # Closing the page mid-run must end its run on the server.
    assert wait_for(lambda: site.active_runs() == 0, 10), "the page's run outlived the page"


@pytest.fixture
def open_page(browser, site):
    """Return a factory of more pages of the app, each in a browser context of its own (another
    browser, as far as the app can tell), all closed after the test.

    open_page(path="/", until=READY, viewport=..., **context options) opens site.url + path and
    waits until the JavaScript expression until holds.
    """
    contexts = []

    def open_page(path="/", until=READY, viewport=VIEWPORT, **options):
        context = browser.new_context(viewport=viewport, **options)
        contexts.append(context)
        opened = context.new_page()
        opened.goto(site.url + path)
        opened.wait_for_function(until)
        return opened

    yield open_page
    for context in contexts:
        context.close()


@pytest.fixture
def other_site():
    """Serve another site's pages (set other_site.pages[path] = html), closed after the test."""
    served = OtherSite()
    yield served
    served.close()


@pytest.fixture
def restarting(production):
    """Return a `python -m server` to restart, stopped after the test."""
    server = production()
    yield server
    server.close()
