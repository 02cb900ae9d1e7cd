"""Benchmark streaming the search into a real browser page, against a Python client, the engine
and (with --against) the page of another commit."""

import argparse
import contextlib
import multiprocessing
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import ROOT, time_engine
from pages import ON_TERM, READ, Served, open_page, reset, spread, stop_on_term, verdict
from playwright.sync_api import sync_playwright

from tests.support.browser import CHROMIUM, FLAGS
from tests.support.clients import RecordingClient
from tests.support.page import FASTEST, set_board

THROUGHPUT = {"rows": 6, "cols": 6, "start": 0, "order": "naive"}
EXPECTED = {"visits": 183_635, "backtracks": 183_599, "tours": 1}
EXPECTED_EVENTS = sum(EXPECTED.values())
LATENCY = {"rows": 5, "cols": 5}
GOAL_RATIO = 1.0  # the page's rate over the Python client's, measured in the same run
GOAL_FOUND_S = 0.6  # Play to "Tour found" on the throughput board
GOAL_FIRST_MS = 100  # Play to the first visit drawn


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


def play_until_found(page):
    """Click Play, wait for "Tour found" and return (Playwright's seconds, page's state)."""
    began = time.perf_counter()
    page.locator("#play").click()
    # The hook stamps the moment itself: polling now and then, not on every frame as by default,
    # leaves the page's frames to the page.
    page.wait_for_function("window.__bench.foundAt !== null", polling=50, timeout=60_000)
    seconds = time.perf_counter() - began
    return seconds, page.evaluate(READ)


def prepare_throughput(page):
    """Set the throughput board, its ordering and the fastest speed, as a user would."""
    set_board(page, THROUGHPUT["rows"], THROUGHPUT["cols"])
    page.locator("#order").select_option("naive")
    page.get_by_label("Speed").fill(FASTEST)


def throughput_run(page):
    """Play the throughput board once, then Reset; return the run's figures."""
    wall, state = play_until_found(page)
    reset(page)
    return {
        "wall": wall,
        "in_page": (state["foundAt"] - state["clickAt"]) / 1000,
        **{key: state[key] for key in ("events", "visits", "backtracks", "tours", "status")},
    }


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


@contextlib.contextmanager
def worktree(ref):
    """Yield (a checkout of commit ref in a temporary git worktree, its short name); remove it after."""
    name = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short", f"{ref}^{{commit}}"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    place = Path(tempfile.mkdtemp(prefix="stream-against-"))
    tree = place / "tree"

    def remove():
        git = ["git", "-C", str(ROOT), "worktree"]
        subprocess.run([*git, "remove", "--force", str(tree)], capture_output=True)
        subprocess.run([*git, "prune"], capture_output=True)
        shutil.rmtree(place, ignore_errors=True)

    ON_TERM.append(remove)
    try:
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), name],
            capture_output=True,
            check=True,
        )
        # The page's libraries are served from node_modules, which git does not hold.
        (tree / "node_modules").symlink_to(ROOT / "node_modules")
        yield tree, name
    finally:
        remove()


def main(argv=None):
    """Run every measurement, print the figures and an 8-line summary; return the exit status."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--runs", type=int, default=3, help="throughput runs of each page and the client (default 3)"
    )
    parser.add_argument("--latency-runs", type=int, default=5, help="latency runs (default 5)")
    parser.add_argument(
        "--seconds",
        type=float,
        default=40,
        help="start no further turn of throughput runs this many seconds after the start (default 40)",
    )
    parser.add_argument(
        "--against", metavar="REF", help="also measure the page of commit REF, in turns with this one"
    )
    args = parser.parse_args(argv)
    if args.runs < 1 or args.latency_runs < 1:
        parser.error("--runs and --latency-runs must be at least 1")
    if not Path(CHROMIUM).exists():
        print(f"Chromium not found at {CHROMIUM}: set $CHROMIUM or run `make system`", file=sys.stderr)
        return 2
    signal.signal(signal.SIGTERM, stop_on_term)
    began = time.monotonic()

    board = f"{THROUGHPUT['rows']}x{THROUGHPUT['cols']} {THROUGHPUT['order']}"
    print(
        f"Streaming a knight's tour search: {board} from square {THROUGHPUT['start']}, "
        f"fastest speed; {EXPECTED_EVENTS:,} events = {EXPECTED['visits']:,} visits + "
        f"{EXPECTED['backtracks']:,} backtracks + {EXPECTED['tours']} found"
    )

    problems, failures = [], []
    runs = {"this": [], "ref": []}
    py_runs, ref_name = [], None
    with contextlib.ExitStack() as stack:
        servers = {"this": stack.enter_context(contextlib.closing(Served(ROOT)))}
        if args.against:
            tree, ref_name = stack.enter_context(worktree(args.against))
            servers["ref"] = stack.enter_context(contextlib.closing(Served(tree)))
        # A separate process, as the browser is: the client's threads would share this one's GIL.
        pool = stack.enter_context(multiprocessing.get_context("spawn").Pool(1))
        playwright = stack.enter_context(sync_playwright())
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        stack.callback(browser.close)
        print(f"Chromium {browser.version}; this tree at {servers['this'].url}", end="")
        print(f", {ref_name} at {servers['ref'].url}" if ref_name else "")
        # Each page in a browser context of its own; the two take turns, starting in turn.
        pages = {}
        for side, server in servers.items():
            pages[side] = open_page(browser, server.url, problems)
            prepare_throughput(pages[side])
        for run in range(args.runs):
            if run and time.monotonic() - began > args.seconds:
                print(f"Stopped after {run} turns of throughput runs: {args.seconds:g} s had passed")
                break
            order = list(pages) if run % 2 == 0 else list(reversed(pages))
            for side in order:
                runs[side].append(throughput_run(pages[side]))
            py_runs += pool.apply(client_runs, (servers["this"].url, 1))
        delays = measure_latency(pages["this"], args.latency_runs)
    engine_times = engine_runs(len(py_runs))

    titles = {"this": "this tree's page", "ref": f"{ref_name}'s page"}
    print(f'\nA. Throughput ({board}, Play to "Tour found"), {len(py_runs)} runs each, in turns')
    print(f"  {'run':>3}  {'events':>9}  {'in page s':>9}  {'events/s':>10}  {'Playwright s':>12}")
    for side, side_runs in runs.items():
        if not side_runs:
            continue
        print(f"   {titles[side]}")
        for number, run in enumerate(side_runs, 1):
            print(
                f"  {number:>3}  {run['events']:>9,}  {run['in_page']:>9.3f}  "
                f"{run['events'] / run['in_page']:>10,.0f}  {run['wall']:>12.3f}"
            )
            failures.append(check_counts(f"{titles[side]}, run {number}", run))
            if "Tour found" not in run["status"]:
                failures.append(f"{titles[side]}, run {number}, ended with status {run['status']!r}")
    print("   Python client (python-socketio, websocket, own process), this tree's server")
    for number, run in enumerate(py_runs, 1):
        print(
            f"  {number:>3}  {run['events']:>9,}  {run['seconds']:>9.3f}  "
            f"{run['events'] / run['seconds']:>10,.0f}"
        )
        failures.append(check_counts(f"Python client run {number}", run))
    engine_best = min(engine_times)
    print(
        f"   Engine alone (deque(maxlen=0)): {', '.join(f'{s * 1000:.1f} ms' for s in engine_times)}, "
        f"{EXPECTED_EVENTS / engine_best:,.0f} events/s"
    )
    print(
        f"\nB. Play to first visit drawn ({LATENCY['rows']}x{LATENCY['cols']}, fastest), "
        f"{args.latency_runs} runs: {', '.join(f'{d:.1f}' for d in delays)} ms"
    )

    failures = [failure for failure in failures if failure] + [
        f"page error: {problem}" for problem in problems
    ]
    for failure in failures:
        print(f"FAIL: {failure}")

    this = [run["in_page"] for run in runs["this"]]
    py = [run["seconds"] for run in py_runs]
    best, py_best = min(this), min(py)
    ratio = py_best / best
    first_median, first_max = statistics.median(delays), max(delays)
    rate = lambda seconds: f"{EXPECTED_EVENTS / seconds:>9,.0f} events/s"  # noqa: E731
    print(f"\nSummary: {board}, {EXPECTED_EVENTS:,} events; best of {len(this)} runs each, in the same run")
    print(
        f"  this page      {rate(best)}  Play to Tour found {best:.3f} s "
        f"(median {statistics.median(this):.3f}; goal < {GOAL_FOUND_S} s: {verdict(best < GOAL_FOUND_S)})"
    )
    if ref_name:
        ref = [run["in_page"] for run in runs["ref"]]
        median = statistics.median(ref)
        print(
            f"  {ref_name} page   {rate(min(ref))}  Play to Tour found {min(ref):.3f} s (median {median:.3f})"
        )
    else:
        print("  another page   not measured: add --against REF (a commit) to compare")
    print(f"  python client  {rate(py_best)}  {py_best:.3f} s (median {statistics.median(py):.3f})")
    turns = spread([p / t for p, t in zip(py, this, strict=True)])
    print(
        f"  page / client  {ratio:.2f}x  (turn by turn {turns}; "
        f"goal >= {GOAL_RATIO}x: {verdict(ratio >= GOAL_RATIO)})"
    )
    if ref_name:
        print(
            f"  this / {ref_name}  {min(ref) / best:.2f}x faster  "
            f"(turn by turn {spread([r / t for r, t in zip(ref, this, strict=True)])}; {ref_name} / client "
            f"{py_best / min(ref):.2f}x)"
        )
    else:
        print("  this / another page: not measured")
    print(
        f"  first visit    {first_median:.1f} ms median, {first_max:.1f} ms max "
        f"(goal < {GOAL_FIRST_MS} ms: {verdict(first_max < GOAL_FIRST_MS)})"
    )
    checks = f"{len(failures)} FAILED (above)" if failures else "counts right in every run, no page error"
    print(f"  checks         {checks}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
