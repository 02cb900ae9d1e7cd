"""Benchmark one server process under a classroom's load, with real Socket.IO clients.

The goal: one server process on a 2-core machine (shared with the load generator) serves
1,000 students following one class (stretch: 2,000) plus 100 students running their own
searches, the class at 30 events/s and then at 300; every follower receives every update, in
order; the class keeps its pace (at least 95% of its events arrive on time); the followers'
delivery delay stays under 250 ms at the 95th percentile; and the server spends at most
100 µs of CPU per message it delivers to a follower. While one more student skips a naive 8x8
search to its end, everyone else's delay grows by less than 100 ms (p95).

The server runs in its own process, as one or both of two stacks (--server):
  production  `python -m server`: gunicorn with one gevent worker (a greenlet a connection);
  threads     gunicorn with one gthread worker (--threads: a thread a connection, and
              Engine.IO's own threads) and the app in threading mode: the stack it replaced.
The clients are asyncio python-socketio clients in load processes of their own
(bench/load.py): one for the instructor, the solo students and the skipper, and one or more
for the followers. They share the machine's cores with the server, so the load processes'
CPU and event-loop lag are printed beside the server's.

Half the followers (and half the solo students; the instructor and the skipper too) are
browser-like: their upgrade request offers permessage-deflate exactly as Chromium does
(`Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits`, checked on the wire
before the run); the other half offer nothing. Each client keeps the server's answer: the
production server must accept no extension, so a browser sends and receives plain frames.
The two follower groups are reported apart.

Phases: baseline (a few solo students alone), load30 (the class at 30 events/s with its
followers, and every solo student at 30 events/s), load300 (the class at 300 events/s),
preskip (the class at 30 again), skip (one more student skips the naive 8x8 search, stopped
after --skip-timeout seconds if it has not ended; with --skippers N, N more students each skip a
naive 32x32 search, which never ends, meanwhile), postskip.

What is measured (the server puts no timestamps in its payloads; see bench/stats.py):
  lag       per event: how much later than its client's best-kept schedule in the phase it
            arrived; it includes the batching of a tick (server.runs.player.TICK: a batch every
            100 ms above 10 events/s), and grows if the server falls behind the pace.
  fan-out   per class batch: a follower's arrival time less the instructor's for the same
            batch (the instructor's copy is emitted just before the room's): the delivery delay.
  gap       time between two batches a client receives (ideal: one tick).
  pace      events a group received in a phase over the events its speed promised.
  order     class batches a follower missed, received out of order or twice (against the
            instructor's, which are every batch of the run).
  CPU/msg   the server's CPU (user + system, gunicorn's master and worker) in a phase over the
            class batches its followers received in the same sampled window.
  extra     p95 (or max) of a group in a phase less the same in its reference phase: the
            baseline for the solo students, preskip for the skip.
Beside them: the server's peak RSS and threads; each load process's CPU and event-loop lag;
the machine's idle time; and "other", busy time of no process measured here (loopback
networking's softirqs, or another program: far above 0 in the baseline means the machine
was not quiet).

Timings are printed beside their goals as met or not met, never asserted; the exit status is
non-zero only if something is functionally wrong: a client missed, reordered or got wrong
events, was refused or dropped, the production server accepted a compression extension, the
clients' offers were not what they should be, or the skipped search ended with the wrong
counts. The last figures and the verdicts of past experiments are in docs/benchmarks.md.
"""

import argparse
import contextlib
import itertools
import math
import os
import re
import sys
import time
import traceback
from importlib import metadata

from common import EXPECTED  # also puts the project on the import path
from hall import (
    FOLLOWERS_PER_PROC,
    GOAL_P95_MS,
    GOAL_SKIP_EXTRA_MS,
    Hall,
    browsers,
    check_offers,
    split,
    verdict,
)
from processes import SERVERS, Profile, code_version, halves, hot_spots, watchdog
from stats import delivered, fan_out, lags, loop_lag, order, spread

from server.edge.guard import HANDSHAKE_BURST, HANDSHAKE_RATE

BOARD = {"rows": 8, "cols": 8, "order": "naive"}
CLASS_START = 0
SKIP_START = 0  # the naive 8x8 search from square 0: 35,479,473 events to its first tour
GOAL_FOLLOWERS, STRETCH_FOLLOWERS, GOAL_SOLOS = 1000, 2000, 100
GOAL_PACE = 95  # percent of the events due
GOAL_CPU_US = 100  # server CPU per message delivered to a follower
STACKS = {
    "production": "python -m server: gunicorn, one gevent worker",
    "threads": "gunicorn, one gthread worker, app in threading mode",
}
QUICK = {  # a smoke run: every phase, a small class (half browser-like), a few seconds each
    "server": "production",
    "followers": 40,
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
PROFILED = ("load30", "load300")  # the phases --profile records
CORES = len(os.sched_getaffinity(0))
SATURATED_IDLE = 20  # percent of all cores idle, below which the machine is called saturated


class Classroom(Hall):
    """One server under the classroom's phases, and the figures of its run."""

    def __init__(self, kind, args):
        super().__init__(kind, args)
        self.server_threads = args.threads
        self.connects = {}
        self.figures = {}  # (group, phase) -> spread
        self.key = {}  # phase -> the figures the summary and the comparison use
        self.goals = []  # (goal, met)
        self.profiles = []  # (phase, target, path of the raw recording, failure or None)

    def pinning(self):
        """Return the CPUs of the load processes and of the server (None: all of them)."""
        if not self.args.pin:
            return None, None
        lower, upper = halves()
        return (lower if self.args.pin == "split" else None), upper

    def follower_groups(self):
        """Return the followers' load processes, followers1, 2, ..., and the followers of each."""
        groups = split([f"f{i}" for i in range(self.args.followers)], self.args.follower_procs)
        return [(f"followers{i + 1}", names) for i, names in enumerate(groups)]

    @contextlib.contextmanager
    def watching(self, phase, seconds):
        """Profile a phase while it runs, if asked to."""
        recordings = self.record(phase, seconds)
        yield
        for target, path, recording in recordings:
            failure = recording.wait()
            self.profiles.append((phase, target, path, failure))

    def stopping(self, server):
        """Keep the server's threads just after the clients closed."""
        self.server_threads_end = server.threads()

    def record(self, phase, seconds):
        """Start py-spy on the server's worker and the first followers' process, if asked to."""
        if not self.args.profile or phase not in PROFILED or seconds < 2:
            return []
        os.makedirs(self.args.profile, exist_ok=True)
        worker, followers = self.server.worker(), self.loads["followers1"]
        targets = [("server", worker.pid if worker else None), ("followers1", followers.process.pid)]
        recordings = []
        for target, pid in targets:
            if pid is None:
                continue
            path = os.path.join(self.args.profile, f"{self.kind}-{self.args.followers}-{phase}-{target}.txt")
            try:
                recordings.append((target, path, Profile(pid, seconds - 1, path)))
            except (OSError, RuntimeError) as exc:
                self.notes.append(f"could not profile {target} in {phase}: {exc}")
        return recordings

    def drive(self, main):
        """Run the phases: baseline, load30, load300, preskip, skip, postskip."""
        args = self.args
        follower_loads = list(self.loads.values())
        groups = [names for _, names in self.groups]
        solos = [f"s{i}" for i in range(args.solos)]
        baseline, rest = solos[: args.baseline], solos[args.baseline :]
        start_of = {
            name: {**BOARD, "start": (7 * i + 1) % 64, "speed": args.speed} for i, name in enumerate(solos)
        }

        # 1. Baseline: a few solo students alone on the server.
        began = time.monotonic()
        self.connects["baseline"] = (
            main("connect", names=baseline, browser=browsers(baseline)),
            time.monotonic() - began,
        )
        self.check_acks("connect", self.connects["baseline"][0])
        self.check_acks(
            "start", main("call", names=baseline, event="start", each={n: start_of[n] for n in baseline})
        )
        time.sleep(args.settle)
        self.phase("baseline", args.baseline_seconds)

        # 2. Everyone else connects, the followers' processes and the main one together, in
        # waves that the server's limit on new connections from one address admits.
        skippers = [f"k{i}" for i in range(args.skippers)]
        main_names = [*rest, "instructor", "skipper", *skippers]
        wanted = [(main, main_names), *zip(follower_loads, groups, strict=True)]
        self.connects["rest"] = self.connect_in_waves(wanted)
        self.check_acks("connect", self.connects["rest"][0])

        # 3. The class opens, its followers join, its run starts; the other solos start.
        opened = self.check_acks("class_open", main("call", names=["instructor"], event="class_open"))
        code = opened["instructor"].get("code")
        for load, names in zip(follower_loads, groups, strict=True):
            load.send("call", names=names, event="class_join", data={"code": code})
        for load in follower_loads:
            self.check_acks("class_join", load.result(300))
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

        # 5. One more student skips a naive 8x8 search to its end (and --skippers more skip
        # searches that never end).
        skip_run = {**BOARD, "start": SKIP_START, "speed": args.speed, "paused": True}
        self.check_acks("start", main("call", names=["skipper"], event="start", data=skip_run))
        if skippers:
            endless = {**skip_run, "rows": 32, "cols": 32}
            self.check_acks("start", main("call", names=skippers, event="start", data=endless))
            self.check_acks("skip", main("call", names=skippers, event="skip"))
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
        if skippers:
            self.check_acks("stop", main("call", names=skippers, event="stop"))
        time.sleep(args.settle)
        self.phase("postskip", min(args.preskip_seconds, 3))

        # 6. The class pauses and the solos stop; what is in flight drains.
        self.check_acks("pause", main("call", names=["instructor"], event="pause"))
        self.check_acks("stop", main("call", names=solos, event="stop"))
        time.sleep(args.drain)

    def report(self):
        """Check what the clients received and return the figures as text."""
        args = self.args
        everyone = self.peers()
        solos = [p for n, p in everyone.items() if re.fullmatch(r"s\d+", n)]
        baseline = solos[: args.baseline]
        followers = [p for n, p in everyone.items() if re.fullmatch(r"f\d+", n)]
        kinds = {
            "browser": [p for p in followers if p["browser"]],
            "plain": [p for p in followers if not p["browser"]],
        }
        instructor, skipper = everyone["instructor"], everyone["skipper"]
        out = []
        say = out.append

        self.check_functional(everyone, solos, followers, instructor, skipper)

        say(f"\n=== {self.kind} ({STACKS[self.kind]}): {self.command_line()}")
        base_results, base_wall = self.connects["baseline"]
        rest_results, rest_wall, waves = self.connects["rest"]
        c = spread([r["seconds"] for r in rest_results.values() if r.get("ok")])
        say(
            f"connect: {len(base_results)} baseline clients in {base_wall:.2f} s; then "
            f"{len(rest_results)} more in {rest_wall:.2f} s, in {waves} wave(s) a second apart "
            f"(--connect-burst, --connect-rate); "
            f"per client p50 {c['p50']:.0f} ms, p95 {c['p95']:.0f} ms, max {c['max']:.0f} ms"
        )
        say(self.extensions_line(everyone))
        say(
            "load processes' garbage collection, longest pause / total ms: "
            + ", ".join(
                f"{name} {result['gc']['max'] * 1000:.0f}/{result['gc']['total'] * 1000:.0f}"
                for name, result in self.collected.items()
            )
        )

        cores = len(os.sched_getaffinity(0))
        say(
            f"\nphase       secs  server CPU% user+sys  µs CPU/follower msg  RSS MB  threads  "
            f"idle%/{cores * 100}  other%  load CPU% (main/followers...)  "
            f"loop lag p95/max ms (main/followers...)  events/s  msgs/s  follower msgs/s"
        )
        for name, window in self.phases.items():
            figures = self.sampler.window(*window)
            if figures is None:
                continue
            events, messages = delivered(everyone.values(), window)
            span = window[1] - window[0]
            # CPU and messages over the same sampled window.
            sampled = figures["sampled"]
            follower_msgs = delivered(followers, sampled)[1]
            per_msg = 1e6 * figures["server_cpu_s"] / follower_msgs if follower_msgs else math.nan
            loop_lags = []
            for result in self.collected.values():
                s = loop_lag(result["lags"], window)
                loop_lags.append(f"{s['p95']:.0f}/{s['max']:.0f}")
            load_cpu = "/".join(f"{v:.0f}" for v in figures["loads"].values())
            cpu = f"{figures['server_user']:.0f}+{figures['server_sys']:.0f}"
            say(
                f"{name:<10} {span:>5.1f}  {cpu:>19}  {per_msg:>19.1f}  "
                f"{figures['rss'] / 2**20:>6.0f}  {figures['threads']:>7}  {figures['idle']:>9.0f}  "
                f"{figures['other']:>6.0f}  "
                f"{load_cpu:>29}  {' '.join(loop_lags):>39}  {events / span:>8.0f}  "
                f"{messages / span:>6.0f}  {follower_msgs / (sampled[1] - sampled[0]):>15.0f}"
            )
            self.key[name] = {
                "cpu_us": per_msg,
                "cpu_percent": figures["server_user"] + figures["server_sys"],
                "rss": figures["rss"],
                "threads": figures["threads"],
                "idle": figures["idle"],
                "loads": figures["loads"],
            }

        say(
            "\ndelays in ms (lag: behind the client's best-kept schedule, per event; fan-out: "
            "follower minus instructor, per batch: the delivery delay; gap: between batches; "
            "pace: events received over events due). browser: followers offering "
            "permessage-deflate as Chromium does; plain: offering nothing"
        )
        say(
            f"{'group':<24} {'phase':<9} {'p50':>7} {'p95':>7} {'p99':>7} {'max':>7} "
            f"{'samples':>9}   {'gap p95':>7} {'gap max':>7}  {'pace':>7}"
        )

        def row(group, phase, values, gaps=None, pace=None):
            s = spread(values)
            g = spread(gaps) if gaps else None
            self.figures[(group, phase)] = {**s, "pace": pace}
            gap = f"{g['p95']:>7.0f} {g['max']:>7.0f}" if g else " " * 15
            pace = f"{pace:>6.1f}%" if pace is not None else ""
            say(
                f"{group:<24} {phase:<9} {s['p50']:>7.1f} {s['p95']:>7.1f} {s['p99']:>7.1f} "
                f"{s['max']:>7.1f} {s['n']:>9}   {gap}  {pace}"
            )

        speeds = {"load300": args.fast_speed}
        row(
            f"solo x{len(baseline)} (alone)", "baseline", *lags(baseline, self.phases["baseline"], args.speed)
        )
        for phase in ("load30", "load300", "preskip", "skip", "postskip"):
            window, speed = self.phases[phase], speeds.get(phase, args.speed)
            row(f"solo x{len(solos)} lag", phase, *lags(solos, window, args.speed))
            for kind, group in kinds.items():
                row(f"{kind} x{len(group)} lag", phase, *lags(group, window, speed, self.class_run))
            for kind, group in kinds.items():
                values, unmatched = fan_out(group, instructor, window, self.class_run)
                row(f"{kind} fan-out", phase, values)
                if unmatched:
                    self.problems.append(
                        f"{unmatched} {kind} follower batches in {phase} that the instructor never received"
                    )
            row("instructor lag", phase, *lags([instructor], window, speed, self.class_run))

        self.order = {}
        for kind, group in kinds.items():
            missed, reordered, repeated = self.order[kind] = order(group, instructor, self.class_run)
            if missed or reordered or repeated:
                self.problems.append(
                    f"{kind} followers: {missed} class batches missed, {reordered} out of order, "
                    f"{repeated} received twice"
                )
        batches = len(instructor["firsts"])
        say(
            f"\norder: of the class's {batches} batches (the instructor's), "
            + "; ".join(
                f"{kind} followers missed {m}, got {r} out of order and {d} twice"
                for kind, (m, r, d) in self.order.items()
            )
        )

        skip_s = self.phases["skip"][1] - self.phases["skip"][0]
        finished = skipper["finished"][-1] if skipper["finished"] else {}
        reports = skipper["counts"].get("progress", 0)
        total = sum(EXPECTED[(8, "naive")])
        if self.skip_finished:
            say(
                f"skip: the naive 8x8 search from square {SKIP_START} ({total:,} events) was "
                f"searched to its end in {skip_s:.2f} s under load ({total / skip_s:,.0f} "
                f"events/s; {reports} progress reports; bench/skip.py times it alone); "
                f"visits {finished.get('visits'):,}, found {finished.get('found')}"
            )
        else:
            last = skipper["progress"] or {}
            rate = last.get("rate") or math.nan
            say(
                f"skip: NOT finished after {skip_s:.1f} s under load, so stopped: "
                f"{last.get('events') or 0:,} of {total:,} events searched ({rate:,.0f} events/s; "
                f"the whole search would take ~{total / rate:.0f} s)"
            )
        say(self.verdicts(kinds))
        say(self.profile_text())
        return "\n".join(out)

    def profile_text(self, top=12):
        """Return the hot spots of each py-spy recording: by own time, and with what they call."""
        lines = []
        for phase, target, path, failure in self.profiles:
            if failure:
                lines.append(f"\nprofile of {target} in {phase}: {failure}")
                continue
            total, own, within = hot_spots(path, top + 12)
            # Leave out the frames under which (nearly) everything ran: the process's roots.
            within = [(share, name) for share, name in within if share < 0.97][:top]
            own = own[:top]
            lines.append(
                f"\nprofile of {target} in {phase} (py-spy, {total} samples of its busy time; raw stacks "
                f"in {path}): share of samples, own time | including callees"
            )
            for (own_share, own_name), (in_share, in_name) in itertools.zip_longest(
                own, within, fillvalue=(0, "")
            ):
                lines.append(f"  {own_share:6.1%} {own_name[:75]:<75} | {in_share:6.1%} {in_name[:80]}")
        return "\n".join(lines)

    def verdicts(self, kinds):
        """Return the goals' lines, and keep each goal's verdict and the summary's figures."""
        args, f = self.args, self.figures
        lines = ["\ngoals:"]
        solos = f"solo x{args.solos} lag"
        base = f[(f"solo x{args.baseline} (alone)", "baseline")]

        def goal(text, ok):
            self.goals.append((text, ok))
            lines.append(f"  {text}: {verdict(ok)}")

        scale = args.followers >= GOAL_FOLLOWERS and args.solos >= GOAL_SOLOS
        lines.append(
            f"  scale: {args.followers:,} followers + {args.solos} solo students (goal {GOAL_FOLLOWERS:,} + "
            f"{GOAL_SOLOS}, stretch {STRETCH_FOLLOWERS:,} followers): "
            + (
                ("stretch scale" if args.followers >= STRETCH_FOLLOWERS else "goal scale")
                if scale
                else "below the goal's scale, so its verdicts are not the goal's"
            )
        )
        in_order = not any(sum(counts) for counts in self.order.values())
        goal(
            "every update delivered to every follower, in order (both groups)",
            in_order and not self.problems,
        )
        for phase in ("load30", "load300"):
            paces = {kind: f[(f"{kind} x{len(group)} lag", phase)]["pace"] for kind, group in kinds.items()}
            paces["instructor"] = f[("instructor lag", phase)]["pace"]
            goal(
                f"{phase:<8} pace "
                + ", ".join(f"{k} {v:.1f}%" for k, v in paces.items())
                + f" (goal >= {GOAL_PACE}%)",
                all(v >= GOAL_PACE for v in paces.values()),
            )
            fan = {kind: f[(f"{kind} fan-out", phase)] for kind in kinds}
            goal(
                f"{phase:<8} follower delivery p95 "
                + ", ".join(f"{k} {v['p95']:.1f} ms" for k, v in fan.items())
                + f" (goal < {GOAL_P95_MS})",
                all(v["p95"] < GOAL_P95_MS for v in fan.values()),
            )
            late = {kind: f[(f"{kind} x{len(group)} lag", phase)]["p95"] for kind, group in kinds.items()}
            late["solo"] = f[(solos, phase)]["p95"]
            goal(
                f"{phase:<8} lag behind schedule p95 "
                + ", ".join(f"{k} {v:.1f} ms" for k, v in late.items())
                + f" (goal < {GOAL_P95_MS})",
                all(v < GOAL_P95_MS for v in late.values()),
            )
            cpu = self.key.get(phase, {}).get("cpu_us", math.nan)
            goal(
                f"{phase:<8} server CPU {cpu:.1f} µs per follower message (goal <= {GOAL_CPU_US})",
                cpu <= GOAL_CPU_US,
            )
            self.key.setdefault(phase, {}).update({"fan": fan, "pace": paces, "late": late})
            machine = self.key[phase]
            if "idle" in machine:
                loads = sum(machine["loads"].values())
                saturated = machine["idle"] < SATURATED_IDLE
                lines.append(
                    f"  {phase:<8} machine: idle {machine['idle']:.0f}% of {100 * CORES}, "
                    f"server {machine['cpu_percent']:.0f}%, load processes {loads:.0f}%"
                    + (
                        ": SATURATED, so the delays include the load processes' own (see their loop lag)"
                        if saturated
                        else ""
                    )
                )
        extra = f[(solos, "load30")]["p95"] - base["p95"]
        lines.append(f"  {solos:<20} load30   p95 {extra:+7.1f} ms over the {args.baseline}-solo baseline")
        for group in (solos, *(f"{kind} fan-out" for kind in kinds)):
            before, during = f[(group, "preskip")], f[(group, "skip")]
            extra95, extra_max = during["p95"] - before["p95"], during["max"] - before["max"]
            goal(
                f"{group:<20} skip     p95 {extra95:+7.1f} ms, max {extra_max:+7.1f} ms "
                f"over pre-skip (goal < {GOAL_SKIP_EXTRA_MS} for p95)",
                extra95 < GOAL_SKIP_EXTRA_MS,
            )
        missing = [text.split(" (goal")[0].strip() for text, ok in self.goals if not ok]
        lines.append(
            f"  all goals {'met' if not missing else 'NOT met'} with {args.followers:,} followers"
            + (f" (not met: {'; '.join(missing)})" if missing else "")
        )
        return "\n".join(lines)

    def summary_rows(self):
        """Return the summary's rows of this run: one a phase at 30 and 300 events/s."""
        rows = []
        for phase in ("load30", "load300"):
            k = self.key.get(phase)
            if not k or "fan" not in k:
                continue
            fan = k["fan"]
            delays = "  ".join(
                f"{fan[kind]['p50']:>4.0f}/{fan[kind]['p95']:>4.0f}/{fan[kind]['p99']:>4.0f}" for kind in fan
            )
            pace = min(k["pace"].values())
            missed = sum(m + d for m, _, d in self.order.values())  # missed, or received twice
            reordered = sum(r for _, r, _ in self.order.values())
            rows.append(
                f"{self.kind:<10} {self.args.followers:>9,} {phase:<8} {delays}  {pace:>6.1f}%  "
                f"{k['cpu_us']:>6.1f}  {k['rss'] / 2**20:>6.0f}  {k['threads']:>7}  "
                f"{f'{missed}/{reordered}':>12}"
            )
        return rows

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
        self.check_log()


def parse(argv):
    """Parse the command line; --quick sets smaller defaults that other options still override."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help="a smoke run of 20 to 30 s: " + ", ".join(f"{key}={value}" for key, value in QUICK.items()),
    )
    parser.add_argument(
        "--server",
        choices=(*SERVERS, "both"),
        default="production",
        help="production (python -m server: gunicorn + gevent), threads (gunicorn gthread), or "
        "both, one after the other (default production)",
    )
    parser.add_argument("--followers", type=int, default=GOAL_FOLLOWERS, help="half of them browser-like")
    parser.add_argument("--solos", type=int, default=GOAL_SOLOS)
    parser.add_argument("--baseline", type=int, default=5, help="solo students of the baseline")
    parser.add_argument(
        "--follower-procs",
        type=int,
        help=f"load processes for the followers (default: one per {FOLLOWERS_PER_PROC} followers)",
    )
    parser.add_argument("--speed", type=float, default=30, help="events/s of solos and class")
    parser.add_argument("--fast-speed", type=float, default=300, help="the class's fast pace")
    parser.add_argument(
        "--threads",
        type=int,
        help="the threads stack's gunicorn --threads (default: one per client, plus 64: each "
        "WebSocket holds one for its life)",
    )
    parser.add_argument(
        "--max-per-address",
        type=int,
        default=5000,
        help="connections (and handshakes at once) the server admits from one address: every "
        "client here comes from 127.0.0.1 (default 5000)",
    )
    parser.add_argument(
        "--connect-burst",
        type=int,
        default=int(0.9 * HANDSHAKE_BURST),
        help="clients connecting at once, then --connect-rate a second (default: 90%% of the "
        "server's default handshake limits, which --max-per-address does not raise: see "
        "docs/benchmarks.md)",
    )
    parser.add_argument(
        "--connect-rate",
        type=int,
        default=int(0.9 * HANDSHAKE_RATE),
        help="clients connecting each second after the first --connect-burst (0: all at once)",
    )
    parser.add_argument(
        "--pin",
        choices=("server", "split"),
        help="pin the server to the upper half of the cores (on 2 cores: one); with split, "
        "the load processes to the other half",
    )
    parser.add_argument(
        "--profile",
        metavar="DIR",
        help="record the server's worker and the first followers' process with py-spy during "
        f"{' and '.join(PROFILED)}, keep the raw stacks in DIR and print the hot spots (py-spy "
        "takes some CPU of its own: the timings of such a run are not comparable)",
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
    parser.add_argument(
        "--skippers",
        type=int,
        default=0,
        help="students who each skip a naive 32x32 search (which never ends) during the skip phase",
    )
    parser.add_argument("--settle", type=float, default=1.5)
    parser.add_argument("--drain", type=float, default=2)
    if parser.parse_known_args(argv)[0].quick:
        parser.set_defaults(**QUICK)
    args = parser.parse_args(argv)
    if args.baseline > args.solos or min(args.followers, args.solos) < 1:
        parser.error("need at least one follower and one solo; --baseline at most --solos")
    if args.follower_procs is None:
        args.follower_procs = math.ceil(args.followers / FOLLOWERS_PER_PROC)
    if args.follower_procs < 1:
        parser.error("need at least one follower process")
    if args.threads is None:
        args.threads = args.followers + args.solos + 64
    return args


def compare(scenarios):
    """Return the lines comparing the threads peer with the production stack, if both ran."""
    by_kind = {s.kind: s for s in scenarios if s.goals}
    if set(by_kind) != {"production", "threads"}:
        return []
    prod, peer = by_kind["production"].key, by_kind["threads"].key
    lines = ["\nthreads peer against production (threads / production, same run, same machine):"]
    for phase in ("load30", "load300"):
        if phase not in prod or phase not in peer or "fan" not in prod[phase] or "fan" not in peer[phase]:
            continue
        p, t = prod[phase], peer[phase]
        fan = "; ".join(
            f"{kind} p95 {t['fan'][kind]['p95']:.0f} / {p['fan'][kind]['p95']:.0f} ms" for kind in p["fan"]
        )
        lines.append(
            f"  {phase:<8} CPU per follower message {t['cpu_us']:.1f} / {p['cpu_us']:.1f} µs "
            f"(x{t['cpu_us'] / p['cpu_us']:.2f}); server CPU {t['cpu_percent']:.0f} / "
            f"{p['cpu_percent']:.0f}%; RSS {t['rss'] / 2**20:.0f} / {p['rss'] / 2**20:.0f} MB "
            f"(x{t['rss'] / p['rss']:.2f}); threads {t['threads']} / {p['threads']}; delivery {fan}"
        )
    return lines


def main(argv=None):
    """Run the scenario on each server, print its figures and checks; return the exit status."""
    args = parse(argv)
    kinds = list(SERVERS) if args.server == "both" else [args.server]
    print(
        f"Classroom load: {args.followers} followers of one class (half browser-like) + {args.solos} "
        f"solo students at {args.speed:g} events/s ({BOARD['rows']}x{BOARD['cols']} {BOARD['order']}), "
        f"class at {args.speed:g} then {args.fast_speed:g} events/s; then one skip of the "
        f"naive 8x8 search. Server: {', then '.join(kinds)}."
    )
    print(
        f"Machine: {os.cpu_count()} cores shared by the server and the load processes; "
        f"Python {sys.version.split()[0]}, python-socketio {metadata.version('python-socketio')}, "
        f"aiohttp {metadata.version('aiohttp')}, gunicorn {metadata.version('gunicorn')}, "
        f"gevent {metadata.version('gevent')}; server code at {code_version()}"
    )
    print(
        f"Clients: python-socketio AsyncClient over websocket; 'main' load process = instructor, "
        f"solos, skipper; {args.follower_procs} follower process(es)."
    )
    wire, wire_problems = check_offers()
    print(wire, flush=True)
    failed = bool(wire_problems)
    for problem in wire_problems:
        print(f"FUNCTIONAL PROBLEM: {problem}")

    scenarios = []
    deadline = len(kinds) * (600 + 0.3 * args.followers)
    timer = watchdog(deadline, lambda: [s.server.close() for s in scenarios if s.server])
    for kind in kinds:
        scenario = Classroom(kind, args)
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
            f"server threads just after the clients closed: {scenario.server_threads_end}"
            + (
                " (each connection's ping thread sleeps out its interval; gunicorn keeps its pool)"
                if kind == "threads"
                else ""
            )
        )
        for line in scenario.log_lines():
            print(line)
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
                + ("no extension accepted; " if kind == "production" else "")
                + (
                    "the skip's counts right"
                    if scenario.skip_finished
                    else "the skip was stopped before its end, so its counts were not checked"
                )
            )
    timer.cancel()
    rows = [row for scenario in scenarios if scenario.goals for row in scenario.summary_rows()]
    if rows:
        print(
            "\nsummary (delivery delay = fan-out, ms p50/p95/p99; pace = the lowest of the groups' "
            "and the instructor's; CPU = server µs per follower message; missed/reord = class batches "
            "the followers missed (or got twice) / got out of order, over the whole run)"
        )
        print(
            f"{'stack':<10} {'followers':>9} {'phase':<8} {'browser-like':>14}  {'plain':>14}  "
            f"{'pace':>7}  {'CPU µs':>6}  {'RSS MB':>6}  {'threads':>7}  {'missed/reord':>12}"
        )
        for row in rows:
            print(row)
    for line in compare(scenarios):
        print(line)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
