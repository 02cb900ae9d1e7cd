"""Benchmark the search tree beside the board: the page's rate with the tree in sight against the
same page with it hidden, in turns in the same run; the tree's own memory; and what drawing the
whole tree costs a frame. Then the same search skipped to its end: the tree its outline makes,
its memory and a frame's drawing."""

import argparse
import contextlib
import json
import signal
import statistics
import sys
from pathlib import Path

from common import EXPECTED as KNOWN
from pages import READ, Served, open_page, reset, spread, stop_on_term, verdict
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import sync_playwright

from tests.support.browser import CHROMIUM, FLAGS
from tests.support.page import FASTEST, set_board

VIEWPORT = {"width": 1280, "height": 1500}  # the board and the tree both in sight
GOAL_RATE = 0.9  # the page's rate with the tree in sight, over its rate with it hidden
GOAL_FRAME_MS = 8  # drawing the whole tree, a frame
GOAL_HEAP_MB = 64  # the tree's own memory

# () => the tree's own memory in bytes: a depth and a square a node (typed arrays, whole chunks) and the
# lowest and highest depth of each block, level by level (arrays of small integers, 4 bytes each
# with V8's compressed pointers; 8 without).
TREE_BYTES = """() => {
  const tree = knightsTour.tree;
  const blocks = tree.low.reduce((n, level) => n + 2 * level.length, 0);
  const depths = [...tree.chunks, ...tree.squareChunks].reduce((n, c) => n + c.byteLength, 0);
  return { nodes: tree.size, exact: tree.exact, depths, blocks,
           stretches: tree.stretches ? tree.stretches.from.length : 0 };
}"""

# (times) => milliseconds each of `times` drawings of the whole tree takes, into a canvas of the
# panel's size, by the page's own painter (the frame's work when the tree is drawn).
DRAW = """async (times) => {
  const { TreePainter } = await import('/static/js/paint/tree.js');
  const tree = knightsTour.tree, m = knightsTour.model;
  const { width, height } = document.getElementById('tree-picture').getBoundingClientRect();
  const ratio = devicePixelRatio;
  const canvas = new OffscreenCanvas(Math.round(width * ratio), Math.round(height * ratio));
  const ctx = canvas.getContext('2d');
  ctx.scale(ratio, ratio);
  const painter = new TreePainter(ctx);
  const data = { tree, visits: m.visits, known: tree.size, length: m.path.length, squares: m.squares,
                 from: 0, to: tree.size, pointed: -1, parting: -1 };
  const ms = [];
  for (let i = 0; i < times; i++) {
    const began = performance.now();
    painter.draw(data, width, height);
    ms.push(performance.now() - began);
  }
  return ms;
}"""

IN_SIGHT = """() => {
  const box = document.getElementById('tree-picture').getBoundingClientRect();
  return box.height > 0 && box.top >= 0 && box.bottom <= innerHeight;
}"""


def prepare(page, rows, cols, shown):
    """Set the board, naive order and fastest speed; show the tree in sight, or hide it."""
    set_board(page, rows, cols)
    page.locator("#order").select_option("naive")
    page.get_by_label("Speed").fill(FASTEST)
    if shown:
        page.locator("#tree-picture").scroll_into_view_if_needed()
        page.wait_for_function(IN_SIGHT)
    else:
        page.evaluate("document.querySelector('section[data-panel=tree]').hidden = true")


def play(page, timeout):
    """Click Play and wait up to timeout seconds for "Tour found"; return the page's state."""
    page.locator("#play").click()
    page.wait_for_function("window.__bench.foundAt !== null", polling=200, timeout=timeout * 1000)
    return page.evaluate(READ)


def skip(page, timeout):
    """Click Skip to end and wait up to timeout seconds for "Tour found"; return the seconds."""
    began = page.evaluate("performance.now()")
    page.get_by_role("button", name="Skip to end").click()
    page.wait_for_function(
        "document.getElementById('status').textContent.includes('Tour found')",
        polling=200,
        timeout=timeout * 1000,
    )
    return (page.evaluate("performance.now()") - began) / 1000


def traced(browser, page, seconds, timeout):
    """Play with the tree in sight under Chromium's performance trace for its first `seconds`
    (or to its end); return the milliseconds each animation frame's callbacks took (the page
    draws the board, the panels and the tree in one), and wait for the run's end."""
    browser.start_tracing(page=page, categories=["devtools.timeline"])
    page.locator("#play").click()
    with contextlib.suppress(PlaywrightTimeout):
        page.wait_for_function("window.__bench.foundAt !== null", polling=200, timeout=seconds * 1000)
    trace = json.loads(browser.stop_tracing())
    page.wait_for_function("window.__bench.foundAt !== null", polling=200, timeout=timeout * 1000)
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    return [
        event["dur"] / 1000
        for event in events
        if event.get("name") == "FireAnimationFrame" and "dur" in event
    ]


def heap_used(page):
    """Return the page's JavaScript heap in use, in bytes, after a garbage collection."""
    cdp = page.context.new_cdp_session(page)
    try:
        cdp.send("HeapProfiler.collectGarbage")
        return cdp.send("Runtime.getHeapUsage")["usedSize"]
    finally:
        cdp.detach()


def main(argv=None):
    """Run the turns, print each run and a summary; return the exit status."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--size", type=int, default=6, help="the board's side, naive from a corner (default 6)"
    )
    parser.add_argument(
        "--runs", type=int, default=3, help="turns of a run with and without the tree (default 3)"
    )
    parser.add_argument("--timeout", type=float, default=600, help="seconds a run may take (default 600)")
    parser.add_argument(
        "--trace-seconds", type=float, default=10, help="seconds of a run traced for its frames (default 10)"
    )
    args = parser.parse_args(argv)
    if not Path(CHROMIUM).exists():
        print(f"Chromium not found at {CHROMIUM}: set $CHROMIUM or run `make system`", file=sys.stderr)
        return 2
    signal.signal(signal.SIGTERM, stop_on_term)
    known = KNOWN.get((args.size, "naive"))
    problems, failures, runs = [], [], {"shown": [], "hidden": []}
    draws, memory = [], None
    with contextlib.ExitStack() as stack:
        server = stack.enter_context(contextlib.closing(Served(Path(__file__).resolve().parent.parent)))
        playwright = stack.enter_context(sync_playwright())
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        stack.callback(browser.close)
        pages = {}
        for side in runs:
            pages[side] = open_page(browser, server.url, problems)
            pages[side].set_viewport_size(VIEWPORT)
            prepare(pages[side], args.size, args.size, side == "shown")
        print(f"Chromium {browser.version}; {args.size}x{args.size} naive from a corner, fastest, in turns")
        before = heap_used(pages["shown"])
        for turn in range(args.runs):
            for side in list(runs) if turn % 2 == 0 else reversed(list(runs)):
                page = pages[side]
                state = play(page, args.timeout)
                seconds = (state["foundAt"] - state["clickAt"]) / 1000
                runs[side].append({"seconds": seconds, **state})
                print(
                    f"  {side:>6}  {state['events']:>12,} events  {seconds:8.3f} s  "
                    f"{state['events'] / seconds:>11,.0f}/s"
                )
                if "Tour found" not in state["status"]:
                    failures.append(f"{side} run ended with status {state['status']!r}")
                if known and (state["visits"], state["backtracks"], state["tours"]) != known:
                    failures.append(f"{side} run counted {state['visits']:,} visits, expected {known[0]:,}")
                if side == "shown":
                    if memory is None:
                        memory = {**page.evaluate(TREE_BYTES), "heap": heap_used(page) - before}
                    draws += page.evaluate(DRAW, 20)
                reset(page)
        # Frames under Chromium's performance trace, the tree in sight (traced apart: a trace
        # slows the page).
        frames = traced(browser, pages["shown"], args.trace_seconds, args.timeout)
        reset(pages["shown"])
        # The same search skipped, the tree in sight: its outline, not its events, draws it.
        skipped = open_page(browser, server.url, problems)
        skipped.set_viewport_size(VIEWPORT)
        prepare(skipped, args.size, args.size, True)
        before = heap_used(skipped)
        skip_seconds = skip(skipped, args.timeout)
        outlined = {**skipped.evaluate(TREE_BYTES), "heap": heap_used(skipped) - before}
        skip_draws = skipped.evaluate(DRAW, 20)
        if known and outlined["nodes"] != known[0]:
            failures.append(
                f"the skipped search's tree holds {outlined['nodes']:,} nodes, expected {known[0]:,}"
            )
    rates = {side: [run["events"] / run["seconds"] for run in side_runs] for side, side_runs in runs.items()}
    ratio = max(rates["shown"]) / max(rates["hidden"])
    mb = (memory["depths"] + 4 * memory["blocks"]) / 2**20
    frame = statistics.median(draws)
    failures += [f"page error: {problem}" for problem in problems]
    for failure in failures:
        print(f"FAIL: {failure}")
    print(
        f"\nSummary: {args.size}x{args.size} naive, {runs['shown'][0]['events']:,} events, "
        f"best of {args.runs} each"
    )
    print(f"  tree in sight  {max(rates['shown']):>11,.0f} events/s")
    print(f"  tree hidden    {max(rates['hidden']):>11,.0f} events/s")
    turns = spread([s / h for s, h in zip(rates["shown"], rates["hidden"], strict=True)])
    print(
        f"  in sight / hidden  {ratio:.2f}x  (turn by turn {turns}; "
        f"goal >= {GOAL_RATE}x: {verdict(ratio >= GOAL_RATE)})"
    )
    depths, heap = memory["depths"] / 2**20, memory["heap"] / 2**20
    print(
        f"  tree's memory  {mb:.1f} MB for {memory['nodes']:,} nodes (depths and squares {depths:.1f} MB, "
        f"{memory['blocks']:,} block bounds); the page's heap grew {heap:.1f} MB in the run "
        f"(goal < {GOAL_HEAP_MB} MB: {verdict(mb < GOAL_HEAP_MB)})"
    )
    print(
        f"  whole tree drawn  {frame:.2f} ms median, {max(draws):.2f} ms max over {len(draws)} drawings "
        f"(goal < {GOAL_FRAME_MS} ms: {verdict(max(draws) < GOAL_FRAME_MS)})"
    )
    # A frame's callbacks apply every event received since the last one, then draw the board,
    # the panels and the tree: at the fastest speed that is the page's whole work, not the tree's.
    slow = sum(1 for ms in frames if ms >= GOAL_FRAME_MS)
    p95 = sorted(frames)[int(0.95 * (len(frames) - 1))] if frames else 0
    print(
        f"  traced frames  {len(frames):,} animation frames (events applied, board, panels and tree): "
        f"{statistics.median(frames or [0]):.2f} ms median, {p95:.2f} ms p95, "
        f"{max(frames or [0]):.2f} ms max; "
        f"{slow} of {GOAL_FRAME_MS} ms or more"
    )
    print(
        f"  skipped        {skip_seconds:.1f} s to the tour; its tree {outlined['nodes']:,} nodes, "
        f"{outlined['exact']:,} held one by one, {outlined['stretches']:,} stretches; the page's heap "
        f"grew {outlined['heap'] / 2**20:.1f} MB; drawn {statistics.median(skip_draws):.2f} ms median, "
        f"{max(skip_draws):.2f} ms max "
        f"(goal < {GOAL_FRAME_MS} ms: {verdict(max(skip_draws) < GOAL_FRAME_MS)})"
    )
    checks = f"{len(failures)} FAILED (above)" if failures else "every run found its tour, no page error"
    print(f"  checks         {checks}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
