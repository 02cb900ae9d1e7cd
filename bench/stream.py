"""Benchmark streaming the search into a real browser page, against a Python client and the engine."""

import argparse
import logging
import multiprocessing
import statistics
import sys
import time
from pathlib import Path

from common import time_engine
from playwright.sync_api import sync_playwright

from server import create_app
from tests.support.browser import CHROMIUM, FLAGS
from tests.support.clients import RecordingClient
from tests.support.page import READY, set_board
from tests.support.servers import LiveServer

FASTEST = "16"  # the Speed slider's last step, which asks the server for speed 0
THROUGHPUT = {"rows": 6, "cols": 6, "start": 0, "order": "naive"}
EXPECTED = {"visits": 183_635, "backtracks": 183_599, "tours": 1}
EXPECTED_EVENTS = sum(EXPECTED.values())
LATENCY = {"rows": 5, "cols": 5}
GOAL_RATE = 300_000  # events/s into the page
GOAL_FOUND_S = 1.5  # Play to "Tour found" on the throughput board
GOAL_FIRST_MS = 100  # Play to the first visit drawn

# Installed once per page: times Play clicks, the first frame after the first visit, and
# the moment the status says "Tour found". A MutationObserver stamps the status change
# when it happens, where polling would round it up to the next frame.
HOOK = """() => {
  const bench = window.__bench = { clickAt: null, firstVisitAt: null, foundAt: null };
  const status = document.getElementById('status');
  document.getElementById('play').addEventListener('click', () => {
    bench.clickAt = performance.now();
    bench.firstVisitAt = null;
    bench.foundAt = null;
    const frame = () => {
      if (window.knightsTour.model.visits >= 1) bench.firstVisitAt = performance.now();
      else requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  }, { capture: true });
  new MutationObserver(() => {
    if (bench.clickAt !== null && bench.foundAt === null
        && status.textContent.includes('Tour found')) bench.foundAt = performance.now();
  }).observe(status, { childList: true, characterData: true, subtree: true });
}"""
READ = """() => {
  const m = window.knightsTour.model;
  return { ...window.__bench, events: m.events, visits: m.visits, backtracks: m.backtracks,
           tours: m.tours, status: document.getElementById('status').textContent };
}"""


def client_runs(url, runs):
    """Stream the throughput run to a python-socketio client runs times; return the results."""
    client = RecordingClient(url)
    results = []
    try:
        for _ in range(runs):
            client.finished.clear()
            before = client.count()
            began = time.perf_counter()
            client.sio.emit("start", {**THROUGHPUT, "speed": 0})
            if not client.finished.wait(60):
                raise RuntimeError("the Python client's run did not finish within 60 s")
            seconds = time.perf_counter() - began
            counts = {key: client.result[key] for key in EXPECTED}
            results.append({"seconds": seconds, "events": client.count() - before, **counts})
    finally:
        client.close()
    return results


def engine_runs(runs):
    """Time draining the throughput run's generator runs times; return the seconds."""
    board = THROUGHPUT
    return [time_engine(board["rows"], board["cols"], board["start"], board["order"]) for _ in range(runs)]


def open_page(browser, url, problems):
    """Open the app, wait until Play is enabled and install the timing hook."""
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.on("pageerror", lambda exc: problems.append(str(exc)))
    page.on("console", lambda msg: msg.type == "error" and problems.append(msg.text))
    page.goto(url)
    page.wait_for_function(READY)
    page.evaluate(HOOK)
    return page


def play_until_found(page):
    """Click Play, wait for "Tour found" and return (Playwright's seconds, page's state)."""
    began = time.perf_counter()
    page.locator("#play").click()
    page.wait_for_function("window.__bench.foundAt !== null", timeout=60_000)
    seconds = time.perf_counter() - began
    return seconds, page.evaluate(READ)


def reset(page):
    """Press Reset and wait until the page is idle again."""
    page.get_by_role("button", name="Reset").click()
    page.wait_for_function("window.knightsTour.state === 'idle'")


def measure_throughput(page, runs):
    """Play the throughput board runs times; return one dict of figures per run."""
    set_board(page, THROUGHPUT["rows"], THROUGHPUT["cols"])
    page.get_by_label("Ordering").select_option("naive")
    page.get_by_label("Speed").fill(FASTEST)
    results = []
    for run in range(runs):
        if run:
            reset(page)
        wall, state = play_until_found(page)
        results.append(
            {
                "wall": wall,
                "in_page": (state["foundAt"] - state["clickAt"]) / 1000,
                **{key: state[key] for key in ("events", "visits", "backtracks", "tours", "status")},
            }
        )
    reset(page)
    return results


def measure_latency(page, runs):
    """Time Play to the first frame after the first visit runs times; return milliseconds."""
    set_board(page, LATENCY["rows"], LATENCY["cols"])
    page.get_by_label("Speed").fill(FASTEST)
    delays = []
    for _ in range(runs):
        page.locator("#play").click()
        page.wait_for_function("window.__bench.firstVisitAt !== null", timeout=10_000)
        # Letting the run end first keeps the next click free of a stop in flight.
        page.wait_for_function("window.__bench.foundAt !== null", timeout=60_000)
        state = page.evaluate(READ)
        delays.append(state["firstVisitAt"] - state["clickAt"])
        reset(page)
    return delays


def check_counts(name, figures):
    """Return a message if figures do not hold the throughput run's known counts."""
    got = {key: figures[key] for key in EXPECTED}
    if got != EXPECTED or figures["events"] != EXPECTED_EVENTS:
        return f"{name} received {figures['events']:,} events {got}, expected {EXPECTED_EVENTS:,} {EXPECTED}"
    return None


def verdict(ok):
    """Word a goal's outcome."""
    return "met" if ok else "NOT met"


def main(argv=None):
    """Run every measurement, print the figures and a summary; return the exit status."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3, help="throughput runs (default 3)")
    parser.add_argument("--latency-runs", type=int, default=5, help="latency runs (default 5)")
    args = parser.parse_args(argv)
    if args.runs < 1 or args.latency_runs < 1:
        parser.error("--runs and --latency-runs must be at least 1")
    if not Path(CHROMIUM).exists():
        print(f"Chromium not found at {CHROMIUM}: set $CHROMIUM or run `make system`", file=sys.stderr)
        return 2
    # werkzeug would log every request; only its warnings matter here.
    werkzeug_log = logging.getLogger("werkzeug")
    werkzeug_log.setLevel(logging.WARNING)
    # A client's last websocket frames reach werkzeug's HTTP parser once the socket closes.
    werkzeug_log.addFilter(lambda record: "Bad request" not in record.getMessage())

    board = f"{THROUGHPUT['rows']}x{THROUGHPUT['cols']} {THROUGHPUT['order']}"
    print(
        f"Streaming a knight's tour search: {board} from square {THROUGHPUT['start']}, "
        f"fastest speed; {EXPECTED_EVENTS:,} events = {EXPECTED['visits']:,} visits + "
        f"{EXPECTED['backtracks']:,} backtracks + {EXPECTED['tours']} found"
    )

    problems, failures = [], []
    server = LiveServer(create_app())
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
            try:
                print(f"Server {server.url}; Chromium {browser.version}")
                page = open_page(browser, server.url, problems)
                page_runs = measure_throughput(page, args.runs)
                delays = measure_latency(page, args.latency_runs)
                page.close()
            finally:
                browser.close()
        # A separate process, as the browser is: in this one it would share the server's GIL.
        with multiprocessing.get_context("spawn").Pool(1) as pool:
            py_runs = pool.apply(client_runs, (server.url, args.runs))
    finally:
        server.close()
    engine_times = engine_runs(args.runs)

    print(f'\nA. Throughput into the page ({board}, Play to "Tour found"), {args.runs} runs')
    print(f"  {'run':>3}  {'events':>9}  {'in page s':>9}  {'events/s':>10}  {'Playwright s':>12}")
    for number, run in enumerate(page_runs, 1):
        print(
            f"  {number:>3}  {run['events']:>9,}  {run['in_page']:>9.3f}  "
            f"{run['events'] / run['in_page']:>10,.0f}  {run['wall']:>12.3f}"
        )
        failures.append(check_counts(f"page run {number}", run))
        if "Tour found" not in run["status"]:
            failures.append(f"page run {number} ended with status {run['status']!r}")
    print(
        f"  visits {page_runs[0]['visits']:,}, backtracks {page_runs[0]['backtracks']:,}, "
        f"found {page_runs[0]['tours']}; status: {page_runs[0]['status']}"
    )

    print(f"\n   Python client (python-socketio, websocket, own process), {args.runs} runs")
    for number, run in enumerate(py_runs, 1):
        print(
            f"  {number:>3}  {run['events']:>9,}  {run['seconds']:>9.3f}  "
            f"{run['events'] / run['seconds']:>10,.0f}"
        )
        failures.append(check_counts(f"Python client run {number}", run))
    print(
        f"\n   Engine alone (deque(maxlen=0)), {args.runs} runs: "
        f"{', '.join(f'{s * 1000:.1f} ms' for s in engine_times)}"
    )

    print(
        f"\nB. Play to first visit drawn ({LATENCY['rows']}x{LATENCY['cols']}, fastest), "
        f"{args.latency_runs} runs: {', '.join(f'{d:.1f}' for d in delays)} ms"
    )

    page_best = min(run["in_page"] for run in page_runs)
    page_median = statistics.median(run["in_page"] for run in page_runs)
    wall_best = min(run["wall"] for run in page_runs)
    py_best = min(run["seconds"] for run in py_runs)
    py_median = statistics.median(run["seconds"] for run in py_runs)
    engine_best = min(engine_times)
    page_rate, py_rate = EXPECTED_EVENTS / page_best, EXPECTED_EVENTS / py_best
    first_median, first_max = statistics.median(delays), max(delays)

    print("\nSummary")
    rows = [
        ("page: events/s (best)", f"{page_rate:,.0f}", f">= {GOAL_RATE:,}", verdict(page_rate >= GOAL_RATE)),
        ("page: events/s (median)", f"{EXPECTED_EVENTS / page_median:,.0f}", "", ""),
        (
            "page: Play to Tour found (best)",
            f"{page_best:.3f} s",
            f"< {GOAL_FOUND_S} s",
            verdict(page_best < GOAL_FOUND_S),
        ),
        (
            "page: Play to Tour found (median)",
            f"{page_median:.3f} s",
            f"< {GOAL_FOUND_S} s",
            verdict(page_median < GOAL_FOUND_S),
        ),
        ("page: same, by Playwright (best)", f"{wall_best:.3f} s", "", ""),
        ("python client: events/s (best)", f"{py_rate:,.0f}", "", ""),
        ("python client: events/s (median)", f"{EXPECTED_EVENTS / py_median:,.0f}", "", ""),
        ("page / python client (best)", f"{page_rate / py_rate:.2f}x", "", ""),
        ("engine alone: events/s (ceiling)", f"{EXPECTED_EVENTS / engine_best:,.0f}", "", ""),
        ("page / engine alone (best)", f"{page_rate * engine_best / EXPECTED_EVENTS:.1%}", "", ""),
        (
            "first visit drawn (median)",
            f"{first_median:.1f} ms",
            f"< {GOAL_FIRST_MS} ms",
            verdict(first_median < GOAL_FIRST_MS),
        ),
        (
            "first visit drawn (max)",
            f"{first_max:.1f} ms",
            f"< {GOAL_FIRST_MS} ms",
            verdict(first_max < GOAL_FIRST_MS),
        ),
    ]
    for label, value, goal, outcome in rows:
        print(f"  {label:34} {value:>12}  {goal:>12}  {outcome}")

    failures = [failure for failure in failures if failure] + [
        f"page error: {problem}" for problem in problems
    ]
    for failure in failures:
        print(f"FAIL: {failure}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
