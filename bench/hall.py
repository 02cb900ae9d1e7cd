"""A lecture hall of Socket.IO clients against one server process: what the load scenarios share.

Hall runs one scenario: it starts the server (processes.py) and the load processes (load.py),
one named "main" for the clients a scenario drives one by one (instructors, students) and one
or more for the followers; connects the clients in waves that the server's limit on new
connections from one address admits; lets the load run for named phases while the server and
the load processes are sampled; and collects what every client received. A scenario
(classroom.py, polls.py) is a subclass that says which followers each load process holds and
drives its phases. Beside it: the checks every scenario makes (refusals, the extensions the
server accepted, its log, the clients' offers on the wire), which clients are browser-like,
and the goals the scenarios share.
"""

import contextlib
import itertools
import math
import os
import re
import time
import traceback

from common import ROOT  # also puts the project on the import path
from load import Load, offers_on_the_wire
from processes import Sampler, ServerProcess, watchdog
from stats import delivered, fan_out, lags, spread

FOLLOWERS_PER_PROC = 500  # followers in one load process, by default
GOAL_P95_MS = 250  # a follower's delivery delay, and its lag behind schedule, at the 95th percentile
GOAL_SKIP_EXTRA_MS = 100  # what other work (a skip, a class's answers) may add to a stream's p95
# A line of the server's log worse than a request line (a 5xx status is one).
LOG_PROBLEM = re.compile(r"Traceback|Error|Exception|CRITICAL|WORKER TIMEOUT|\[ERROR\]|WARNING|\" 5\d\d ")


def browser_like(name):
    """Return whether a client offers permessage-deflate as Chromium does: every other one."""
    number = re.fullmatch(r"[fs](\d+)", name)
    return not number or int(number[1]) % 2 == 0


def browsers(names):
    """Return the browser-like names among names."""
    return [name for name in names if browser_like(name)]


def verdict(ok):
    return "met" if ok else "NOT met"


def split(names, parts):
    """Split names into at most `parts` runs of one length (the last one shorter)."""
    per = math.ceil(len(names) / parts)
    return [names[i : i + per] for i in range(0, len(names), per)]


def close_loads(loads, notes):
    """Tell each load process to close, and note how any of them failed."""
    for load in loads:
        load.send("close")
    for load in loads:
        try:
            load.result(60)
        except RuntimeError as exc:
            notes.append(str(exc).splitlines()[0])


def check_offers():
    """Read the clients' upgrade requests off the wire; return (line to print, problems)."""
    offers = offers_on_the_wire()
    problems = []
    if offers["browser"] != offers["chromium"]:
        problems.append(
            f"browser-like clients offer {offers['browser']!r}, not Chromium's {offers['chromium']!r}"
        )
    if offers["plain"] is not None:
        problems.append(f"plain clients offer {offers['plain']!r}, not nothing")
    line = (
        f"On the wire: browser-like clients send 'Sec-WebSocket-Extensions: {offers['browser']}' "
        f"({'Chromium' if offers['browser'] == offers['chromium'] else 'NOT Chromium'}'s offer); "
        f"plain clients send {'none' if offers['plain'] is None else repr(offers['plain'])}."
    )
    return line, problems


class Hall:
    """One server process under a scenario's load, and what its clients received.

    A scenario says which followers each load process holds (follower_groups) and drives its
    phases with the main load process (drive). It may pin the processes to CPUs (pinning),
    give the threads stack its threads (server_threads), watch each phase (watching), ask the
    load processes for more than the clients' summaries (gather), and read the server before
    it stops (stopping).
    """

    server_threads = None  # the threads stack's gunicorn --threads
    server_options = ()  # python -m server's own options, beside those every hall gives it
    PAGES = False  # whether each client loads the page first, as a browser does (and has its badge)

    def __init__(self, kind, args):
        self.kind, self.args = kind, args
        self.problems = []  # functional failures: each makes the exit status non-zero
        self.notes = []
        self.phases = {}  # name -> (start, end)
        self.server = None
        self.log, self.log_problems = "", []

    def follower_groups(self):
        """Return [(load process name, follower names)]: a load process each."""
        raise NotImplementedError

    def drive(self, main):
        """Run the scenario's phases, with main the load process of the clients it drives."""
        raise NotImplementedError

    def pinning(self):
        """Return the CPUs of the load processes and of the server (None: all of them)."""
        return None, None

    def watching(self, phase, seconds):
        """Return a context that watches a phase while it runs: none by default."""
        return contextlib.nullcontext()

    def gather(self, main):
        """Ask the load processes for what the scenario reads besides the clients' summaries."""

    def stopping(self, server):
        """Read what the scenario needs of the server after its clients closed, before it stops."""

    def run(self):
        """Start the server and the load processes, drive the phases, collect the clients."""
        load_cpus, server_cpus = self.pinning()
        self.server = server = ServerProcess(
            self.kind, self.server_threads, self.args.max_per_address, server_cpus, self.server_options
        )
        loads = []
        try:
            server.wait_ready()
            main = Load("main", server.url, False, load_cpus)
            loads.append(main)
            self.groups = self.follower_groups()
            self.loads = {name: Load(name, server.url, False, load_cpus) for name, _ in self.groups}
            loads.extend(self.loads.values())
            self.sampler = Sampler(server, loads)
            try:
                self.drive(main)
            finally:
                self.sampler.stop()
                self.gather(main)
                self.collected = {load.name: load("collect", timeout=300) for load in loads}
                close_loads(loads, self.notes)
        finally:
            for load in loads:
                load.close()
            self.stopping(server)
            server.close()
            self.log = server.log_text()
            server.log.close()

    def phase(self, name, seconds):
        """Let the load run for a phase, noting when it began and ended."""
        start = time.monotonic()
        with self.watching(name, seconds):
            time.sleep(seconds)
            self.phases[name] = (start, time.monotonic())

    def check_acks(self, what, acks):
        """Note every client whose request was refused or unanswered; return the acks."""
        bad = {name: ack for name, ack in acks.items() if not (isinstance(ack, dict) and ack.get("ok"))}
        for name, ack in list(bad.items())[:5]:
            self.problems.append(f"{what}: {name} got {ack}")
        if len(bad) > 5:
            self.problems.append(f"{what}: {len(bad) - 5} more clients got a refusal or no answer")
        return acks

    def connect_in_waves(self, wanted):
        """Connect [(load, names)] in waves a second apart; return (acks by name, seconds, waves)."""
        began = time.monotonic()
        results, waves = {}, self.waves(wanted)
        for number, wave in enumerate(waves):
            time.sleep(max(0.0, began + number - time.monotonic()))  # a wave a second
            for load, names in wave.items():
                load.send("connect", names=names, browser=browsers(names), pages=self.PAGES)
            for load in wave:
                results.update(load.result(600))
        return results, time.monotonic() - began, len(waves)

    def waves(self, wanted):
        """Split [(load, names)] into waves of connections, a second apart: {load: names} each.

        The first wave takes --connect-burst clients (less the --baseline ones, connected
        before), each later one --connect-rate: the server admits at most so many new
        connections from one address at once, and so many a second after. Each wave takes
        clients of every load process, the main one's first.
        """
        args = self.args
        # Round-robin over the processes, so that each wave loads all of them alike.
        by_load = [[(load, name) for name in names] for load, names in wanted]
        queue = [pair for row in itertools.zip_longest(*by_load) for pair in row if pair]
        if args.connect_rate <= 0:
            sizes = [len(queue)]
        else:
            first = max(1, args.connect_burst - args.baseline)
            sizes = [first, *[args.connect_rate] * math.ceil(max(0, len(queue) - first) / args.connect_rate)]
        waves, at = [], 0
        for size in sizes:
            wave = {}
            for load, name in queue[at : at + size]:
                wave.setdefault(load, []).append(name)
            waves.append(wave)
            at += size
        return waves

    def peers(self):
        """Return every client's summary, by name."""
        return {peer["name"]: peer for result in self.collected.values() for peer in result["peers"]}

    def extensions_line(self, everyone):
        """Say what the browser-like clients were answered, and note it if the server took deflate."""
        offered = [p for p in everyone.values() if p["browser"]]
        accepted = [p for p in offered if p["extensions"]]
        plain_accepted = [p for p in everyone.values() if not p["browser"] and p["extensions"]]
        answers = sorted({p["extensions"] for p in accepted})
        if accepted or plain_accepted:
            problem = (
                f"the server accepted {answers} for {len(accepted)} of {len(offered)} browser-like "
                f"clients (and an extension for {len(plain_accepted)} plain ones)"
            )
            # The production server must refuse compression; the threads peer is only reported.
            (self.problems if self.kind == "production" else self.notes).append(problem)
        return (
            f"extensions: {len(offered)} browser-like clients offered permessage-deflate as Chromium "
            f"does; the server accepted an extension for {len(accepted)} of them"
            + (f" ({', '.join(answers)})" if answers else " (no Sec-WebSocket-Extensions in its answer)")
            + f"; {len(everyone) - len(offered)} plain clients offered none"
        )

    def stream(self, followers, instructor, window, run, whose="a class"):
        """Return a class's stream in a window, from its followers' and instructor's summaries:
        fan-out spread, lag p95 and max, events/s each, pace; note the batches its instructor
        never received (whose names the class in the note)."""
        values, unmatched = fan_out(followers, instructor, window, run)
        if unmatched:
            self.problems.append(f"{unmatched} batches of {whose} that its instructor never received")
        events, _ = delivered(followers, window)
        late, _, pace = lags(followers, window, self.args.speed, run)
        # Fan-out cannot see a stall of the whole server (the instructor's copy waits too): lag can.
        lag = spread(late)
        return {
            **spread(values),
            "lag95": lag["p95"],
            "lagmax": lag["max"],
            "rate": events / (window[1] - window[0]) / len(followers),
            "pace": pace,
        }

    def check_log(self):
        """Keep the lines of the server's log worse than a request line."""
        self.log_problems = [line for line in self.log.splitlines() if LOG_PROBLEM.search(line)]

    def log_lines(self):
        """Return the lines that say what the server's log holds worse than requests."""
        if not self.log_problems:
            return ["server log: no errors or warnings"]
        return [
            f"server log: {len(self.log_problems)} lines of warnings/errors, e.g.:",
            *(f"  {line[:200]}" for line in list(dict.fromkeys(self.log_problems))[:8]),
        ]

    def command_line(self):
        """Return the server's command, with the project's paths relative to it."""
        return " ".join(os.path.relpath(c, ROOT) if c.startswith("/") else c for c in self.server.command)


def run_and_report(bench, seconds, passed):
    """Run a single-server scenario (a Hall), print its figures, its log's problems and its
    notes, or what failed; return the exit status. seconds: the watchdog's limit; passed: the
    sentence that says what was checked, printed when nothing was wrong."""
    wire, problems = check_offers()
    print(wire, flush=True)
    timer = watchdog(seconds, lambda: bench.server and bench.server.close())
    try:
        bench.run()
        text = bench.report()
    except Exception:  # noqa: BLE001 - a run that could not finish is a failure
        print(f"\ncould not run:\n{traceback.format_exc()}", flush=True)
        print(bench.log[-3000:])
        return 1
    finally:
        timer.cancel()
    print(f"\n=== production ({bench.command_line()})")
    print(text)
    for line in bench.log_lines():
        print(line)
    for note in bench.notes:
        print(f"note: {note}")
    problems += bench.problems
    if problems:
        print(f"FUNCTIONAL PROBLEMS ({len(problems)}):")
        for problem in problems[:30]:
            print(f"  {problem}")
    else:
        print(passed)
    return 1 if problems or bench.log_problems else 0
