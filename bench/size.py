"""Measure the search on big boards, each run in a fresh process: time, events and memory."""

import argparse
import collections
import itertools
import json
import resource
import subprocess
import sys
import time
import tracemalloc

from common import ROOT, rate

from server.engine.graph import knight_graph
from server.engine.search import Search

SIZES = (26, 27, 100, 300, 1000)
ORDERS = ("warnsdorff-roth", "warnsdorff")  # the second is the peer, known to stall
START = 0  # a corner
BUDGET = 2_000_000  # events a search may take before it is called stalled
TRACE_UP_TO = 300 * 300  # squares up to which the search is also run under tracemalloc
GROWTH = (1_000_000, 10_000_000)  # events of the naive 8x8 search after which memory is read
FLAT = 4096  # bytes the long search's memory may move by and still count as flat


def peak_rss():
    """Return this process's peak resident set size in bytes."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # Linux counts KiB


def take(events, count):
    """Take up to count events from a search's iterator; return how many there were."""
    # Consumed in C: only the last (event, number) pair is kept, as the Player's skip does.
    tail = collections.deque(zip(itertools.islice(events, count), itertools.count(1)), maxlen=1)
    return tail[0][1] if tail else 0


def measure_baseline():
    """Report the peak RSS of a process that has imported everything and built nothing."""
    return {"peak": peak_rss()}


def measure_run(size, order, budget):
    """Build the board and run the search once; report times, counts and peak RSS."""
    began = time.perf_counter()
    graph = knight_graph(size, size)
    build = time.perf_counter() - began
    graph_rss = peak_rss()
    search = Search(graph, START, order)
    began = time.perf_counter()
    events = take(iter(search), budget)
    seconds = time.perf_counter() - began
    # Each visit lengthens the path by one and each backtrack shortens it by one.
    on_path, tours = len(search.path), search.tours
    return {
        "build": build,
        "search": seconds,
        "events": events,
        "tours": tours,
        "path": on_path,
        "visits": (events - tours + on_path) // 2,
        "backtracks": (events - tours - on_path) // 2,
        "graph_rss": graph_rss,
        "peak_rss": peak_rss(),
    }


def measure_trace(size, order, budget):
    """Report tracemalloc's peak for the search alone, the board built before tracing."""
    graph = knight_graph(size, size)
    tracemalloc.start()
    take(iter(Search(graph, START, order)), budget)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return {"traced": peak}


def measure_growth():
    """Report tracemalloc's current size after each GROWTH mark of the naive 8x8 search."""
    graph = knight_graph(8, 8)
    tracemalloc.start()
    events = iter(Search(graph, START, "naive"))
    taken, current = 0, []
    for mark in GROWTH:
        taken += take(events, mark - taken)
        current.append(tracemalloc.get_traced_memory()[0])
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return {"taken": taken, "current": current, "peak": peak}


MEASURES = {
    "baseline": measure_baseline,
    "run": measure_run,
    "trace": measure_trace,
    "growth": measure_growth,
}


def child(kind, *args):
    """Run one measurement in a fresh Python running this script; return its figures."""
    command = [sys.executable, __file__, "--child", kind, *map(str, args)]
    done = subprocess.run(command, stdout=subprocess.PIPE, text=True, check=True, cwd=ROOT)
    return json.loads(done.stdout)


def mib(size):
    """Format bytes as MiB."""
    return f"{round(size / 2**20, 1) + 0.0:.1f}"  # + 0.0 turns RSS noise's -0.0 into 0.0


def boards(sizes):
    """Name boards by their sides."""
    return ", ".join(f"{size}x{size}" for size in sizes) or "none"


def result(run, budget):
    """Word how a search ended: a tour, the budget, or no tour at all."""
    if run["tours"]:
        return "tour"
    return "stalled" if run["events"] == budget else "no tour"


def main(argv=None):
    """Run every measurement in its own process, print the figures; return the exit status."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--sizes",
        default=",".join(map(str, SIZES)),
        help="board sides, comma-separated (default %(default)s)",
    )
    parser.add_argument(
        "--budget",
        type=int,
        default=BUDGET,
        help="events before a search is called stalled (default %(default)s)",
    )
    parser.add_argument(
        "--trace-up-to",
        type=int,
        default=TRACE_UP_TO,
        metavar="SQUARES",
        help="largest board also run under tracemalloc (default %(default)s)",
    )
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        kind, *rest = args.child
        values = [int(value) if value.isdigit() else value for value in rest]
        print(json.dumps(MEASURES[kind](*values)))
        return 0
    try:
        sizes = [int(value) for value in args.sizes.split(",")]
    except ValueError:
        parser.error("--sizes must be comma-separated integers")
    if min(sizes) < 1 or args.budget < 1:
        parser.error("need board sides >= 1 and --budget >= 1")

    print(
        f"Knight's tour search on big boards from square {START} (a corner), each run in a "
        f"fresh process; a search stops at its first tour or after {args.budget:,} events"
    )
    print(f"Python {sys.version.split()[0]}")
    baseline = child("baseline")["peak"]
    print(f"Peak RSS of a process that only imports the modules: {mib(baseline)} MiB (subtracted below)")

    runs, failures = {}, []
    header = (
        f"{'board':>9}  {'order':15}  {'build s':>7}  {'search s':>8}  {'events':>9}  "
        f"{'backtracks':>10}  {'path':>9}  {'result':7}  {'graph MiB':>9}  "
        f"{'peak MiB':>8}  {'traced MiB':>10}"
    )
    print(f"\n{header}")
    for size in sizes:
        squares = size * size
        for order in ORDERS:
            run = runs[size, order] = child("run", size, order, args.budget)
            traced = "-"
            if order == ORDERS[0] and squares <= args.trace_up_to:
                run["traced"] = child("trace", size, order, args.budget)["traced"]
                traced = mib(run["traced"])
            print(
                f"{f'{size}x{size}':>9}  {order:15}  {run['build']:7.2f}  {run['search']:8.2f}"
                f"  {run['events']:>9,}  {run['backtracks']:>10,}  {run['path']:>9,}  "
                f"{result(run, args.budget):7}  {mib(run['graph_rss'] - baseline):>9}  "
                f"{mib(run['peak_rss'] - baseline):>8}  {traced:>10}"
            )
            if run["tours"] and run["path"] != squares:
                failures.append(
                    f"{order} on {size}x{size} reported a tour of {run['path']:,} squares, not {squares:,}"
                )
    print(
        "(graph and peak MiB: peak RSS after building the board and after the search, less "
        "the baseline, which moves by about 0.2 MiB from process to process; traced MiB: "
        "tracemalloc's peak for the search alone, in another process)"
    )

    print()
    for order in ORDERS:
        toured = [size for size in sizes if runs[size, order]["tours"]]
        stalled = [size for size in sizes if not runs[size, order]["tours"]]
        most = max(runs[size, order]["backtracks"] for size in sizes)
        print(
            f"{order}: a tour on {boards(toured)}; no tour within the budget on "
            f"{boards(stalled)}; {most:,} backtracks at most"
        )
    largest = max(sizes)
    run = runs[largest, ORDERS[0]]
    squares = largest * largest
    print(
        f"{ORDERS[0]} on {largest}x{largest}: {rate(run['events'], run['search']).strip()}; "
        f"{(run['peak_rss'] - baseline) / squares:,.0f} bytes of peak RSS per square, "
        f"{(run['graph_rss'] - baseline) / squares:,.0f} of them the board's"
    )
    for size in sizes:
        if "traced" in runs[size, ORDERS[0]]:
            traced = runs[size, ORDERS[0]]["traced"]
            print(
                f"{ORDERS[0]} on {size}x{size}: the search alone peaks at {traced:,} bytes "
                f"traced, {traced / (size * size):,.0f} per square"
            )

    growth = child("growth")
    first, last = growth["current"]
    drift = last - first
    verdict = "flat" if abs(drift) <= FLAT else "GROWING"
    print(
        f"\nMemory of a long search (naive 8x8 from square {START}, tracemalloc, started before "
        f"the search): {first:,} bytes after {GROWTH[0]:,} events, {last:,} bytes after "
        f"{GROWTH[1]:,}; change {drift:+,} bytes ({verdict}: within {FLAT:,} bytes); "
        f"peak {growth['peak']:,} bytes"
    )
    if growth["taken"] != GROWTH[-1]:
        failures.append(f"the naive 8x8 search gave {growth['taken']:,} events, not {GROWTH[-1]:,}")
    for failure in failures:
        print(f"FAIL: {failure}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
