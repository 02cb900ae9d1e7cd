"""Benchmark the search engine against the textbook's recursive knight's tour, in one run."""

import argparse
import collections
import itertools
import operator
import statistics
import sys
import time

from common import EXPECTED, rate, time_engine
from pythonds3.graphs import Graph

from server.engine.graph import knight_graph
from server.engine.search import BACKTRACK, FOUND, VISIT, knight_tour

GOAL = 4.0  # ours must run at least this many times the textbook's speed
MOVES = ((-1, -2), (-1, 2), (-2, -1), (-2, 1), (1, -2), (1, 2), (2, -1), (2, 1))


def textbook_graph(size):
    """Build the textbook's knight graph of a size x size board on pythonds3's Graph."""
    graph = Graph()
    for row in range(size):
        for col in range(size):
            # The textbook adds vertices only through edges; this keeps lone squares too.
            graph.set_vertex(row * size + col)
    for row in range(size):
        for col in range(size):
            for dr, dc in MOVES:
                r, c = row + dr, col + dc
                if 0 <= r < size and 0 <= c < size:
                    graph.add_edge(row * size + col, r * size + c)
    return graph


def order_by_avail(u):
    """Return u's white neighbours, fewest white onward moves first (stable)."""
    counted = []
    for v in u.get_neighbors():
        if v.color == "white":
            free = sum(1 for w in v.get_neighbors() if w.color == "white")
            counted.append((free, v))
    counted.sort(key=lambda pair: pair[0])
    return [v for _, v in counted]


def textbook_search(graph, start, order):
    """Run the textbook's recursive tour from start; return (visits, backtracks, found)."""
    counts = {"visits": 0, "backtracks": 0}
    neighbours = (lambda u: sorted(list(u.get_neighbors()))) if order == "naive" else order_by_avail

    def knight_tour(n, path, u, limit):
        """Extend the path with u, then try to complete it; undo u on failure."""
        u.color = "gray"
        path.append(u)
        counts["visits"] += 1
        if n < limit:
            candidates = neighbours(u)
            i = 0
            done = False
            while i < len(candidates) and not done:
                if candidates[i].color == "white":
                    done = knight_tour(n + 1, path, candidates[i], limit)
                i = i + 1
            if not done:
                path.pop()
                u.color = "white"
                counts["backtracks"] += 1
        else:
            done = True
        return done

    found = knight_tour(0, [], graph.get_vertex(start), len(graph) - 1)
    return counts["visits"], counts["backtracks"], int(found)


def time_textbook(size, start, order):
    """Time one textbook search on a freshly built graph; return (seconds, counts)."""
    graph = textbook_graph(size)
    began = time.perf_counter()
    counts = textbook_search(graph, start, order)
    return time.perf_counter() - began, counts


def pure_loop(adjacency, start):
    """Search in naive order with a plain loop that counts; return (visits, backtracks, found)."""
    # Our engine's loop with each yield replaced by a counter: the fastest pure-Python
    # form of the same search, so the gap to it is what the events themselves cost.
    neighbours = [tuple(sorted(moves)) for moves in adjacency]
    last = len(adjacency) - 1
    visited = bytearray(len(adjacency))
    visited[start] = 1
    path = [start]
    visits, backtracks = 1, 0
    if last == 0:
        return visits, backtracks, 1
    tries = [iter(neighbours[start])]
    push, pop = tries.append, tries.pop
    extend, retract = path.append, path.pop
    depth = 0
    while tries:
        for v in tries[-1]:
            if visited[v]:
                continue
            visited[v] = 1
            extend(v)
            depth += 1
            visits += 1
            if depth < last:
                push(iter(neighbours[v]))
                break
            return visits, backtracks, 1
        else:
            pop()
            visited[retract()] = 0
            backtracks += 1
            depth -= 1
    return visits, backtracks, 0


def time_pure(size, start):
    """Time the pure loop on a freshly built graph; return (seconds, counts)."""
    graph = knight_graph(size)
    began = time.perf_counter()
    counts = pure_loop(graph.adjacency, start)
    return time.perf_counter() - began, counts


def count_ours(size, start, order):
    """Count our engine's events by kind; return (seconds, (visits, backtracks, found))."""
    graph = knight_graph(size)
    began = time.perf_counter()
    kinds = collections.Counter(map(operator.itemgetter(0), knight_tour(graph, start, order)))
    elapsed = time.perf_counter() - began
    return elapsed, (kinds[VISIT], kinds[BACKTRACK], kinds[FOUND])


def time_floor(total):
    """Time a generator that only yields one pre-built event total times into a deque."""

    def bare(n):
        """Yield the same event n times."""
        event = (VISIT, 0, 0)
        for _ in itertools.repeat(None, n):
            yield event

    began = time.perf_counter()
    collections.deque(bare(total), maxlen=0)
    return time.perf_counter() - began


def repeated(repeat, measure):
    """Call measure() repeat times and return its results."""
    return [measure() for _ in range(repeat)]


def main(argv=None):
    """Run the comparison and print its figures; return the exit status."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--size", type=int, default=8, help="board side (default 8)")
    parser.add_argument("--order", choices=("naive", "warnsdorff"), default="naive")
    parser.add_argument("--start", type=int, default=0, help="start square (default 0)")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each; best is kept")
    args = parser.parse_args(argv)
    if args.size < 1 or not 0 <= args.start < args.size**2 or args.repeat < 1:
        parser.error("need --size >= 1, 0 <= --start < size*size and --repeat >= 1")
    sys.setrecursionlimit(max(sys.getrecursionlimit(), args.size**2 + 1000))

    print(
        f"Knight's tour search, {args.size}x{args.size} board, {args.order} order, "
        f"start square {args.start}, best of {args.repeat}"
    )
    print(f"Python {sys.version.split()[0]}")

    count_seconds, counts = count_ours(args.size, args.start, args.order)
    events = sum(counts)
    print(f"\nOur events: {counts[0]:,} visits + {counts[1]:,} backtracks + {counts[2]} found = {events:,}")
    expected = EXPECTED.get((args.size, args.order)) if args.start == 0 else None
    if expected is not None and counts != expected:
        print(
            f"FAIL: expected {expected[0]:,} visits, {expected[1]:,} backtracks, "
            f"{expected[2]} found; the comparison would be meaningless",
            file=sys.stderr,
        )
        return 1

    ours, pure = [], []  # the pure loop knows only the naive order; no such peer for others
    # Alternated, so a slow spell of a shared machine hits ours and the pure loop alike.
    for _ in range(args.repeat):
        ours.append(time_engine(args.size, args.size, args.start, args.order))
        if args.order == "naive":
            pure.append(time_pure(args.size, args.start))
    peer = repeated(args.repeat, lambda: time_textbook(args.size, args.start, args.order))
    peer_seconds = min(seconds for seconds, _ in peer)
    peers = [("Textbook:  ", "the textbook's search", peer[0][1])]
    if pure:
        peers.append(("Pure loop: ", "the pure loop", pure[0][1]))
    for label, name, peer_counts in peers:
        print(
            f"{label} {peer_counts[0]:,} visits + {peer_counts[1]:,} backtracks + "
            f"{peer_counts[2]} found = {sum(peer_counts):,}"
        )
        if peer_counts != counts:
            print(
                f"FAIL: {name} did different work from ours; the comparison would be meaningless",
                file=sys.stderr,
            )
            return 1
    floor_seconds = time_floor(events)

    ours_seconds = min(ours)
    print()
    print(f"{'':34}{'seconds':>9}  {'speed':>25}")
    rows = [
        ("ours, drained by deque(maxlen=0)", ours_seconds),
        ("ours, counted by kind (Counter)", count_seconds),
        ("textbook (pythonds3, recursive)", peer_seconds),
        ("floor: bare yield of one tuple", floor_seconds),
    ]
    if pure:
        pure_seconds = min(seconds for seconds, _ in pure)
        rows.insert(3, ("pure loop: counters, no yield", pure_seconds))
    for label, seconds in rows:
        print(f"{label:34}{seconds:9.3f}  {rate(events, seconds)}")
    if args.repeat > 1:
        pure_runs = f"; pure loop {', '.join(f'{s:.2f}' for s, _ in pure)} s" if pure else ""
        print(
            f"(all runs: ours {', '.join(f'{s:.2f}' for s in ours)} s; textbook "
            f"{', '.join(f'{s:.2f}' for s, _ in peer)} s{pure_runs}; median ours "
            f"{statistics.median(ours):.2f} s)"
        )

    ratio = peer_seconds / ours_seconds
    verdict = "met" if ratio >= GOAL else "NOT met"
    print(f"\nOurs is {ratio:.2f} times the textbook's speed (goal >= {GOAL:g}x: {verdict}).")
    print(
        f"Ours runs at {floor_seconds / ours_seconds:.0%} of the bare-yield floor's speed "
        f"({ours_seconds / floor_seconds:.2f} times its time per event)."
    )
    if pure and ours_seconds <= pure_seconds:
        print(
            f"Ours took {ours_seconds / pure_seconds:.2f} times the pure loop's time, no "
            f"longer than it, so a busy machine slowed the loop's runs: try --repeat 3."
        )
    elif pure:
        print(
            f"Ours takes {ours_seconds / pure_seconds:.2f} times the time of the pure loop, "
            f"the fastest pure-Python form of the same search, so runs at "
            f"{pure_seconds / ours_seconds:.0%} of its speed. The gap, "
            f"{(ours_seconds - pure_seconds) / events * 1e9:.0f} ns per event, is what making "
            f"events costs: one generator suspension and one (kind, vertex, depth) tuple per "
            f"event (the bare-yield floor spends {floor_seconds / events * 1e9:.0f} ns per "
            f"event on a suspension, its loop and the deque's take), plus one call of the "
            f"ordering per visit where the loop indexes a table."
        )
    else:
        print("(The pure-loop peer searches in naive order only; run --order naive for it.)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
