"""Benchmark one server process under a classroom's load, with real Socket.IO clients.

The goal: one server process on a 2-core machine serves 300 students following one class plus
100 students running their own searches at 30 events/s; every follower receives every update,
in order; the 95th percentile delivery delay stays under 250 ms; and while one more student
skips a naive 8x8 search to its end, everyone else's delay grows by less than 100 ms (p95).

The server runs in its own process (Werkzeug's threaded server as `python -m server`, then
gunicorn's threaded worker); the clients are asyncio python-socketio clients in load processes
of their own (bench/load.py): one for the instructor, the solo students and the skipper, one or
more for the followers. They share the machine's cores with the server, so the load
processes' CPU and event-loop lag are printed beside the server's.

Phases: baseline (a few solo students alone), load30 (the class at 30 events/s with its
followers, and every solo student at 30 events/s), load300 (the class at 300 events/s),
preskip (the class at 30 again), skip (one more student skips the naive 8x8 search, stopped
after --skip-timeout seconds if it has not ended), postskip.

What is measured (the server puts no timestamps in its payloads; see bench/stats.py):
  lag       per event: how much later than its client's best-kept schedule in the phase it
            arrived; it includes the batching of a tick (server.player.TICK: a batch every
            100 ms above 10 events/s), and grows if the server falls behind the pace.
  fan-out   per class batch: a follower's arrival time less the instructor's for the same
            batch (the instructor's copy is emitted just before the room's).
  gap       time between two batches a client receives (ideal: one tick).
  pace      events a group received in a phase over the events its speed promised.
  extra     p95 (or max) of a group in a phase less the same in its reference phase: the
            baseline for the solo students, preskip for the skip.
Beside them: the server's CPU (user + system), peak RSS and threads; each load process's CPU
and event-loop lag; the machine's idle time; and "other", busy time of no process measured
here (loopback networking's softirqs, or another program: far above 0 in the baseline means
the machine was not quiet).

Timings are printed beside their goals, never asserted; the exit status is non-zero only if something is
functionally wrong: a client missed, reordered or got wrong events, was refused or dropped,
or the skipped search ended with the wrong counts. The last figures and the verdicts of past
experiments are in docs/benchmarks.md.
"""

import argparse
import math
import os
import re
import sys
import time
import traceback
from importlib import metadata

from common import EXPECTED, ROOT  # also puts the project on the import path
from load import Load
from processes import SERVERS, Sampler, ServerProcess, code_version, halves, watchdog
from stats import delivered, fan_out, lags, loop_lag, spread

BOARD = {"rows": 8, "cols": 8, "order": "naive"}
CLASS_START = 0
SKIP_START = 0  # the naive 8x8 search from square 0: 35,479,473 events to its first tour
GOAL_P95_MS = 250
GOAL_SKIP_EXTRA_MS = 100
# A line of the server's log worse than a request line (a 5xx status is one).
LOG_PROBLEM = re.compile(r"Traceback|Error|Exception|CRITICAL|WORKER TIMEOUT|\[ERROR\]|WARNING|\" 5\d\d ")
DEADLINE = 600  # seconds the whole script may take before it stops what it started
QUICK = {  # a smoke run: every phase, a small class, a few seconds each
    "server": "werkzeug",
    "followers": 30,
    "solos": 10,
    "baseline": 2,
    "baseline_seconds": 2,
    "load_seconds": 3,
    "fast_seconds": 2,
    "preskip_seconds": 2,
    "skip_timeout": 4,
    "settle": 0.5,
    "drain": 1,
}


class Scenario:
    """One server under the classroom's phases, and the figures of its run."""

    def __init__(self, kind, args):
        self.kind, self.args = kind, args
        self.problems = []  # functional failures: each makes the exit status non-zero
        self.notes = []
        self.phases = {}  # name -> (start, end)
        self.connects = {}
        self.server = None
        self.log, self.log_problems = "", []

    def pinning(self):
        """Return the CPUs of the load processes and of the server (None: all of them)."""
        if not self.args.pin:
            return None, None
        lower, upper = halves()
        return (lower if self.args.pin == "split" else None), upper

    def check_acks(self, what, acks):
        """Note every client whose request was refused or unanswered; return the acks."""
        bad = {name: ack for name, ack in acks.items() if not (isinstance(ack, dict) and ack.get("ok"))}
        for name, ack in list(bad.items())[:5]:
            self.problems.append(f"{what}: {name} got {ack}")
        if len(bad) > 5:
            self.problems.append(f"{what}: {len(bad) - 5} more clients got a refusal or no answer")
        return acks

    def phase(self, name, seconds):
        """Let the load run for a phase, noting when it began and ended."""
        start = time.monotonic()
        time.sleep(seconds)
        self.phases[name] = (start, time.monotonic())

    def run(self):
        """Start the server and the load processes, drive the phases, collect the clients."""
        args = self.args
        load_cpus, server_cpus = self.pinning()
        self.server = server = ServerProcess(self.kind, args.threads, server_cpus)
        loads = []
        try:
            server.wait_ready()
            main = Load("main", server.url, args.deflate, load_cpus)
            loads.append(main)
            per = math.ceil(args.followers / args.follower_procs)
            names = [f"f{i}" for i in range(args.followers)]
            groups = [names[i : i + per] for i in range(0, args.followers, per)]
            follower_loads = [
                Load(f"followers{i + 1}", server.url, args.deflate, load_cpus) for i in range(len(groups))
            ]
            loads.extend(follower_loads)
            self.sampler = Sampler(server, loads)
            try:
                self.drive(main, follower_loads, groups)
            finally:
                self.sampler.stop()
                self.collected = {load.name: load("collect", timeout=120) for load in loads}
                for load in loads:
                    load.send("close")
                for load in loads:
                    try:
                        load.result(60)
                    except RuntimeError as exc:
                        self.notes.append(str(exc).splitlines()[0])
        finally:
            for load in loads:
                load.close()
            self.server_threads_end = server.threads()
            server.close()
            self.log = server.log_text()
            server.log.close()

    def drive(self, main, follower_loads, groups):
        """Run the phases: baseline, load30, load300, preskip, skip, postskip."""
        args = self.args
        solos = [f"s{i}" for i in range(args.solos)]
        baseline, rest = solos[: args.baseline], solos[args.baseline :]
        start_of = {
            name: {**BOARD, "start": (7 * i + 1) % 64, "speed": args.speed} for i, name in enumerate(solos)
        }

        # 1. Baseline: a few solo students alone on the server.
        began = time.monotonic()
        self.connects["baseline"] = (main("connect", names=baseline), time.monotonic() - began)
        self.check_acks("connect", self.connects["baseline"][0])
        self.check_acks(
            "start", main("call", names=baseline, event="start", each={n: start_of[n] for n in baseline})
        )
        time.sleep(args.settle)
        self.phase("baseline", args.baseline_seconds)

        # 2. Everyone else connects: the followers' processes and the main one together.
        began = time.monotonic()
        for load, names in zip(follower_loads, groups, strict=True):
            load.send("connect", names=names)
        results = dict(main("connect", names=[*rest, "instructor", "skipper"], timeout=300))
        for load in follower_loads:
            results.update(load.result(300))
        self.connects["rest"] = (results, time.monotonic() - began)
        self.check_acks("connect", results)

        # 3. The class opens, its followers join, its run starts; the other solos start.
        opened = self.check_acks("class_open", main("call", names=["instructor"], event="class_open"))
        code = opened["instructor"].get("code")
        for load, names in zip(follower_loads, groups, strict=True):
            load.send("call", names=names, event="class_join", data={"code": code})
        for load in follower_loads:
            self.check_acks("class_join", load.result(120))
        class_run = {**BOARD, "start": CLASS_START, "speed": args.speed}
        started = self.check_acks("start", main("call", names=["instructor"], event="start", data=class_run))
        self.class_run = started["instructor"].get("run")
        self.check_acks("start", main("call", names=rest, event="start", each={n: start_of[n] for n in rest}))
        time.sleep(args.settle)
        self.phase("load30", args.load_seconds)

        # 4. The class speeds up to 300 events/s, then back to a lecture's 30.
        paces = (
            ("load300", args.fast_speed, args.fast_seconds),
            ("preskip", args.speed, args.preskip_seconds),
        )
        for name, speed, seconds in paces:
            self.check_acks("speed", main("call", names=["instructor"], event="speed", data={"speed": speed}))
            time.sleep(args.settle)
            self.phase(name, seconds)

        # 5. One more student skips a naive 8x8 search to its end.
        skip_run = {**BOARD, "start": SKIP_START, "speed": args.speed, "paused": True}
        self.check_acks("start", main("call", names=["skipper"], event="start", data=skip_run))
        start = time.monotonic()
        self.check_acks("skip", main("call", names=["skipper"], event="skip"))
        ended = main(
            "wait", name="skipper", event="finished", within=args.skip_timeout, timeout=args.skip_timeout + 30
        )
        self.skip_finished = ended is not None
        if ended is None:  # a timing, not a failure: the run is stopped, the figures stand
            ended = time.monotonic()
            self.check_acks("stop", main("call", names=["skipper"], event="stop"))
        self.phases["skip"] = (start, ended)
        time.sleep(args.settle)
        self.phase("postskip", min(args.preskip_seconds, 3))

        # 6. The class pauses and the solos stop; what is in flight drains.
        self.check_acks("pause", main("call", names=["instructor"], event="pause"))
        self.check_acks("stop", main("call", names=solos, event="stop"))
        time.sleep(args.drain)

    def peers(self):
        """Return every client's summary, by name."""
        return {peer["name"]: peer for result in self.collected.values() for peer in result["peers"]}

    def report(self):
        """Check what the clients received and return the figures as text."""
        args = self.args
        everyone = self.peers()
        solos = [p for n, p in everyone.items() if re.fullmatch(r"s\d+", n)]
        baseline = solos[: args.baseline]
        followers = [p for n, p in everyone.items() if re.fullmatch(r"f\d+", n)]
        instructor, skipper = everyone["instructor"], everyone["skipper"]
        out = []
        say = out.append

        self.check_functional(everyone, solos, followers, instructor, skipper)

        command = " ".join(os.path.relpath(c, ROOT) if c.startswith("/") else c for c in self.server.command)
        say(f"\n=== {self.kind}: {command}")
        base_results, base_wall = self.connects["baseline"]
        rest_results, rest_wall = self.connects["rest"]
        c = spread([r["seconds"] for r in rest_results.values() if r.get("ok")])
        say(
            f"connect: {len(base_results)} baseline clients in {base_wall:.2f} s; then "
            f"{len(rest_results)} more in {rest_wall:.2f} s ({len(rest_results) / rest_wall:.0f}/s); "
            f"per client p50 {c['p50']:.0f} ms, p95 {c['p95']:.0f} ms, max {c['max']:.0f} ms"
        )

        cores = len(os.sched_getaffinity(0))
        say(
            f"\nphase       secs  server CPU% user+sys  RSS MB  threads  idle%/{cores * 100}  "
            f"other%  load CPU% (main/followers)  loop lag p95/max ms (main/followers)  "
            f"events/s  msgs/s"
        )
        for name, window in self.phases.items():
            figures = self.sampler.window(*window)
            if figures is None:
                continue
            events, messages = delivered(everyone.values(), window)
            span = window[1] - window[0]
            loop_lags = []
            for result in self.collected.values():
                s = loop_lag(result["lags"], window)
                loop_lags.append(f"{s['p95']:.0f}/{s['max']:.0f}")
            load_cpu = "/".join(f"{v:.0f}" for v in figures["loads"].values())
            cpu = f"{figures['server_user']:.0f}+{figures['server_sys']:.0f}"
            say(
                f"{name:<10} {span:>5.1f}  {cpu:>19}  "
                f"{figures['rss'] / 2**20:>6.0f}  {figures['threads']:>7}  {figures['idle']:>9.0f}  "
                f"{figures['other']:>6.0f}  "
                f"{load_cpu:>26}  {' '.join(loop_lags):>36}  {events / span:>8.0f}  "
                f"{messages / span:>6.0f}"
            )

        say(
            "\ndelays in ms (lag: behind the client's best-kept schedule, per event; fan-out: "
            "follower minus instructor, per batch; gap: between batches; pace: events received "
            "over events due)"
        )
        say(
            f"{'group':<22} {'phase':<9} {'p50':>7} {'p95':>7} {'p99':>7} {'max':>7} "
            f"{'samples':>9}   {'gap p95':>7} {'gap max':>7}  {'pace':>7}"
        )
        self.figures = {}

        def row(group, phase, values, gaps=None, pace=None):
            s = spread(values)
            g = spread(gaps) if gaps else None
            self.figures[(group, phase)] = s
            gap = f"{g['p95']:>7.0f} {g['max']:>7.0f}" if g else " " * 15
            pace = f"{pace:>6.1f}%" if pace is not None else ""
            say(
                f"{group:<22} {phase:<9} {s['p50']:>7.1f} {s['p95']:>7.1f} {s['p99']:>7.1f} "
                f"{s['max']:>7.1f} {s['n']:>9}   {gap}  {pace}"
            )

        speeds = {"load300": args.fast_speed}
        row(
            f"solo x{len(baseline)} (alone)", "baseline", *lags(baseline, self.phases["baseline"], args.speed)
        )
        for phase in ("load30", "load300", "preskip", "skip", "postskip"):
            window, speed = self.phases[phase], speeds.get(phase, args.speed)
            row(f"solo x{len(solos)} lag", phase, *lags(solos, window, args.speed))
            row(f"follower x{len(followers)} lag", phase, *lags(followers, window, speed, self.class_run))
            values, unmatched = fan_out(followers, instructor, window, self.class_run)
            row("follower fan-out", phase, values)
            if unmatched:
                self.problems.append(
                    f"{unmatched} follower batches in {phase} that the instructor never received"
                )
            row("instructor lag", phase, *lags([instructor], window, speed, self.class_run))

        skip_s = self.phases["skip"][1] - self.phases["skip"][0]
        finished = skipper["finished"][-1] if skipper["finished"] else {}
        reports = skipper["counts"].get("progress", 0)
        total = sum(EXPECTED[(8, "naive")])
        if self.skip_finished:
            say(
                f"\nskip: the naive 8x8 search from square {SKIP_START} ({total:,} events) was "
                f"searched to its end in {skip_s:.2f} s under load ({total / skip_s:,.0f} "
                f"events/s; {reports} progress reports; bench/skip.py times it alone); "
                f"visits {finished.get('visits'):,}, found {finished.get('found')}"
            )
        else:
            last = skipper["progress"] or {}
            rate = last.get("rate") or math.nan
            say(
                f"\nskip: NOT finished after {skip_s:.1f} s under load, so stopped: "
                f"{last.get('events') or 0:,} of {total:,} events searched ({rate:,.0f} events/s; "
                f"the whole search would take ~{total / rate:.0f} s)"
            )
        say(self.verdicts())
        return "\n".join(out)

    def verdicts(self):
        """Return the goals' lines: each p95 against its goal, and the extra delays."""
        f, lines = self.figures, ["\ngoals:"]
        solos = f"solo x{self.args.solos} lag"
        followers = f"follower x{self.args.followers} lag"
        base = f[(f"solo x{self.args.baseline} (alone)", "baseline")]
        for phase in ("load30", "load300"):
            for group in (followers, "follower fan-out", solos):
                p95 = f[(group, phase)]["p95"]
                lines.append(
                    f"  {group:<20} {phase:<8} p95 {p95:7.1f} ms  (goal < {GOAL_P95_MS}: "
                    f"{'met' if p95 < GOAL_P95_MS else 'NOT met'})"
                )
        extra = f[(solos, "load30")]["p95"] - base["p95"]
        lines.append(
            f"  {solos:<20} load30   p95 {extra:+7.1f} ms over the {self.args.baseline}-solo baseline"
        )
        for group in (solos, followers, "follower fan-out"):
            before, during = f[(group, "preskip")], f[(group, "skip")]
            extra95, extra_max = during["p95"] - before["p95"], during["max"] - before["max"]
            lines.append(
                f"  {group:<20} skip     p95 {extra95:+7.1f} ms, max {extra_max:+7.1f} ms "
                f"over pre-skip (goal < {GOAL_SKIP_EXTRA_MS}: "
                f"{'met' if extra95 < GOAL_SKIP_EXTRA_MS else 'NOT met'} for p95)"
            )
        return "\n".join(lines)

    def check_functional(self, everyone, solos, followers, instructor, skipper):
        """Note everything functionally wrong: in what clients received, and in the server's log."""
        for peer in everyone.values():
            for problem in peer["problems"][:3]:
                self.problems.append(f"{peer['name']}: {problem}")
            if len(peer["problems"]) > 3:
                self.problems.append(f"{peer['name']}: {len(peer['problems']) - 3} more problems")
        # The instructor's client received every batch of the class's run, so each follower must too.
        expected = instructor["events"]
        short = [p["name"] for p in followers if p["events"] != expected]
        if short:
            self.problems.append(
                f"{len(short)} followers hold another number of events than the "
                f"instructor's {expected} (e.g. {short[:5]})"
            )
        wanted = [
            ("playing", self.args.speed),
            ("playing", self.args.fast_speed),
            ("playing", self.args.speed),
            ("paused", self.args.speed),
        ]
        odd = [p["name"] for p in followers if p["controls"] != wanted]
        if odd:
            self.problems.append(
                f"{len(odd)} followers got other class_control messages than "
                f"{wanted} (e.g. {odd[0]}: {everyone[odd[0]]['controls']})"
            )
        self.problems.extend(f"{p['name']} received no events" for p in solos if p["events"] == 0)
        finished = skipper["finished"][-1] if skipper["finished"] else None
        visits, backtracks, _ = EXPECTED[(8, "naive")]
        if self.skip_finished and (
            not finished
            or (finished["visits"], finished["backtracks"], finished["found"]) != (visits, backtracks, True)
        ):
            self.problems.append(
                f"the skipped search ended with {finished}, expected "
                f"{visits} visits, {backtracks} backtracks, found"
            )
        # Anything in the server's log worse than a request line.
        self.log_problems = [
            line
            for line in self.log.splitlines()
            if "This is a development server" not in line and LOG_PROBLEM.search(line)
        ]


def parse(argv):
    """Parse the command line; --quick sets smaller defaults that other options still override."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help="a smoke run of under a minute: " + ", ".join(f"{key}={value}" for key, value in QUICK.items()),
    )
    parser.add_argument("--server", choices=(*SERVERS, "both"), default="both")
    parser.add_argument("--followers", type=int, default=300)
    parser.add_argument("--solos", type=int, default=100)
    parser.add_argument("--baseline", type=int, default=5, help="solo students of the baseline")
    parser.add_argument(
        "--follower-procs", type=int, default=1, help="load processes for the followers (default 1)"
    )
    parser.add_argument("--speed", type=float, default=30, help="events/s of solos and class")
    parser.add_argument("--fast-speed", type=float, default=300, help="the class's fast pace")
    parser.add_argument("--threads", type=int, default=500, help="gunicorn's --threads")
    parser.add_argument(
        "--pin",
        choices=("server", "split"),
        help="pin the server to the upper half of the cores (on 2 cores: one); with split, "
        "the load processes to the other half",
    )
    parser.add_argument(
        "--deflate", action="store_true", help="clients offer permessage-deflate, as browsers do"
    )
    parser.add_argument("--baseline-seconds", type=float, default=6)
    parser.add_argument("--load-seconds", type=float, default=12)
    parser.add_argument("--fast-seconds", type=float, default=8)
    parser.add_argument("--preskip-seconds", type=float, default=5)
    parser.add_argument(
        "--skip-timeout",
        type=float,
        default=25,
        help="seconds the skip may take before it is stopped (a timing, not a failure)",
    )
    parser.add_argument("--settle", type=float, default=1.5)
    parser.add_argument("--drain", type=float, default=2)
    if parser.parse_known_args(argv)[0].quick:
        parser.set_defaults(**QUICK)
    args = parser.parse_args(argv)
    if args.baseline > args.solos or min(args.followers, args.solos, args.follower_procs) < 1:
        parser.error(
            "need at least one follower, one solo and one follower process; --baseline at most --solos"
        )
    return args


def main(argv=None):
    """Run the scenario on each server, print its figures and checks; return the exit status."""
    args = parse(argv)
    kinds = list(SERVERS) if args.server == "both" else [args.server]
    print(
        f"Classroom load: {args.followers} followers of one class + {args.solos} solo students "
        f"at {args.speed:g} events/s ({BOARD['rows']}x{BOARD['cols']} {BOARD['order']}), "
        f"class at {args.speed:g} then {args.fast_speed:g} events/s; then one skip of the "
        f"naive 8x8 search."
    )
    print(
        f"Machine: {os.cpu_count()} cores shared by the server and the load processes; "
        f"Python {sys.version.split()[0]}, python-socketio {metadata.version('python-socketio')}; "
        f"server code at {code_version()}"
    )
    print(
        "Clients: python-socketio AsyncClient over websocket"
        f"{' with permessage-deflate' if args.deflate else ''}; 'main' load process = "
        f"instructor, solos, skipper; {args.follower_procs} follower process(es)."
    )

    scenarios = []
    timer = watchdog(DEADLINE, lambda: [s.server.close() for s in scenarios if s.server])
    failed = False
    for kind in kinds:
        scenario = Scenario(kind, args)
        scenarios.append(scenario)
        try:
            scenario.run()
            text = scenario.report()
        except Exception:  # noqa: BLE001 - a scenario that could not run is a failure
            failed = True
            print(f"\n=== {kind}: could not run\n{traceback.format_exc()}", flush=True)
            print(scenario.log[-3000:])
            continue
        print(text, flush=True)
        print(
            f"server threads just after the clients closed: {scenario.server_threads_end} "
            f"(each connection's ping thread sleeps out its 25 s; gunicorn keeps its pool)"
        )
        if scenario.log_problems:
            print(f"server log: {len(scenario.log_problems)} lines of warnings/errors, e.g.:")
            for line in list(dict.fromkeys(scenario.log_problems))[:8]:
                print(f"  {line[:200]}")
        else:
            print("server log: no errors or warnings")
        for note in scenario.notes:
            print(f"note: {note}")
        if scenario.problems:
            failed = True
            print(f"FUNCTIONAL PROBLEMS ({len(scenario.problems)}):")
            for problem in scenario.problems[:30]:
                print(f"  {problem}")
        else:
            print(
                "functional checks: every follower got every class batch in order, equal to "
                "the instructor's and the search's; every solo's events contiguous and right; "
                "no refusals, no drops; "
                + (
                    "the skip's counts right"
                    if scenario.skip_finished
                    else "the skip was stopped before its end, so its counts were not checked"
                )
            )
    timer.cancel()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
