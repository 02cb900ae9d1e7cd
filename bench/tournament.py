"""Benchmark a class tournament: 200 entries searched on boards 5 to 50 while 300 followers stream.

The goal (the issue's): while the server searches every entry on every board, the class's stream
keeps its pace (p95 delay < 250 ms, pace >= 95%), and the helper processes use every core they
are given; the figures say how long the last board took.

One production server (`python -m server`: gunicorn, one gevent worker, its search helpers at their
default, a core each but the worker's) serves one class of --followers (300), half browser-like
(offering permessage-deflate as Chromium does) and half plain, as in bench/classroom.py; its run
is the naive 8x8 search at a pace a class can follow (--speed, 30 events/s).

Phases, in one run:
  quiet      the class plays, no tournament: the stream's delay, the peer of what follows.
  entering   the instructor opens a tournament (square boards --smallest to --largest from a
             corner, --budget backtracks each); --entries of the followers each enter an
             ordering within --enter-seconds, spread evenly: each entry's ack latency.
  searching  the helpers search every entry's boards while the class plays on: the stream's
             delay and pace, the worker's CPU apart from its helpers', until the last board
             has ended (or --max-seconds).
  after      the tournament done, the class plays on.

The entries are every ordering of two keys (each ascending or descending), in a fixed shuffle:
a class's mix of Warnsdorff's rule and its tie-breaks (quick: a clean tour on most boards), and
orderings that search long (each board stopped at the budget). Every entry's boards must end as
the engine ends them one board at a time (checked on a sample of boards, and every board of the
three cheapest). Timings are printed beside their goals, never asserted; the exit status is 1
only if something is functionally wrong (a refusal, a board missing or wrong, an error logged).
"""

import argparse
import itertools
import math
import os
import random
import sys
import time
from importlib import metadata

import common  # noqa: F401 - puts the project on the import path
from hall import FOLLOWERS_PER_PROC, GOAL_P95_MS, Hall, run_and_report, split, verdict
from stats import spread

from server.classes.tournament.tournaments import CODES
from server.engine.orderings import KEYS
from server.engine.survey import cell
from server.runs.pool import default_size
from tests.support.tournament import standings

BOARD = {"rows": 8, "cols": 8, "order": "naive", "start": 0}
INSTRUCTOR = "instructor"
GOAL_PACE = 95  # percent of the events due that reach each follower
QUICK = {"followers": 60, "entries": 40, "largest": 20, "quiet_seconds": 3, "after_seconds": 2}


def entries(n):
    """Return n orderings of two keys each (ascending or descending), in a fixed shuffle."""
    forms = [
        f"{a}{k},{b}{j}" for k, j in itertools.permutations(KEYS, 2) for a in ("", "-") for b in ("", "-")
    ]
    random.Random(7).shuffle(forms)
    if n > len(forms):
        raise ValueError(f"at most {len(forms)} entries of two keys")
    return forms[:n]


class Tournament(Hall):
    """One server, one class, its tournament of entries, and the figures of the run."""

    def __init__(self, args):
        super().__init__("production", args)
        self.names = [f"f{i}" for i in range(args.followers)]
        self.orders = dict(zip(self.names, entries(args.entries), strict=False))

    def follower_groups(self):
        return [(f"followers{i + 1}", g) for i, g in enumerate(split(self.names, self.args.follower_procs))]

    def ends(self, main):
        """Return the entries, {id: row}, as the instructor's page has them now, and what it received."""
        seen = main("seen", names=[INSTRUCTOR], events=("tournament", "tournament_news"), timeout=300)
        seen = seen[INSTRUCTOR]
        return standings((event, payload) for _, event, payload in seen)[0], seen

    def drive(self, main):
        args = self.args
        wanted = [(main, [INSTRUCTOR]), *((self.loads[n], g) for n, g in self.groups)]
        results, seconds, waves = self.connect_in_waves(wanted)
        self.connected = (len(results), seconds, waves)
        self.check_acks("connect", results)
        opened = self.check_acks("class_open", main("call", names=[INSTRUCTOR], event="class_open"))
        code = opened[INSTRUCTOR].get("code")
        self.joined = {}
        for name, group in self.groups:
            self.loads[name].send("call", names=group, event="class_join", data={"code": code})
        for name, _ in self.groups:
            self.joined.update(self.check_acks("class_join", self.loads[name].result(300)))
        started = self.check_acks(
            "start", main("call", names=[INSTRUCTOR], event="start", data={**BOARD, "speed": args.speed})
        )
        self.run_id = started[INSTRUCTOR].get("run")
        time.sleep(args.settle)
        self.phase("quiet", args.quiet_seconds)

        rules = {"smallest": args.smallest, "largest": args.largest, "budget": args.budget}
        self.check_acks(
            "tournament_open", main("call", names=[INSTRUCTOR], event="tournament_open", data=rules)
        )
        start = time.monotonic() + 0.2
        entering = list(self.orders)
        at = {name: start + args.enter_seconds * slot / len(entering) for slot, name in enumerate(entering)}
        self.entered = {}
        for name, group in self.groups:
            mine = [n for n in group if n in self.orders]
            self.loads[name].send(
                "call_at",
                at={n: at[n] for n in mine},
                event="tournament_enter",
                each={n: {"order": self.orders[n], "name": f"student {n}"} for n in mine},
            )
        for name, _ in self.groups:
            self.entered.update(self.loads[name].result(args.enter_seconds + 120))
        self.phases["entering"] = (start, time.monotonic())
        self.check_acks("tournament_enter", {n: timed["ack"] for n, timed in self.entered.items()})

        # Searching: until the instructor's standings have every board of every entry.
        began, boards = time.monotonic(), args.largest - args.smallest + 1
        self.progress = []
        while time.monotonic() - began < args.max_seconds:
            time.sleep(args.look_every)
            rows, _ = self.ends(main)
            done = sum(len(row["outcomes"]) - row["outcomes"].count(".") for row in rows.values())
            self.progress.append((time.monotonic() - start, done))
            if len(rows) == len(self.orders) and done == len(self.orders) * boards:
                break
        self.rows, seen = self.ends(main)
        last_news = [stamp for stamp, event, _ in seen if event == "tournament_news"]
        finished = max(last_news, default=time.monotonic())
        self.last_result = finished - start
        # Searching ends with the last board's news; the helpers' use is measured from the first entry.
        self.phases["searching"] = (began, max(finished, began + 1))
        self.phases["tournament"] = (start, finished)
        self.phase("after", args.after_seconds)
        self.check_acks("pause", main("call", names=[INSTRUCTOR], event="pause"))
        time.sleep(args.drain)

    def check(self, everyone):
        """Note every follower short of the instructor's events, and every board that ended otherwise."""
        for peer in everyone.values():
            for problem in peer["problems"][:3]:
                self.problems.append(f"{peer['name']}: {problem}")
        expected = everyone[INSTRUCTOR]["events"]
        short = [n for n in self.names if everyone[n]["events"] != expected]
        if short:
            self.problems.append(
                f"{len(short)} followers hold another number of events than the instructor's"
            )
        ids = {
            self.joined[name]["entry"]: name for name in self.orders if self.joined.get(name, {}).get("entry")
        }
        missing = [name for id, name in ids.items() if id not in self.rows]
        if missing or len(self.rows) != len(self.orders):
            self.problems.append(
                f"{len(self.rows)} entries in the standings of {len(self.orders)} ({missing[:3]})"
            )
        sides = list(range(self.args.smallest, self.args.largest + 1))
        rng = random.Random(3)
        sample = [(id, i) for id in self.rows for i in range(len(sides)) if rng.random() < 0.02]
        for id, i in sample:
            outcomes, backtracks = self.rows[id]["outcomes"], self.rows[id]["backtracks"]
            end = cell(sides[i], sides[i], 0, self.orders[ids[id]], 0, self.args.budget)
            if (outcomes[i], backtracks[i]) != (CODES[end["outcome"]], end["backtracks"]):
                self.problems.append(
                    f"{self.orders[ids[id]]} on {sides[i]}x{sides[i]}: {outcomes[i]} {backtracks[i]}"
                    f", the engine's {end}"
                )
        self.sampled = len(sample)
        self.check_log()

    def report(self):
        args, everyone = self.args, self.peers()
        self.check(everyone)
        out = []
        say = out.append
        count, wall, waves = self.connected
        say(f"connect: {count} clients in {wall:.1f} s, in {waves} wave(s) a second apart")
        say(self.extensions_line(everyone))
        cores = 100 * len(os.sched_getaffinity(0))
        say(
            f"\nstream delay (fan-out), ms; lag p95 behind schedule; pace: events received over due; server: "
            f"its CPU% (worker alone, helpers), idle% of {cores}"
        )
        say(
            f"{'window':<10} {'secs':>6} {'server':>6} {'worker':>6} {'helpers':>7} {'idle':>5}  "
            f"{'p50':>6} {'p95':>6} {'p99':>6} {'max':>7} {'lag95':>6} {'ev/s':>5} {'pace':>6}"
        )
        self.figures = {}
        for name, window in self.phases.items():
            if name == "tournament":
                continue  # the span of the helpers' work, entering and searching: its CPU below
            m = self.sampler.window(*window)
            cpu = m["server_user"] + m["server_sys"] if m else math.nan
            worker = m["worker"] if m else math.nan
            machine = f"{cpu:>6.0f} {worker:>6.0f} {cpu - worker:>7.0f} {m['idle'] if m else math.nan:>5.0f}"
            s = self.figures[name] = self.stream(
                [everyone[n] for n in self.names], everyone[INSTRUCTOR], window, self.run_id
            )
            self.figures[name]["machine"] = m
            say(
                f"{name:<10} {window[1] - window[0]:>6.1f} {machine}  "
                + " ".join(f"{s[q]:>6.1f}" for q in ("p50", "p95", "p99"))
                + f" {s['max']:>7.1f}"
                + f" {s['lag95']:>6.1f} {s['rate']:>5.1f} {s['pace']:>5.1f}%"
            )
        rss = max(m["rss"] for m in (f["machine"] for f in self.figures.values()) if m)
        say(f"server: peak RSS {rss / 2**20:.0f} MB")
        acks = [t["acked"] - t["sent"] for t in self.entered.values() if t["acked"] is not None]
        a = spread(acks)
        say(f"\nentries: {len(acks)} acked; ack p50/p95/max {a['p50']:.1f}/{a['p95']:.1f}/{a['max']:.1f} ms")
        boards = args.largest - args.smallest + 1
        outcomes = [row["outcomes"] for row in self.rows.values()]
        done = sum(len(o) - o.count(".") for o in outcomes)
        clean = sum(o.count("c") for o in outcomes)
        stopped = sum(o.count("s") for o in outcomes)
        say(
            f"boards: {done:,} of {len(self.orders) * boards:,} searched ({clean:,} clean, {stopped:,} "
            "stopped at "
            f"{args.budget:,} backtracks); the last result {self.last_result:.1f} s after the first entry"
        )
        for at, n in self.progress[:: max(1, len(self.progress) // 8)]:
            say(f"  at {at:6.1f} s: {n:,} boards")
        helpers = default_size()
        searching = self.sampler.window(*self.phases["tournament"])
        used = (
            (searching["server_user"] + searching["server_sys"] - searching["worker"]) / 100
            if searching
            else 0
        )
        s, quiet = self.figures["searching"], self.figures["quiet"]
        say("\ngoals:")
        say(
            f"  the stream while the tournament is searched: p95 {s['p95']:.1f} ms "
            f"(quiet {quiet['p95']:.1f}), "
            f"under {GOAL_P95_MS} ms: {verdict(s['p95'] < GOAL_P95_MS)}; pace {s['pace']:.1f}% "
            f"(quiet {quiet['pace']:.1f}%), at least {GOAL_PACE}%: {verdict(s['pace'] >= GOAL_PACE)}"
        )
        say(
            f"  the helpers used {used:.2f} cores of the {helpers} they are given, from the first entry "
            "to the last board: "
            f"{verdict(used >= 0.85 * helpers)}"
        )
        say(f"  sampled {self.sampled} boards against the engine, one board at a time")
        return "\n".join(out)


def parse(argv):
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--quick", action="store_true", help="a smoke run: " + ", ".join(f"{k}={v}" for k, v in QUICK.items())
    )
    parser.add_argument("--followers", type=int, default=300, help="half browser-like")
    parser.add_argument("--entries", type=int, default=200, help="followers who enter an ordering")
    parser.add_argument("--smallest", type=int, default=5)
    parser.add_argument("--largest", type=int, default=50)
    parser.add_argument("--budget", type=int, default=5000, help="backtracks a board may take")
    parser.add_argument("--follower-procs", type=int)
    parser.add_argument("--speed", type=float, default=30)
    parser.add_argument("--quiet-seconds", type=float, default=8)
    parser.add_argument("--enter-seconds", type=float, default=5)
    parser.add_argument("--after-seconds", type=float, default=4)
    parser.add_argument("--max-seconds", type=float, default=900)
    parser.add_argument("--look-every", type=float, default=3)
    parser.add_argument("--settle", type=float, default=1.5)
    parser.add_argument("--drain", type=float, default=1)
    parser.add_argument("--max-per-address", type=int, default=5000)
    parser.add_argument("--connect-burst", type=int, default=400)
    parser.add_argument("--connect-rate", type=int, default=80)
    if parser.parse_known_args(argv)[0].quick:
        parser.set_defaults(**QUICK)
    args = parser.parse_args(argv)
    if not 0 < args.entries <= args.followers:
        parser.error("entries must be 1 to followers")
    if args.follower_procs is None:
        args.follower_procs = math.ceil(args.followers / FOLLOWERS_PER_PROC)
    args.baseline = 0
    return args


def main(argv=None):
    args = parse(argv)
    print(
        f"Class tournament: {args.entries} of {args.followers} followers (half browser-like) enter "
        f"orderings, searched on square boards {args.smallest} to {args.largest} from a corner, "
        f"{args.budget:,} backtracks "
        f"each, while the class's run ({BOARD['rows']}x{BOARD['cols']} {BOARD['order']}) plays at "
        f"{args.speed:g} events/s."
    )
    print(
        f"Machine: {os.cpu_count()} cores shared by the server and the load processes; server helpers "
        f"{default_size()}; Python {sys.version.split()[0]}, gunicorn {metadata.version('gunicorn')}, "
        f"gevent {metadata.version('gevent')}"
    )
    return run_and_report(
        Tournament(args),
        args.max_seconds + 600,
        "functional checks: every follower got the class's batches in order; every entry was taken and "
        "every board of it searched, the sampled ones as the engine searches them; no refusals",
    )


if __name__ == "__main__":
    sys.exit(main())
