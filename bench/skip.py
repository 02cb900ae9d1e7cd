"""Benchmark skipping a search through the Player (in its own process, and a leg at a time in
a helper process, as the production server does), with the outline of its tree that a skip
sends, against the engine alone, in one run; and
playing a run flat out, its batches searched here or by a helper: what it costs the process
that sends them (the worker, on the production server)."""

import argparse
import functools
import json
import sys
import threading
import time

from common import EXPECTED, rate, time_engine

from server.engine.graph import knight_graph
from server.engine.search import Search
from server.runs.player import SKIP_REPORT, Player
from server.runs.pool import Pool
from server.wire import encode

GOAL = 1.2  # skipping may take at most this many times the engine's own time
SIZE, START, ORDER = 8, 0, "naive"
TIMEOUT = 600  # seconds a skip may take before the run is called stuck
FLAT_OUT = 5_000_000  # events of the run played flat out
# With helpers, sending a run played flat out may cost its process at most this share of
# searching and sending it there.
FLAT_GOAL = 0.4


def start_thread(fn):
    """Run fn on a daemon thread, as the server's start_background_task would."""
    threading.Thread(target=fn, daemon=True).start()


def time_skip(pool=None):
    """Skip a paused Player's whole search (in a pool's helpers, if given); return (seconds,
    reports, sends, summary)."""
    reports, sends, ended, summary, outlined = [], [], [], {}, []
    finished = threading.Event()

    def send(batch, on_ack):
        sends.append(len(batch))
        on_ack()

    def report(snapshot, on_ack):
        reports.append(snapshot["events"])
        outlined.append(sum(snapshot["outline"]["stretches"][0::3]))
        on_ack()

    def finish(result):
        ended.append(time.perf_counter())
        # Where the outline is cut into parts depends on the reports' timing: only its sum is compared.
        outline = result.pop("outline")
        summary.update(result, outlined=sum(outlined) + sum(outline["stretches"][0::3]))
        finished.set()

    search = Search(knight_graph(SIZE, SIZE), START, ORDER)
    leg = None if pool is None else functools.partial(pool.leg, "bench")
    player = Player(search, send, report, finish, paused=True, leg=leg)
    player.start(start_thread)
    began = time.perf_counter()
    player.skip()
    if not finished.wait(TIMEOUT):
        player.stop()
        raise RuntimeError(f"the skip did not finish within {TIMEOUT} s")
    return ended[0] - began, len(reports), len(sends), summary


def time_flat_out(pool=None):
    """Play FLAT_OUT events flat out, each batch encoded and written as JSON as the server sends
    it and acknowledged at once (its search in a pool's helpers, if given); return (seconds,
    this process's CPU seconds, the events written)."""
    written, finished = [], threading.Event()

    def send(batch, on_ack):
        written.append(len(json.dumps(["events", {"events": encode(batch)}])))
        on_ack()

    search = Search(knight_graph(SIZE, SIZE), START, ORDER)
    leg = None if pool is None else functools.partial(pool.leg, "bench")
    player = Player(search, send, None, lambda _: finished.set(), budget=FLAT_OUT, leg=leg)
    began, cpu = time.perf_counter(), time.process_time()
    player.start(start_thread)
    if not finished.wait(TIMEOUT):
        player.stop()
        raise RuntimeError(f"the run did not finish within {TIMEOUT} s")
    return time.perf_counter() - began, time.process_time() - cpu, player.events


def main(argv=None):
    """Time the skip and the engine alone, print the figures; return the exit status."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=1, help="runs of each; best is kept")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    visits, backtracks, tours = EXPECTED[(SIZE, ORDER)]
    events = visits + backtracks + tours

    print(
        f"Skipping a knight's tour search through the Player: {SIZE}x{SIZE} board, {ORDER} "
        f"order, start square {START}, best of {args.repeat}"
    )
    print(f"Python {sys.version.split()[0]}")

    engine_times, skips, helped, flat, flat_helped = [], [], [], [], []
    pool = Pool(1)
    # Alternated, so a slow spell of a shared machine hits all alike.
    try:
        for _ in range(args.repeat):
            engine_times.append(time_engine(SIZE, SIZE, START, ORDER))
            skips.append(time_skip())
            helped.append(time_skip(pool))
            flat.append(time_flat_out())
            flat_helped.append(time_flat_out(pool))
    finally:
        pool.close()
    engine_seconds = min(engine_times)
    helped_seconds = min(run[0] for run in helped)
    skip_seconds, reports, sends, summary = min(skips, key=lambda run: run[0])

    print()
    print(f"{'':38}{'seconds':>9}  {'speed':>25}")
    for label, seconds in (
        ("engine alone, drained by deque", engine_seconds),
        ("Player.skip(), from skip() to finish", skip_seconds),
        ("the same, a leg at a time in a helper", helped_seconds),
    ):
        print(f"{label:38}{seconds:9.3f}  {rate(events, seconds)}")
    if args.repeat > 1:
        print(
            f"(all runs: engine {', '.join(f'{s:.2f}' for s in engine_times)} s; skip "
            f"{', '.join(f'{run[0]:.2f}' for run in skips)} s; in a helper "
            f"{', '.join(f'{run[0]:.2f}' for run in helped)} s)"
        )

    print(
        f"\nProgress reports: {reports} (one per {SKIP_REPORT:g} s at most, each acknowledged "
        f"at once); batches sent: {sends}"
    )
    got = (summary["visits"], summary["backtracks"], summary["tours"])
    print(
        f"Summary: {got[0]:,} visits + {got[1]:,} backtracks + {got[2]} found = "
        f"{summary['events']:,} events; found {summary['found']}, stopped {summary['stopped']}"
    )
    print(f"The tree's outline (sent with the reports and the summary) counts {summary['outlined']:,} nodes")
    matches = (
        got == (visits, backtracks, tours)
        and summary["events"] == events == 2 * summary["outlined"] - len(summary["path"]) + tours
    )
    print(
        f"Summary counts {'match' if matches else 'DO NOT match'} the expected "
        f"{visits:,} visits / {backtracks:,} backtracks / {tours} found"
    )
    here, there = min(flat, key=lambda run: run[1]), min(flat_helped, key=lambda run: run[1])
    print(f"\nPlayed flat out, {FLAT_OUT:,} events, each batch encoded and written as JSON:")
    print(f"{'':38}{'seconds':>9}  {'speed':>25}  {'CPU here':>9}  {'an event':>9}")
    for label, (seconds, cpu, _) in (("searched in this process", here), ("searched by a helper", there)):
        each = cpu / FLAT_OUT * 1e6
        print(f"{label:38}{seconds:9.3f}  {rate(FLAT_OUT, seconds)}  {cpu:8.2f}s  {each:6.2f} µs")
    share = there[1] / here[1]
    print(
        f"With a helper, this process (the worker) spends {share:.2f} of its CPU without one "
        f"(goal <= {FLAT_GOAL:g}: {'met' if share <= FLAT_GOAL else 'NOT met'})."
    )
    failures = []
    if any(run[2] != FLAT_OUT for run in flat + flat_helped):
        failures.append(f"a run played flat out did not end at its budget of {FLAT_OUT:,} events")
    if not matches:
        failures.append(
            f"the skip's summary counts {got} ({summary['events']:,} events) are not "
            f"the expected ({visits:,}, {backtracks:,}, {tours}) ({events:,} events)"
        )
    if not summary["found"] or summary["stopped"] is not None or sends:
        failures.append("the skip did not run the whole search unsent and find its tour")
    if any(run[3] != summary or run[2] for run in helped):
        failures.append("a skip in a helper did not end as the skip in the Player's own process did")

    print()
    for where, seconds in (("Skipping", skip_seconds), ("Skipping in a helper", helped_seconds)):
        ratio = seconds / engine_seconds
        verdict = "met" if ratio <= GOAL else "NOT met"
        print(f"{where} takes {ratio:.2f} times the engine's own time (goal <= {GOAL:g}x: {verdict}).")
    for failure in failures:
        print(f"FAIL: {failure}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
