"""Benchmark the code lab: a student's Python in Pyodide (the page's sandboxed worker, in
Chromium) against the same code in this machine's CPython, the page playing the student's run
against the server's stream of the same search, and Python's first load, cold and from cache."""

import argparse
import contextlib
import signal
import statistics
import sys
import time
from pathlib import Path

from common import ROOT
from lab_cases import EVENTS, GENERATOR, NAIVE
from pages import HOOK, READ, Served, reset, spread, stop_on_term, verdict
from playwright.sync_api import sync_playwright

from server.codelab.runner import Run
from tests.support.browser import CHROMIUM, FLAGS
from tests.support.page import FASTEST, READY, set_board

BOARD = {"rows": 6, "cols": 6, "start": 0}
GOAL_PYTHON = 0.8  # Pyodide's rate over CPython's on the same code, same run
GOAL_PAGE = 0.9  # the page playing the lab's run over playing the server's stream
GOAL_COLD_S, GOAL_CACHED_S = 4.0, 1.0
GOAL_STOP_MS = 200
LOADED = "() => knightsTour.store.lab.status === 'ready'"


def cpython_seconds(code):
    """Run code through the lab's runner in this process, as the worker does; return seconds."""
    run = Run(code, BOARD["rows"], BOARD["cols"], BOARD["start"], "naive")
    began = time.perf_counter()
    result = run.go(lambda codes, lines: 4096, 4096)
    seconds = time.perf_counter() - began
    assert result["events"] == EVENTS and result["differs"] is None, result
    return seconds


def open_lab(context, url):
    """Open the page with the lab on a fresh page of context; return it and the seconds Python took."""
    page = context.new_page()
    page.goto(f"{url}/?rows={BOARD['rows']}&cols={BOARD['cols']}&order=naive")
    page.wait_for_function(READY)
    page.evaluate(HOOK)
    began = time.perf_counter()
    page.get_by_label("Your own Python (the code lab)").check()
    page.wait_for_function(LOADED, polling=20, timeout=60_000)
    seconds = time.perf_counter() - began
    page.locator("#lab-exercise").select_option("naive")
    return page, seconds


def lab_run(page, code):
    """Play code in the lab at Fastest to its tour; return (seconds in the page, Python's own seconds)."""
    page.locator("#lab-code").fill(code)
    page.locator("#play").click()
    page.wait_for_function(
        "window.__bench.foundAt !== null && knightsTour.store.lab.result !== null",
        polling=50,
        timeout=120_000,
    )
    state = page.evaluate(READ)
    result = page.evaluate("knightsTour.store.lab.result")
    assert state["events"] == EVENTS and result["events"] == EVENTS and not result.get("differs"), (
        state,
        result,
    )
    seconds = (state["foundAt"] - state["clickAt"]) / 1000
    print(f"    (lab run: {seconds:.3f} s in the page, {result['seconds']:.3f} s of Python in the worker)")
    reset(page)
    return seconds


LOOP = "def main(rows, cols, start):\n    while True:\n        pass\n"
# Clicks Stop and times, in the page, until the board is idle and until the worker is ended (the
# lab says Python is loading again: a worker is made in its place).
STOP = """() => new Promise((done) => {
  const began = performance.now();
  let idle = null;
  document.getElementById('lab-stop').click();
  const look = () => {
    if (idle === null && knightsTour.state === 'idle') idle = performance.now() - began;
    if (knightsTour.store.lab.status === 'loading') done([idle, performance.now() - began]);
    else requestAnimationFrame(look);
  };
  look();
})"""


def stop_run(page):
    """Run a loop of the student's own, press Stop; return (ms to the board idle, ms to the worker ended)."""
    page.locator("#lab-code").fill(LOOP)
    page.locator("#play").click()
    page.wait_for_function("knightsTour.store.lab.quiet", timeout=10_000)
    times = page.evaluate(STOP)
    page.wait_for_function(LOADED, timeout=60_000)
    return times


def server_run(page):
    """Play the server's stream of the same search at Fastest; return seconds in the page."""
    page.locator("#play").click()
    page.wait_for_function("window.__bench.foundAt !== null", polling=50, timeout=60_000)
    state = page.evaluate(READ)
    assert state["events"] == EVENTS, state
    reset(page)
    return (state["foundAt"] - state["clickAt"]) / 1000


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3, help="runs of each measure (default 3)")
    args = parser.parse_args(argv)
    if not Path(CHROMIUM).exists():
        print(f"Chromium not found at {CHROMIUM}: set $CHROMIUM or run `make system`", file=sys.stderr)
        return 2
    signal.signal(signal.SIGTERM, stop_on_term)
    print(f"The code lab: {BOARD['rows']}x{BOARD['cols']} naive from square 0, {EVENTS:,} events, at Fastest")
    stops = []
    figures = {
        "cpython": [],
        "cpython_gen": [],
        "lab": [],
        "lab_gen": [],
        "server": [],
        "cold": [],
        "cached": [],
    }
    with contextlib.ExitStack() as stack:
        served = stack.enter_context(contextlib.closing(Served(ROOT)))
        playwright = stack.enter_context(sync_playwright())
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        stack.callback(browser.close)
        for _ in range(args.runs):
            context = browser.new_context(viewport={"width": 1280, "height": 800})
            page, cold = open_lab(context, served.url)
            figures["cold"].append(cold)
            again, cached = open_lab(context, served.url)
            figures["cached"].append(cached)
            again.close()
            set_board(page, BOARD["rows"], BOARD["cols"])
            page.get_by_label("Speed").fill(FASTEST)
            # In turns: CPython, the lab, the server's stream, each in the same run.
            figures["cpython"].append(cpython_seconds(NAIVE))
            figures["lab"].append(lab_run(page, NAIVE))
            figures["cpython_gen"].append(cpython_seconds(GENERATOR))
            figures["lab_gen"].append(lab_run(page, GENERATOR))
            stops.append(stop_run(page))
            page.get_by_label("Your own Python (the code lab)").uncheck()
            page.locator("#order").select_option("naive")
            figures["server"].append(server_run(page))
            context.close()
    best = {name: min(values) for name, values in figures.items()}
    print(f"\n  {'measure':<52} {'best s':>8}  {'all':>30}")
    names = {
        "cpython": "the book's code, naive, CPython (the lab's runner)",
        "lab": "the same in the lab: Pyodide, page taking every event",
        "cpython_gen": "a generator form, CPython (the lab's runner)",
        "lab_gen": "the same in the lab",
        "server": "the server's stream of the same search, same page",
        "cold": "Python's first load, cold (12 MB, fresh context)",
        "cached": "Python's load from the browser's cache",
    }
    for name, label in names.items():
        print(f"  {label:<52} {best[name]:>8.3f}  {', '.join(f'{v:.3f}' for v in figures[name]):>30}")
    python = [c / lab for c, lab in zip(figures["cpython"], figures["lab"], strict=True)]
    python_gen = [c / lab for c, lab in zip(figures["cpython_gen"], figures["lab_gen"], strict=True)]
    page_ratio = [s / lab for s, lab in zip(figures["server"], figures["lab"], strict=True)]
    print("\nSummary")
    print(
        f"  the book's code in the lab over CPython: {spread(python)} (goal {GOAL_PYTHON}x): "
        f"{verdict(statistics.median(python) >= GOAL_PYTHON)}"
    )
    print(
        f"  a generator form in the lab over CPython: {spread(python_gen)} (goal {GOAL_PYTHON}x): "
        f"{verdict(statistics.median(python_gen) >= GOAL_PYTHON)}"
    )
    print(
        f"  the page playing the lab's run over the server's stream: {spread(page_ratio)} "
        f"(goal {GOAL_PAGE}x): {verdict(statistics.median(page_ratio) >= GOAL_PAGE)}"
    )
    idle, ended = max(s[0] for s in stops), max(s[1] for s in stops)
    print(
        f"  Stop of a loop of the student's own: the board idle in {idle:.0f} ms, the worker ended in "
        f"{ended:.0f} ms at most (goal {GOAL_STOP_MS} ms): {verdict(ended <= GOAL_STOP_MS)}"
    )
    print(
        f"  Python's first load: cold {best['cold']:.2f} s (goal < {GOAL_COLD_S:g} s): "
        f"{verdict(best['cold'] < GOAL_COLD_S)}; from cache {best['cached']:.2f} s "
        f"(goal < {GOAL_CACHED_S:g} s): {verdict(best['cached'] < GOAL_CACHED_S)}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
