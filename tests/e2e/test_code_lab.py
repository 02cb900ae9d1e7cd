"""The code lab: a student's own Python, run in their browser and played on the board as the
server's runs are, checked against the engine's search, and kept in a sandbox from which it
reaches nothing: not the page, not its cookies, not this server or any other.

One server and one browser context serve the module: each test opens the lab again, from the
context's cache, and Pyodide loads once per page as a student's would.
"""

import re
import socket
import threading

import pytest
from playwright.sync_api import expect

from server.codelab.exercises import BOOK
from server.engine import knight_graph, knight_tour
from server.engine.search import compact
from tests.conftest import new_app
from tests.support.clients import RecordingClient
from tests.support.page import FASTEST, READY, rendered
from tests.support.servers import LiveServer
from tests.support.waiting import wait_for

LAPTOP = {"width": 1280, "height": 800}
SIZES = {
    "phone": {"width": 390, "height": 844},
    "laptop": LAPTOP,
    "projector": {"width": 1920, "height": 1080},
}
LOADED = "() => knightsTour.store.lab.status === 'ready'"
ENDED = "() => knightsTour.store.lab.result !== null"
PYTHON_MS = 90_000  # Pyodide's first load, on a machine busy with the rest of the suite


@pytest.fixture(scope="module")
def hall():
    """Serve one app for the module."""
    server = LiveServer(new_app())
    # Engine.IO's service thread starts with the first connection: here, not in the first test.
    RecordingClient(server.url).close()
    yield server
    server.close()


@pytest.fixture(scope="module")
def context(browser):
    """Return a browser context kept for the module: its cache keeps Pyodide's files."""
    made = browser.new_context(viewport=LAPTOP)
    yield made
    made.close()


@pytest.fixture
def lab(context, hall):
    """Return a function that opens the page at path with the lab loaded; the page is closed after
    the test, which fails on any error the page reports."""
    pages, problems = [], []

    def open_lab(path="/?code=book&rows=5&cols=5&start=a5", viewport=LAPTOP):
        page = context.new_page()
        pages.append(page)
        page.set_viewport_size(viewport)
        # The context is shared: what a page before kept (a language chosen) is not this test's.
        page.add_init_script("if (window === window.top) localStorage.clear();")
        page.on("pageerror", lambda exc: problems.append(str(exc)))
        page.on("console", lambda msg: msg.type == "error" and problems.append(msg.text))
        page.goto(hall.url + path)
        page.wait_for_function(READY)
        page.wait_for_function(LOADED, timeout=PYTHON_MS)
        return page

    yield open_lab
    for page in pages:
        page.close()
    assert problems == []


def events_of(rows, cols, start, order, **options):
    return compact(knight_tour(knight_graph(rows, cols), start, order, **options))


def path_at(events, n):
    """Return the path after the first n of events."""
    path = []
    for code in events[:n]:
        if code == "found":
            continue
        if code >= 0:
            path.append(code)
        else:
            path.pop()
    return path


def write(page, code):
    """Put code in the lab's editor, as typed."""
    page.locator("#lab-code").fill(code)


def test_the_page_loads_no_python_until_the_lab_is_opened_from_the_view_menu(browser, hall):
    context = browser.new_context(viewport=LAPTOP)
    try:
        page = context.new_page()
        asked = []
        page.on("request", lambda request: asked.append(request.url))
        page.goto(hall.url + "/?rows=5&cols=5")
        page.wait_for_function(READY)
        rendered(page, frames=2)
        assert not [url for url in asked if "pyodide" in url or "/lab/" in url]
        expect(page.locator("#lab")).to_be_hidden()
        page.get_by_label("Your own Python (the code lab)").check()
        page.wait_for_function(LOADED, timeout=PYTHON_MS)
        assert {url.split("?")[0].rsplit("/", 1)[1] for url in asked if "/vendor/pyodide/" in url} == {
            "pyodide.mjs",
            "pyodide.asm.mjs",
            "pyodide.asm.wasm",
            "python_stdlib.zip",
            "pyodide-lock.json",
        }
        # The link says the lab is open, so that a reload or a shared link opens it again.
        assert "code=book" in page.url
        expect(page.locator("#lab-code")).to_have_value(BOOK)
        expect(page.locator("#code-panel")).to_be_hidden()
        # An exercise sets up the board it is quick on, and the search's options.
        page.locator("#lab-exercise").select_option("closed")
        expect(page.locator("#start")).to_have_value("b6")
        assert page.evaluate("[knightsTour.store.settings.rows, knightsTour.store.settings.closed]") == [
            6,
            True,
        ]
        assert "code=closed" in page.url
        page.get_by_label("Your own Python (the code lab)").uncheck()
        expect(page.locator("#code-panel")).to_be_visible()
        assert "code=" not in page.url
    finally:
        context.close()


def test_the_books_code_unchanged_plays_the_engines_search_to_its_tour(lab):
    page = lab()
    page.locator("#speed").fill(FASTEST)
    page.locator("#play").click()
    page.wait_for_function("() => knightsTour.state === 'finished'", timeout=60_000)
    expected = events_of(5, 5, 0, "moves")
    expect(page.locator("#lab-verdict")).to_have_text(
        f"Your search matches the textbook's search as printed, event for event ({len(expected):,} events)."
    )
    assert page.evaluate("knightsTour.model.events") == len(expected)
    expect(page.locator("#status")).to_contain_text("Tour found")
    # The board holds every event: scrubbed back to any moment, it shows the engine's path then.
    for n in (1, 100, 5_000, len(expected) - 1):
        page.locator("#timeline").fill(str(n))
        page.wait_for_function(f"() => knightsTour.model.events === {n}")
        assert page.evaluate("knightsTour.model.path") == path_at(expected, n), n


def test_step_step_back_play_and_pause_work_mid_recursion_and_the_search_waits_for_the_page(lab):
    page = lab("/?code=warnsdorff&rows=6&cols=6&start=a6&speed=5")
    write(page, BOOK.replace("nbrList = list(u.getConnections())", "nbrList = orderByAvail(u)"))
    expected = events_of(6, 6, 0, "warnsdorff")
    for n in (1, 2, 3):
        page.locator("#step").click()
        page.wait_for_function(f"() => knightsTour.model.events === {n}")
    assert page.evaluate("knightsTour.model.path") == path_at(expected, 3)
    # The line lit is the student's own: the one that turned the square gray.
    lit = page.locator("#lab-shown .lit")
    expect(lit).to_have_text(re.compile(r"u\.setColor\('gray'\)"))
    page.locator("#back").click()
    page.wait_for_function("() => knightsTour.model.events === 2")
    assert page.evaluate("knightsTour.model.path") == path_at(expected, 2)
    page.locator("#play").click()
    page.wait_for_function("() => knightsTour.model.events >= 6")
    page.locator("#play").click()
    expect(page.locator("#play")).to_have_text("Play")
    held = page.evaluate("knightsTour.model.events")
    # Paused, nothing more is shown, and the worker is held with at most two batches of one event.
    rendered(page, frames=10)
    assert page.evaluate("knightsTour.model.events") == held
    assert page.evaluate("knightsTour.labWaiting") <= 2
    assert page.evaluate("knightsTour.model.path") == path_at(expected, held)


def test_a_long_search_at_a_steady_pace_keeps_at_most_two_batches_waiting(lab):
    # The book's move order on 6x6 takes 31,538,639 events: the worker must wait for the page.
    page = lab("/?code=book&rows=6&cols=6&start=a6&speed=1000")
    page.locator("#play").click()
    seen = []
    for _ in range(10):
        rendered(page, frames=6)
        seen.append(page.evaluate("knightsTour.labWaiting"))
    assert max(seen) <= 2 * 64, seen  # two batches of 64 events at this speed
    assert page.evaluate("knightsTour.model.events") > 0


def test_the_lab_plays_on_with_the_network_gone(lab):
    page = lab()
    page.context.set_offline(True)
    try:
        expect(page.locator("#offline")).to_be_visible()
        page.locator("#speed").fill(FASTEST)
        page.locator("#play").click()
        page.wait_for_function("() => knightsTour.state === 'finished'", timeout=60_000)
        expect(page.locator("#lab-verdict")).to_contain_text("Your search matches")
    finally:
        page.context.set_offline(False)


def test_the_lab_stands_aside_in_a_race_and_in_a_class_and_plays_again_after(lab, hall):
    page = lab()
    # A race's runs are the server's: the lab says so (its code can still be edited, for later),
    # and the code panel is the server's search's again.
    page.get_by_label("Race two orderings").check()
    expect(page.locator("#lab-status")).to_have_text(re.compile("choose “The knight's tour” under Show"))
    expect(page.locator("#code-panel")).to_be_visible()
    page.get_by_label("The knight's tour").check()
    # Leading a class, the page's runs are the class's: they go to the server, and the students see them.
    page.get_by_role("button", name="Start a class").click()
    expect(page.locator("#lab-status")).to_have_text(re.compile("Leave the class to run your code"))
    page.locator("#play").click()
    page.wait_for_function("() => knightsTour.model.events > 0")
    assert wait_for(lambda: hall.active_runs() == 1, 10), "the class's run is not the server's"
    page.get_by_role("button", name="End class").click()
    page.locator("#reset").click()
    expect(page.locator("#lab-status")).to_have_text("Python is ready: Play, Step and Speed run your code.")
    page.locator("#speed").fill(FASTEST)
    page.locator("#play").click()
    page.wait_for_function(ENDED, timeout=60_000)
    expect(page.locator("#lab-verdict")).to_contain_text("Your search matches")
    assert wait_for(lambda: hall.active_runs() == 0, 10)


def test_stop_ends_a_loop_of_the_students_own_and_the_page_answers_throughout(lab):
    page = lab()
    write(page, "def main(rows, cols, start):\n    while True:\n        pass\n")
    page.locator("#play").click()
    expect(page.locator("#lab-status")).to_have_text(
        "Your code is still running, with no move for 2 s.", timeout=10_000
    )
    # The page's own frames go on while the student's code loops in its worker.
    assert page.evaluate("() => new Promise((done) => requestAnimationFrame(() => done(true)))")
    # How soon it stops is bench/codelab.py's to measure (goal 200 ms): here, that it does.
    page.locator("#lab-stop").click()
    page.wait_for_function("() => knightsTour.state === 'idle'")
    expect(page.locator("#lab-status")).not_to_have_text(re.compile("still running"))
    # The worker was ended and made again: the next run plays.
    page.wait_for_function(LOADED, timeout=PYTHON_MS)
    write(page, BOOK)
    page.locator("#speed").fill(FASTEST)
    page.locator("#play").click()
    page.wait_for_function(ENDED, timeout=60_000)
    expect(page.locator("#lab-verdict")).to_contain_text("Your search matches")


def test_a_mistake_names_the_students_line_in_the_pages_language(lab):
    page = lab()
    write(page, "def main(rows, cols, start)\n    return True\n")
    page.locator("#play").click()
    page.wait_for_function(ENDED, timeout=30_000)
    expect(page.locator("#lab-verdict")).to_have_text(
        "Line 1: Python cannot read this: SyntaxError: expected ':'"
    )
    page.locator("#language").select_option("zh")
    expect(page.locator("#lab-verdict")).to_have_text(
        "第 1 行\uff1aPython 读不懂这段代码\uff1aSyntaxError: expected ':'"
    )
    expect(page.locator("#lab-exercise option").first).to_have_text("书中的搜索\uff08原样\uff09")


def test_a_wrong_warnsdorff_is_said_to_part_where_it_does(lab):
    page = lab("/?code=warnsdorff&rows=5&cols=5&start=a5&speed=0")
    wrong = BOOK.replace("nbrList = list(u.getConnections())", "nbrList = orderByAvail(u)").replace(
        "                if w.getColor() == 'white':\n                    c = c + 1",
        "                c = c + 1",
    )
    write(page, wrong)
    page.locator("#play").click()
    page.wait_for_function(ENDED, timeout=60_000)
    expect(page.locator("#lab-verdict")).to_have_text(
        re.compile(
            r"^At event \d+ you visited [a-e][1-5]; "
            r"the textbook's Warnsdorff search \(orderByAvail\) visited [a-e][1-5]\.$"
        )
    )
    # The board goes back to the moment before they part: the path both searches share.
    at = page.evaluate("knightsTour.store.lab.result.differs[0]")
    page.get_by_role("button", name=f"Show the board just before event {at + 1}").click()
    page.wait_for_function(f"() => knightsTour.model.events === {at}")
    assert page.evaluate("knightsTour.model.path") == path_at(events_of(5, 5, 0, "warnsdorff"), at)


class Listener:
    """A TCP port that counts the connections made to it: where hostile code would send things."""

    def __init__(self):
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.sock.settimeout(0.05)
        self.accepted = 0
        self.running = True
        self.thread = threading.Thread(target=self.serve, daemon=True, name="listener")
        self.thread.start()

    def serve(self):
        while self.running:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.accepted += 1
            conn.close()

    def close(self):
        self.running = False
        self.thread.join(5)
        self.sock.close()


HOSTILE = """import js
from pyodide.ffi import run_sync

def attempt(name, f):
    try:
        f()
        print(name, "reached")
    except BaseException as error:
        print(name, "refused", type(error).__name__)

def main(rows, cols, start):
    here, there = "{here}", "http://127.0.0.1:{port}/"
    attempt("fetch", lambda: run_sync(js.fetch(there)))
    attempt("fetch of the page's server", lambda: run_sync(js.fetch(here)))
    attempt("the real fetch", lambda: run_sync(js.WorkerGlobalScope.prototype.fetch.call(js.self, there)))
    attempt("document", lambda: js.document.cookie)
    attempt("eval", lambda: js.eval("1"))
    attempt("Function", lambda: js.Function("return 1")())
    def xhr():
        request = js.XMLHttpRequest.new()
        request.open("GET", there, False)
        request.send()
    attempt("XMLHttpRequest", xhr)
    attempt("importScripts", lambda: js.importScripts(there + "x.js"))
    attempt("open", lambda: js.open(there))
    attempt("localStorage", lambda: js.localStorage.getItem("badge"))
    attempt("indexedDB", lambda: js.indexedDB.open("x"))
    attempt("sendBeacon", lambda: js.navigator.sendBeacon(there, "x"))
    def blob():
        url = js.URL.createObjectURL(js.Blob.new(["x"]))
        run_sync(js.fetch(url))
    attempt("a Blob URL", blob)
    attempt("parent", lambda: js.parent.document)
    js.WebSocket.new("ws://127.0.0.1:{port}/")
    js.EventSource.new(there)
    # A forged message to the page: a tour found and a verdict of a search that never ran.
    js.postMessage(js.JSON.parse('{{"type": "done", "id": "lab-1", '
                                 '"result": {{"events": 1, "tours": 1, "path": [0], '
                                 '"tour": [0], "order": "moves", "matched": 1}}, "output": []}}'))
    return False
"""
REFUSED = [
    "fetch",
    "fetch of the page's server",
    "the real fetch",
    "document",
    "eval",
    "Function",
    "XMLHttpRequest",
    "importScripts",
    "open",
    "localStorage",
    "indexedDB",
    "sendBeacon",
    "a Blob URL",
    "parent",
]


def test_hostile_code_reaches_nothing_and_a_forged_message_is_not_heard(lab, hall):
    listener = Listener()
    try:
        page = lab()
        failed = []
        page.context.on("requestfailed", lambda request: failed.append(request.failure))
        write(page, HOSTILE.format(here=hall.url + "/", port=listener.port))
        page.locator("#play").click()
        page.wait_for_function(ENDED, timeout=30_000)
        printed = page.evaluate("knightsTour.store.lab.result.output")
        # Each refused: by its absence from the worker (AttributeError) or by the browser
        # (JsException; sendBeacon is either, as Python was started afresh or from its snapshot).
        assert [line.rsplit(" ", 1)[0] for line in printed] == [f"{name} refused" for name in REFUSED]
        absent = {"document", "open", "localStorage", "parent"}
        for name, line in zip(REFUSED, printed, strict=True):
            kinds = {"AttributeError"} if name in absent else {"JsException"}
            assert line.rsplit(" ", 1)[1] in (
                kinds | {"AttributeError"} if name == "sendBeacon" else kinds
            ), line
        # The page heard the worker's own end of the run, not the forgery: no event, no tour.
        expect(page.locator("#lab-verdict")).to_have_text(re.compile(r"^Your search ended after 0 events"))
        assert page.evaluate("knightsTour.model.events") == 0
        # Nothing reached the other port: the policy refused each connection before it was made.
        rendered(page, frames=10)
        assert listener.accepted == 0
        # The page's cookies (its badge) are the page's: the sandbox's frame has none.
        frame = page.frame_locator("iframe[src='/lab/sandbox']")
        assert (
            frame.locator("html").evaluate("() => { try { return document.cookie; } catch { return null; } }")
            is None
        )
    finally:
        listener.close()


def test_the_lab_fits_a_phone_a_laptop_and_a_projector(lab):
    page = lab()
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        rendered(page, frames=2)
        editor = page.locator(".editor").bounding_box()
        assert editor["width"] >= min(300, viewport["width"] - 40), size
        assert editor["x"] >= 0 and editor["x"] + editor["width"] <= viewport["width"], size
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"], size
    page.locator("#speed").fill(FASTEST)
    page.locator("#play").click()
    page.wait_for_function(ENDED, timeout=60_000)
    expect(page.locator("#lab-verdict")).to_be_visible()
