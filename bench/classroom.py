"""Benchmark one server process under a classroom's load, with real Socket.IO clients.

The issue's goal: one server process on this 2-core machine serves 300 students following one
class session plus 100 students running their own searches at 30 events/s; every follower
receives every update, in order; the 95th percentile delivery delay stays under 250 ms. And
while one student skips a naive 8x8 search to its end, everyone else's events keep their pace
(extra delay under 100 ms).

The server runs in its own process (werkzeug's threaded server as `python -m server`, and
gunicorn's threaded worker); the clients are python-socketio AsyncClients (asyncio + aiohttp)
in separate load processes: one for the instructor, the solo students and the skipper, one or
more for the followers. All of them share the machine's 2 cores with the server, so the load
generator's own CPU and event-loop lag are printed beside the server's.

What is measured (the server puts no timestamps in its payloads):
  lag       per event: (receive time - n / speed) minus the smallest such offset the same
            client had in the same phase, i.e. how late event n arrived against the best-kept
            schedule of that client; it includes the batching of a tick (33 ms) above 30/s,
            and it grows if the server falls behind the pace (the player's credit is capped
            at two ticks, so time lost is never made up).
  fan-out   per class batch: a follower's receive time minus the instructor's receive time
            of the same (run, first) batch; the instructor's batch is emitted (and acked)
            just before the room's. All processes read the same CLOCK_MONOTONIC.
  gap       time between two consecutive batches a client receives (ideal: 33 ms).
  pace      events a group received in a phase over the events its speed promised.
  extra     p95 (or max) of a group in a phase minus the same in its reference phase: the
            5-solo baseline for the solo students, the pre-skip window for the skip.
Beside them: the server's CPU (user + system, all its processes), peak RSS and threads; each
load process's CPU and event-loop lag (how late a 20 ms sleep wakes: its own delay, which
the clients' figures include); the machine's idle time; and "other", the busy time of no
process measured here (softirqs of loopback networking, or another program running: a figure
far above 0 in the baseline means the machine was not quiet and the run should be repeated).

Phases: baseline (5 solo students alone), load30 (class at 30 events/s, 300 followers, 100 solo
students at 30 events/s), load300 (the class at 300 events/s), preskip (class at 30 again),
skip (one more student skips a naive 8x8 search to its end, stopped after --skip-timeout
seconds if it has not ended), postskip. Timings are printed, never asserted; the exit status is
non-zero only if something is functionally wrong: a follower or a student missed, reordered
or got wrong events, a client was refused or dropped, a request was refused, or the skipped
search ended with the wrong counts.

Run: .venv/bin/python bench/classroom.py [--server werkzeug|gunicorn|both]   (both: ~2.5 min)

Experiments (not the defaults): --deflate makes the clients offer permessage-deflate, as
browsers do; --pin server|split pins the server to one core (split: the load processes to the
other); --tweak changes server settings at run time without touching its files, through a
launcher in this script (see apply_tweaks), to measure a proposed change before making it.
"""

import argparse
import array
import asyncio
import collections
import itertools
import math
import multiprocessing
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import urllib.request
from importlib import metadata

import psutil
import socketio
from common import EXPECTED, ROOT  # also puts the project on the import path

from server.engine.graph import knight_graph
from server.engine.search import BACKTRACK, VISIT, knight_tour

PYTHON = sys.executable
BOARD = {"rows": 8, "cols": 8, "order": "naive"}
CLASS_START = 0
SKIP_START = 0  # the naive 8x8 search from square 0: 35,479,473 events to its first tour
GOAL_P95_MS = 250
GOAL_SKIP_EXTRA_MS = 100
DEADLINE = 600  # seconds the whole script may take before it kills what it started


# ----------------------------------------------------------------------------------------
# The load processes: asyncio Socket.IO clients, driven by commands over a pipe.


def encode(events):
    """Encode (kind, vertex, depth) events as the server does."""
    return [v if kind == VISIT else -v - 1 if kind == BACKTRACK else kind for kind, v, _ in events]


class Engine:
    """The events the server must send for a board, computed here, extended as needed."""

    def __init__(self):
        self.made = {}

    def prefix(self, rows, cols, start, order, count):
        key = (rows, cols, start, order)
        codes, events = self.made.setdefault(key, ([], knight_tour(knight_graph(rows, cols), start, order)))
        if len(codes) < count:
            codes.extend(encode(itertools.islice(events, count - len(codes))))
        return codes[:count]


class Peer:
    """One Socket.IO client that keeps what it receives, stamped on arrival."""

    def __init__(self, name, url, deflate=False):
        self.name, self.url = name, url
        # Browsers offer permessage-deflate, and simple-websocket accepts it; aiohttp only
        # offers it when asked.
        options = {"websocket_extra_options": {"compress": 15}} if deflate else {}
        self.sio = socketio.AsyncClient(reconnection=False, **options)
        self.received = []  # (monotonic time, event, payload), in arrival order
        self.connect_s = None
        self.dropped = None
        self.closing = False
        self.sio.on("*", self.keep)
        self.sio.on("disconnect", self.gone)

    def keep(self, event, payload=None):
        self.received.append((time.monotonic(), event, payload))
        return True  # acknowledges the batches and progress reports the server asks about

    def gone(self, reason=None):
        if not self.closing:
            self.dropped = f"disconnected by the server ({reason})"

    async def connect(self):
        began = time.monotonic()
        await self.sio.connect(self.url, transports=["websocket"], wait_timeout=30)
        self.connect_s = time.monotonic() - began

    def summary(self, engine):
        """Rebuild the runs this client saw, check them, and return what the parent needs."""
        problems, counts = [], collections.Counter()
        stamps, firsts, sizes, runs = array.array("d"), array.array("q"), array.array("l"), []
        codes, run, board, controls, finished, progress = None, None, None, [], [], None
        checked = []  # (board, codes) of each run seen, to compare with the engine
        for stamp, event, payload in self.received:
            counts[event] += 1
            if event == "class_state":
                snapshot = payload.get("snapshot")
                if payload.get("run"):
                    run, board = payload["run"]["run"], payload["run"]
                    codes = [None] * snapshot["events"] if snapshot else []
            elif event == "started":
                if codes is not None and board is not None:
                    checked.append((board, codes))
                run, board, codes = payload["run"], payload, []
            elif event == "events":
                if codes is None or payload["run"] != run:
                    problems.append(f"a batch of run {payload['run']} outside its run")
                    continue
                first, batch = payload["first"], payload["events"]
                if first != len(codes):
                    kind = "gap" if first > len(codes) else "overlap"
                    problems.append(
                        f"{kind}: run {run} batch starts at event {first} after {len(codes)} events"
                    )
                    codes.extend([None] * max(0, first - len(codes)))
                codes.extend(batch[len(codes) - first :])
                stamps.append(stamp)
                firsts.append(first)
                sizes.append(len(batch))
                runs.append(run)
            elif event == "snapshot":
                problems.append(
                    f"a snapshot of run {payload['run']} at a pace the room should get every batch of"
                )
                codes = [None] * payload["events"]
            elif event == "class_control":
                controls.append((payload["state"], payload["speed"]))
            elif event == "progress":
                progress = {key: payload.get(key) for key in ("events", "elapsed", "rate")}
            elif event == "finished":
                finished.append(
                    {
                        key: payload.get(key)
                        for key in ("run", "found", "visits", "backtracks", "tours", "stopped")
                    }
                )
            elif event == "error":
                problems.append(f"the server sent an error: {payload}")
        if codes is not None and board is not None:
            checked.append((board, codes))
        for seen_board, seen in checked:
            if not seen or seen_board.get("speed") == 0:
                continue
            expected = engine.prefix(
                seen_board["rows"], seen_board["cols"], seen_board["start"], seen_board["order"], len(seen)
            )
            if seen != expected:
                at = next(i for i, (a, b) in enumerate(zip(seen, expected)) if a != b)
                problems.append(
                    f"run {seen_board['run']}: event {at} is {seen[at]!r}, the search's is {expected[at]!r}"
                )
        if self.dropped:
            problems.append(self.dropped)
        return {
            "name": self.name,
            "connect_s": self.connect_s,
            "problems": problems,
            "counts": dict(counts),
            "events": len(codes) if codes is not None else 0,
            "run": run,
            "controls": controls,
            "finished": finished,
            "progress": progress,
            "stamps": stamps,
            "firsts": firsts,
            "sizes": sizes,
            "runs": runs,
        }


class LoadProcess:
    """The clients of one load process, and the commands the parent sends it."""

    def __init__(self, conn, url, deflate):
        self.conn, self.url, self.deflate = conn, url, deflate
        self.peers = {}
        self.engine = Engine()
        self.lags = array.array("d")  # (time, lag) pairs of the event loop, flattened

    async def tick(self):
        """Measure how late the event loop wakes a 20 ms sleep."""
        while True:
            began = time.monotonic()
            await asyncio.sleep(0.02)
            self.lags.extend((began, time.monotonic() - began - 0.02))

    async def gather(self, names, make, limit=25):
        """Run make(peer) for the named peers, limit at a time; return {name: result}."""
        gate = asyncio.Semaphore(limit)

        async def one(name):
            async with gate:
                try:
                    return name, await make(self.peers[name])
                except Exception as exc:  # noqa: BLE001 - reported to the parent
                    return name, {"ok": False, "error": f"{type(exc).__name__}: {exc}"}

        return dict(await asyncio.gather(*(one(name) for name in names)))

    async def do_connect(self, names):
        for name in names:
            self.peers[name] = Peer(name, self.url, self.deflate)

        async def connect(peer):
            await peer.connect()
            return {"ok": True, "seconds": peer.connect_s}

        return await self.gather(names, connect)

    async def do_call(self, names, event, data=None, each=None):
        """Send event to the named peers (data, or each[name]); return their acks."""
        return await self.gather(
            names, lambda peer: peer.sio.call(event, each[peer.name] if each else data, timeout=30), limit=50
        )

    async def do_wait(self, name, event, within):
        """Wait until a peer has received event; return its arrival time, or None."""
        deadline = time.monotonic() + within
        while time.monotonic() < deadline:
            for stamp, seen, _ in self.peers[name].received:
                if seen == event:
                    return stamp
            await asyncio.sleep(0.05)
        return None

    async def do_collect(self):
        out = [peer.summary(self.engine) for peer in self.peers.values()]
        return {"peers": out, "lags": self.lags}

    async def do_close(self):
        for peer in self.peers.values():
            peer.closing = True

        async def close(peer):
            if peer.sio.connected:
                await asyncio.wait_for(peer.sio.disconnect(), 10)
            return True

        return await self.gather(list(self.peers), close, limit=50)

    async def main(self):
        loop = asyncio.get_running_loop()
        ticker = asyncio.create_task(self.tick())
        while True:
            command, args = await loop.run_in_executor(None, self.conn.recv)
            if command == "exit":
                break
            try:
                result = ("ok", await getattr(self, "do_" + command)(**args))
            except Exception:  # noqa: BLE001 - reported to the parent
                result = ("error", traceback.format_exc())
            self.conn.send(result)
        ticker.cancel()


def load_main(conn, url, deflate, cpus):
    """The entry point of a load process."""
    if cpus:
        os.sched_setaffinity(0, cpus)
    try:
        asyncio.run(LoadProcess(conn, url, deflate).main())
    finally:
        conn.close()


class Load:
    """The parent's handle on a load process."""

    def __init__(self, name, url, deflate, cpus=None):
        self.name = name
        context = multiprocessing.get_context("spawn")
        self.conn, child = context.Pipe()
        self.process = context.Process(target=load_main, args=(child, url, deflate, cpus), daemon=True)
        self.process.start()
        child.close()
        self.ps = psutil.Process(self.process.pid)
        self.pending = None

    def send(self, command, **args):
        self.pending = command
        self.conn.send((command, args))

    def result(self, timeout=120):
        if not self.conn.poll(timeout):
            raise RuntimeError(f"load process {self.name} did not finish {self.pending!r} within {timeout} s")
        status, value = self.conn.recv()
        if status != "ok":
            raise RuntimeError(f"load process {self.name} failed {self.pending!r}:\n{value}")
        return value

    def __call__(self, command, timeout=120, **args):
        self.send(command, **args)
        return self.result(timeout)

    def close(self):
        try:
            self.send("exit")
        except OSError:
            pass
        self.process.join(10)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(5)


# ----------------------------------------------------------------------------------------
# The server process, and what it costs.


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


TWEAKS_ENV = "KT_CLASSROOM_TWEAKS"


def apply_tweaks(spec):
    """Change the server's settings at run time, for experiments (--tweak); no file changes.

    switch=S       sys.setswitchinterval(S): how long a thread keeps the GIL while others wait
    tick=S         server.player.TICK: seconds between two batches of a run above 1/S events/s
    skip_sleep=S   the skipping thread sleeps S seconds between two slices, yielding the GIL
    skip_slice=N   server.player.SKIP_SLICE: events searched per slice while skipping
    nodeflate=1    drop Sec-WebSocket-Extensions from requests, so no permessage-deflate
    Return a function that finishes the app (the tweaks that need it).
    """
    from server import player

    def finish(app):
        return app

    for item in filter(None, spec.split(",")):
        key, _, value = item.partition("=")
        if key == "switch":
            sys.setswitchinterval(float(value))
        elif key == "tick":
            player.TICK = float(value)
        elif key == "skip_slice":
            player.SKIP_SLICE = int(value)
        elif key == "skip_sleep":
            pause, made = float(value), player.Player.__init__

            def __init__(self, *args, _made=made, _pause=pause, **kwargs):
                _made(self, *args, **kwargs)

                def clock(player=self):  # _skip reads the clock once a slice, unlocked
                    if player._skipping:
                        time.sleep(_pause)
                    return time.monotonic()

                self._clock = clock

            player.Player.__init__ = __init__
        elif key == "nodeflate":

            def finish(app):
                inner = app.wsgi_app  # Flask-SocketIO's middleware, which upgrades to websocket

                def no_extensions(environ, start_response):
                    environ.pop("HTTP_SEC_WEBSOCKET_EXTENSIONS", None)
                    return inner(environ, start_response)

                app.wsgi_app = no_extensions
                return app
        else:
            raise ValueError(f"unknown tweak {key!r}")
    return finish


def tweaked_app():
    """The app, with the tweaks named in the environment (gunicorn's entry point)."""
    from server import create_app

    finish = apply_tweaks(os.environ.get(TWEAKS_ENV, ""))
    return finish(create_app())


def serve_tweaked(port):
    """`python -m server`, with the tweaks named in the environment (werkzeug's entry point)."""
    import server.__main__ as entry

    finish, create_app = apply_tweaks(os.environ.get(TWEAKS_ENV, "")), entry.create_app
    entry.create_app = lambda *args, **kwargs: finish(create_app(*args, **kwargs))
    entry.main(["--host", "127.0.0.1", "--port", str(port)])


class ServerProcess:
    """The app in its own process: werkzeug's threaded server, or gunicorn's gthread worker."""

    def __init__(self, kind, threads, tweaks="", cpus=None):
        self.kind, self.port = kind, free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = tempfile.NamedTemporaryFile("w+", prefix=f"classroom-{kind}-", suffix=".log")
        gunicorn = os.path.join(os.path.dirname(PYTHON), "gunicorn")
        bench = os.path.dirname(os.path.abspath(__file__))
        if kind == "werkzeug" and not tweaks:
            self.command = [PYTHON, "-m", "server", "--host", "127.0.0.1", "--port", str(self.port)]
        elif kind == "werkzeug":
            self.command = [
                PYTHON,
                "-c",
                f"import sys; sys.path[:0] = [{bench!r}, {str(ROOT)!r}]; "
                f"import classroom; classroom.serve_tweaked({self.port})",
            ]
        else:
            self.command = [
                gunicorn,
                "-w",
                "1",
                "--threads",
                str(threads),
                "-b",
                f"127.0.0.1:{self.port}",
                "--graceful-timeout",
                "5",
            ]
            self.command += (
                ["--pythonpath", bench, "classroom:tweaked_app()"] if tweaks else ["server:create_app()"]
            )
        if cpus:
            self.command = ["taskset", "-c", ",".join(map(str, sorted(cpus))), *self.command]
        self.process = subprocess.Popen(
            self.command,
            cwd=ROOT,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            env={**os.environ, TWEAKS_ENV: tweaks},
        )
        self.ps = psutil.Process(self.process.pid)

    def wait_ready(self, timeout=30):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the {self.kind} server exited:\n{self.log_text()[-2000:]}")
            try:
                with urllib.request.urlopen(self.url + "/", timeout=2) as answer:
                    if answer.status == 200:
                        return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError(f"the {self.kind} server did not answer within {timeout} s")

    def processes(self):
        """The server's processes: gunicorn's master and its worker, or werkzeug's one."""
        try:
            return [self.ps, *self.ps.children(recursive=True)]
        except psutil.NoSuchProcess:
            return []

    def close(self):
        procs = self.processes()
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT if self.kind == "werkzeug" else signal.SIGTERM)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                for proc in procs:
                    try:
                        proc.kill()
                    except psutil.NoSuchProcess:
                        pass
                self.process.wait(5)

    def log_text(self):
        self.log.flush()
        self.log.seek(0)
        return self.log.read()


class Sampler:
    """Sample the CPU time, memory and threads of the server and the load processes."""

    def __init__(self, server, loads, every=0.25):
        self.server, self.loads, self.every = server, loads, every
        # (time, server (user, system) s, server rss, server threads, {load: cpu s},
        #  (machine idle s, machine busy s, this process's cpu s))
        self.samples = []
        self.me = psutil.Process()
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    @staticmethod
    def cpu(proc):
        times = proc.cpu_times()
        return times.user + times.system

    def sample(self):
        user = system = rss = threads = 0
        for proc in self.server.processes():
            try:
                with proc.oneshot():
                    times = proc.cpu_times()
                    user, system = user + times.user, system + times.system
                    rss += proc.memory_info().rss
                    threads += proc.num_threads()
            except psutil.NoSuchProcess:
                pass
        loads = {}
        for load in self.loads:
            try:
                loads[load.name] = self.cpu(load.ps)
            except psutil.NoSuchProcess:
                loads[load.name] = math.nan
        machine = psutil.cpu_times()
        idle = machine.idle + getattr(machine, "iowait", 0)
        self.samples.append(
            (
                time.monotonic(),
                (user, system),
                rss,
                threads,
                loads,
                (idle, sum(machine) - idle, self.cpu(self.me)),
            )
        )

    def run(self):
        while not self.stopping.wait(self.every):
            self.sample()

    def stop(self):
        self.stopping.set()
        self.thread.join(5)

    def window(self, start, end):
        """Return the figures of [start, end]: CPU percents, peak RSS and threads."""
        inside = [s for s in self.samples if start <= s[0] <= end]
        if len(inside) < 2:
            return None
        (t0, c0, *_, l0, m0), (t1, c1, *_, l1, m1) = inside[0], inside[-1]
        span = t1 - t0
        figures = {
            "server_user": 100 * (c1[0] - c0[0]) / span,
            "server_sys": 100 * (c1[1] - c0[1]) / span,
            "rss": max(s[2] for s in inside),
            "threads": max(s[3] for s in inside),
            "loads": {name: 100 * (l1[name] - l0[name]) / span for name in l0},
            "idle": 100 * (m1[0] - m0[0]) / span,  # of all cores together: 200 = 2 idle cores
        }
        # Busy time not spent in the server, the load processes or this one: the kernel's
        # softirqs (loopback networking), and any other program running meanwhile.
        figures["other"] = (
            100 * (m1[1] - m0[1] - (m1[2] - m0[2])) / span
            - figures["server_user"]
            - figures["server_sys"]
            - sum(figures["loads"].values())
        )
        return figures


# ----------------------------------------------------------------------------------------
# Figures.


def percentile(values, q):
    """Nearest-rank percentile of a sorted list."""
    if not values:
        return math.nan
    return values[min(len(values) - 1, max(0, math.ceil(q / 100 * len(values)) - 1))]


def spread(values):
    """Return p50, p95, p99, max and count of values (seconds), in milliseconds."""
    values = sorted(values)
    return {
        "p50": percentile(values, 50) * 1000,
        "p95": percentile(values, 95) * 1000,
        "p99": percentile(values, 99) * 1000,
        "max": (values[-1] if values else math.nan) * 1000,
        "n": len(values),
    }


def batches_in(peer, window, run=None):
    start, end = window
    for stamp, first, size, batch_run in zip(peer["stamps"], peer["firsts"], peer["sizes"], peer["runs"]):
        if start <= stamp < end and (run is None or batch_run == run):
            yield stamp, first, size


def lags(peers, window, speed, run=None):
    """Per-event lag behind each client's best-kept schedule in window, batch gaps, pace.

    The pace is the events the clients received in window over what speed promises them.
    """
    out, gaps, clients = [], [], 0
    for peer in peers:
        offsets, previous = [], None
        for stamp, first, size in batches_in(peer, window, run):
            offsets.extend(stamp - n / speed for n in range(first, first + size))
            if previous is not None:
                gaps.append(stamp - previous)
            previous = stamp
        if offsets:
            clients += 1
            best = min(offsets)
            out.extend(offset - best for offset in offsets)
    span = window[1] - window[0]
    pace = 100 * len(out) / (clients * span * speed) if clients else math.nan
    return out, gaps, pace


def fan_out(followers, instructor, window, run):
    """Per-batch delay of each follower behind the instructor's receipt of the same batch."""
    reference = {first: stamp for stamp, first, _ in batches_in(instructor, (0, math.inf), run)}
    out, unmatched = [], 0
    for peer in followers:
        for stamp, first, _ in batches_in(peer, window, run):
            if first in reference:
                out.append(stamp - reference[first])
            else:
                unmatched += 1
    return out, unmatched


def delivered(peers, window):
    """Events and messages (batches) received by these peers in window."""
    events = messages = 0
    for peer in peers:
        for _, _, size in batches_in(peer, window):
            events += size
            messages += 1
    return events, messages


def loop_lag(lags, window):
    start, end = window
    pairs = zip(lags[0::2], lags[1::2])
    return spread([lag for stamp, lag in pairs if start <= stamp < end])


# ----------------------------------------------------------------------------------------
# One scenario: a server, the phases, the figures.


class Scenario:
    def __init__(self, kind, args):
        self.kind, self.args = kind, args
        self.problems = []  # functional failures: each makes the exit status non-zero
        self.notes = []
        self.phases = {}  # name -> (start, end)
        self.connects = {}

    def pinning(self):
        """The CPUs of the load processes and of the server, or (None, None) to share all."""
        if not self.args.pin:
            return None, None
        cpus = sorted(os.sched_getaffinity(0))
        server = set(cpus[len(cpus) // 2 :])
        return (set(cpus[: len(cpus) // 2]) if self.args.pin == "split" else None), server

    def check_acks(self, what, acks):
        bad = {name: ack for name, ack in acks.items() if not (isinstance(ack, dict) and ack.get("ok"))}
        for name, ack in list(bad.items())[:5]:
            self.problems.append(f"{what}: {name} got {ack}")
        if len(bad) > 5:
            self.problems.append(f"{what}: {len(bad) - 5} more clients got a refusal or no answer")
        return acks

    def phase(self, name, seconds):
        start = time.monotonic()
        time.sleep(seconds)
        self.phases[name] = (start, time.monotonic())

    def run(self):
        args = self.args
        server = ServerProcess(self.kind, args.threads, args.tweak, self.pinning()[1])
        self.server = server
        loads = []
        try:
            server.wait_ready()
            load_cpus = self.pinning()[0]
            main = Load("main", server.url, args.deflate, load_cpus)
            loads.append(main)
            per = math.ceil(args.followers / args.follower_procs)
            follower_names = [f"f{i}" for i in range(args.followers)]
            groups = [follower_names[i : i + per] for i in range(0, args.followers, per)]
            follower_loads = [
                Load(f"followers{i + 1}", server.url, args.deflate, load_cpus) for i in range(len(groups))
            ]
            loads.extend(follower_loads)
            sampler = Sampler(server, loads)
            self.sampler = sampler
            try:
                self.drive(main, follower_loads, groups)
            finally:
                sampler.stop()
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
            self.server_threads_end = sum(p.num_threads() for p in server.processes() if p.is_running())
            server.close()
            self.log = server.log_text()
            server.log.close()

    def drive(self, main, follower_loads, groups):
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
        for load, names in zip(follower_loads, groups):
            load.send("connect", names=names)
        others = main("connect", names=[*rest, "instructor", "skipper"], timeout=300)
        results = dict(others)
        for load in follower_loads:
            results.update(load.result(300))
        self.connects["rest"] = (results, time.monotonic() - began)
        self.check_acks("connect", results)

        # 3. The class opens, its followers join, its run starts; the other solos start.
        opened = self.check_acks("class_open", main("call", names=["instructor"], event="class_open"))[
            "instructor"
        ]
        code = opened.get("code")
        for load, names in zip(follower_loads, groups):
            load.send("call", names=names, event="class_join", data={"code": code})
        for load in follower_loads:
            self.check_acks("class_join", load.result(120))
        class_run = {**BOARD, "start": CLASS_START, "speed": args.speed}
        started = self.check_acks("start", main("call", names=["instructor"], event="start", data=class_run))[
            "instructor"
        ]
        self.class_run = started.get("run")
        self.check_acks("start", main("call", names=rest, event="start", each={n: start_of[n] for n in rest}))
        time.sleep(args.settle)
        self.phase("load30", args.load_seconds)

        # 4. The class speeds up to 300 events/s, then back to a lecture's 30.
        self.check_acks(
            "speed", main("call", names=["instructor"], event="speed", data={"speed": args.fast_speed})
        )
        time.sleep(args.settle)
        self.phase("load300", args.fast_seconds)
        self.check_acks(
            "speed", main("call", names=["instructor"], event="speed", data={"speed": args.speed})
        )
        time.sleep(args.settle)
        self.phase("preskip", args.preskip_seconds)

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

    # Figures -----------------------------------------------------------------------------

    def peers(self):
        everyone = {}
        for result in self.collected.values():
            for peer in result["peers"]:
                everyone[peer["name"]] = peer
        return everyone

    def report(self):
        args = self.args
        everyone = self.peers()
        solos = [p for n, p in everyone.items() if re.fullmatch(r"s\d+", n)]
        baseline = solos[: args.baseline]
        followers = [p for n, p in everyone.items() if re.fullmatch(r"f\d+", n)]
        instructor, skipper = everyone["instructor"], everyone["skipper"]
        out = []
        say = out.append

        self.check_functional(everyone, solos, followers, instructor, skipper)

        say(
            f"\n=== {self.kind}: {' '.join(os.path.relpath(c, ROOT) if c.startswith('/') else c for c in self.server.command)}"
        )
        base_results, base_wall = self.connects["baseline"]
        rest_results, rest_wall = self.connects["rest"]
        times = [r["seconds"] for r in rest_results.values() if r.get("ok")]
        c = spread(times)
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
            lag_texts = []
            for load_name, result in self.collected.items():
                spread_ = loop_lag(result["lags"], window)
                lag_texts.append(f"{spread_['p95']:.0f}/{spread_['max']:.0f}")
            load_cpu = "/".join(f"{v:.0f}" for v in figures["loads"].values())
            cpu = f"{figures['server_user']:.0f}+{figures['server_sys']:.0f}"
            say(
                f"{name:<10} {span:>5.1f}  {cpu:>19}  "
                f"{figures['rss'] / 2**20:>6.0f}  {figures['threads']:>7}  {figures['idle']:>9.0f}  "
                f"{figures['other']:>6.0f}  "
                f"{load_cpu:>26}  {' '.join(lag_texts):>36}  {events / span:>8.0f}  "
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

        speeds = {
            "load30": args.speed,
            "load300": args.fast_speed,
            "preskip": args.speed,
            "skip": args.speed,
            "postskip": args.speed,
        }
        row(
            f"solo x{len(baseline)} (alone)", "baseline", *lags(baseline, self.phases["baseline"], args.speed)
        )
        for phase in ("load30", "load300", "preskip", "skip", "postskip"):
            window = self.phases[phase]
            row(f"solo x{len(solos)} lag", phase, *lags(solos, window, args.speed))
            row(
                f"follower x{len(followers)} lag",
                phase,
                *lags(followers, window, speeds[phase], self.class_run),
            )
            values, unmatched = fan_out(followers, instructor, window, self.class_run)
            row("follower fan-out", phase, values)
            if unmatched:
                self.problems.append(
                    f"{unmatched} follower batches in {phase} that the instructor never received"
                )
            row("instructor lag", phase, *lags([instructor], window, speeds[phase], self.class_run))

        skip_s = self.phases["skip"][1] - self.phases["skip"][0]
        finished = skipper["finished"][-1] if skipper["finished"] else {}
        reports = skipper["counts"].get("progress", 0)
        total = sum(EXPECTED[(8, "naive")])
        if self.skip_finished:
            say(
                f"\nskip: the naive 8x8 search from square {SKIP_START} ({total:,} events) was "
                f"searched to its end in {skip_s:.2f} s under load ({total / skip_s:,.0f} "
                f"events/s; {reports} progress reports; alone it takes ~7-8 s, see "
                f"bench/skip.py); visits {finished.get('visits'):,}, found {finished.get('found')}"
            )
        else:
            last = skipper["progress"] or {}
            rate = last.get("rate") or math.nan
            say(
                f"\nskip: NOT finished after {skip_s:.1f} s under load, so stopped: "
                f"{last.get('events') or 0:,} of {total:,} events searched ({rate:,.0f} events/s; "
                f"the whole search would take ~{total / rate:.0f} s; alone it takes ~7-8 s)"
            )
        say(self.verdicts())
        return "\n".join(out)

    def verdicts(self):
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
        lines.append(f"  {solos:<20} load30   p95 {extra:+7.1f} ms over the 5-solo baseline")
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
        for peer in everyone.values():
            for problem in peer["problems"][:3]:
                self.problems.append(f"{peer['name']}: {problem}")
            if len(peer["problems"]) > 3:
                self.problems.append(f"{peer['name']}: {len(peer['problems']) - 3} more problems")
        # Every follower has exactly what the instructor's client received: every batch.
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
            sample = everyone[odd[0]]["controls"]
            self.problems.append(
                f"{len(odd)} followers got other class_control messages than "
                f"{wanted} (e.g. {odd[0]}: {sample})"
            )
        for peer in solos:
            if peer["events"] == 0:
                self.problems.append(f"{peer['name']} received no events")
        finished = skipper["finished"][-1] if skipper["finished"] else None
        visits, backtracks, tours = EXPECTED[(8, "naive")]
        if self.skip_finished and (
            not finished
            or (finished["visits"], finished["backtracks"], finished["found"]) != (visits, backtracks, True)
        ):
            self.problems.append(
                f"the skipped search ended with {finished}, expected "
                f"{visits} visits, {backtracks} backtracks, found"
            )
        # The server's log: anything worse than a request line.
        bad = [
            line
            for line in self.log.splitlines()
            if "This is a development server" not in line
            and re.search(
                r"Traceback|Error|Exception|CRITICAL|WORKER TIMEOUT|\[ERROR\]|"
                r"WARNING|\" 5\d\d ",
                line,
            )
        ]
        self.log_problems = bad


# ----------------------------------------------------------------------------------------


def code_version():
    """The commit the server's code is at, and whether server/ has changes not committed."""
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, text=True, capture_output=True, timeout=10
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--", "server"],
            cwd=ROOT,
            text=True,
            capture_output=True,
            timeout=10,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "an unknown commit"
    return f"commit {commit or '?'}{' with uncommitted changes in server/' if dirty else ''}"


def watchdog(seconds, cleanup):
    """Kill what this script started and exit if it runs for too long."""

    def fire():
        print(f"\nclassroom.py ran over {seconds} s: stopping", file=sys.stderr, flush=True)
        cleanup()
        os._exit(3)

    timer = threading.Timer(seconds, fire)
    timer.daemon = True
    timer.start()
    return timer


def main(argv=None):
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--server", choices=("werkzeug", "gunicorn", "both"), default="both")
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
        help="experiment: pin the server to the upper half of the cores (on 2 "
        "cores: one); with split, the load processes to the other half",
    )
    parser.add_argument(
        "--deflate", action="store_true", help="clients offer permessage-deflate, as browsers do"
    )
    parser.add_argument(
        "--tweak",
        default="",
        help="experiment: change server settings at run time, e.g. "
        "tick=0.1,switch=0.001,skip_sleep=0.002 (see apply_tweaks)",
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
    args = parser.parse_args(argv)
    if args.baseline > args.solos or min(args.followers, args.solos, args.follower_procs) < 1:
        parser.error(
            "need at least one follower, one solo and one follower process; --baseline at most --solos"
        )

    kinds = ["werkzeug", "gunicorn"] if args.server == "both" else [args.server]
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
    if args.tweak:
        print(f"EXPERIMENT: the server runs with tweaked settings: {args.tweak}")

    started = []
    timer = watchdog(DEADLINE, lambda: [s.server.close() for s in started if hasattr(s, "server")])
    failed, reports = False, []
    for kind in kinds:
        scenario = Scenario(kind, args)
        started.append(scenario)
        try:
            scenario.run()
            text = scenario.report()
        except Exception:  # noqa: BLE001 - a scenario that could not run is a failure
            failed = True
            print(f"\n=== {kind}: could not run\n{traceback.format_exc()}", flush=True)
            if hasattr(scenario, "log"):
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
        reports.append(scenario)
    timer.cancel()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
