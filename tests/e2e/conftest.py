"""Browser fixtures: Debian's Chromium driven by Playwright, against a real server."""

import os
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

from server import create_app

from ..conftest import LiveServer, wait_for

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="session")
def browser():
    """Launch Debian's Chromium once for all browser tests."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"Chromium not found at {CHROMIUM}: run `make test`, which installs it")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield chromium
        chromium.close()


@pytest.fixture
def site():
    """Serve a fresh app for one browser test."""
    server = LiveServer(create_app({"TESTING": True}))
    yield server
    server.close()


@pytest.fixture
def page(browser, site, request):
    """Open the app in a fresh browser page and fail the test on any page error."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    opened = context.new_page()
    problems = []
    opened.on("pageerror", lambda exc: problems.append(str(exc)))
    opened.on("console", lambda msg: msg.type == "error" and problems.append(msg.text))
    opened.goto(site.url)
    opened.get_by_role("button", name="Play").wait_for()
    opened.wait_for_function("!document.getElementById('play').disabled")
    yield opened
    ARTIFACTS.mkdir(exist_ok=True)
    opened.screenshot(path=str(ARTIFACTS / f"{request.node.name}.png"))
    context.close()
    assert problems == []
    # Closing the page mid-run must end its run on the server.
    assert wait_for(lambda: site.active_runs() == 0, 10), "the page's run outlived the page"
