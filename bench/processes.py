"""Server processes for benchmarks: start and stop them, and sample what they and others cost."""

import math
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

import psutil
from common import ROOT

from tests.support.servers import free_port

SERVERS = ("production", "threads")


class ServerProcess:
    """The app in its own process, as one of two stacks, each gunicorn with one worker.

    production: `python -m server`, gunicorn's gevent worker (one greenlet a connection);
    threads: gunicorn's gthread worker with `threads` threads and the app in threading mode.
    Either admits max_per_address connections (and handshakes at once) from 127.0.0.1;
    options are python -m server's own; root is the checkout it runs (this one by default).
    """

    def __init__(self, kind, threads, max_per_address, cpus=None, options=(), root=ROOT):
        self.kind, self.port = kind, free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = tempfile.NamedTemporaryFile("w+", prefix=f"bench-{kind}-", suffix=".log")
        if kind == "production":
            self.command = [
                *(sys.executable, "-m", "server", "--host", "127.0.0.1", "--port", str(self.port)),
                *("--max-per-address", str(max_per_address)),
                *options,
            ]
        elif kind == "threads":
            gunicorn = os.path.join(os.path.dirname(sys.executable), "gunicorn")
            config = {"MAX_PER_ADDRESS": max_per_address, "HANDSHAKE_BURST": max_per_address}
            self.command = [
                gunicorn,
                *("--workers", "1", "--threads", str(threads), "--graceful-timeout", "5"),
                # gthread admits 1,000 connections by default: as many as python -m server here.
                *("--worker-connections", "10000"),
                *("--bind", f"127.0.0.1:{self.port}", f"server:create_app({config!r})"),
            ]
        else:
            raise ValueError(f"unknown server kind {kind!r}; choose one of {', '.join(SERVERS)}")
        if cpus:
            self.command = ["taskset", "-c", ",".join(map(str, sorted(cpus))), *self.command]
        self.process = subprocess.Popen(
            self.command, cwd=root, stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True
        )
        # python -m server execs gunicorn in the same process: this is gunicorn's master.
        self.ps = psutil.Process(self.process.pid)

    def wait_ready(self, timeout=30):
        """Wait until the app serves its page; raise RuntimeError if it exits or never does."""
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
        """Return the server's processes: gunicorn's master and its worker."""
        try:
            return [self.ps, *self.ps.children(recursive=True)]
        except psutil.NoSuchProcess:
            return []

    def worker(self):
        """Return gunicorn's worker process (where the app runs), or None."""
        try:
            children = self.ps.children()  # the worker's own (search helpers) are below it
        except psutil.NoSuchProcess:
            return None
        return children[0] if children else None

    def threads(self):
        """Return how many threads the server's processes have now."""
        return sum(proc.num_threads() for proc in self.processes() if proc.is_running())

    def close(self):
        """Stop the server as a supervisor would (SIGTERM to gunicorn); kill it if it hangs."""
        procs = self.processes()
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
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
        """Return what the server has written to stdout and stderr so far."""
        self.log.flush()
        self.log.seek(0)
        return self.log.read()


def cpu_seconds(proc):
    """Return a process's user + system CPU time in seconds."""
    times = proc.cpu_times()
    return times.user + times.system


class Sampler:
    """Sample, on a thread, the CPU time, memory and threads of a server and of load processes.

    Each load process is anything with a name and a psutil.Process as ps.
    """

    def __init__(self, server, loads, every=0.25):
        self.server, self.loads, self.every = server, loads, every
        # (time, server (user, system, worker's alone) s, server rss, server threads, {load: cpu s},
        #  (machine idle s, machine busy s, this process's cpu s))
        self.samples = []
        self.me = psutil.Process()
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def sample(self):
        """Take one sample now."""
        user = system = rss = threads = 0
        worker = self.server.worker()
        try:
            alone = math.nan if worker is None else cpu_seconds(worker)
        except psutil.NoSuchProcess:
            alone = math.nan
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
                loads[load.name] = cpu_seconds(load.ps)
            except psutil.NoSuchProcess:
                loads[load.name] = math.nan
        machine = psutil.cpu_times()
        idle = machine.idle + getattr(machine, "iowait", 0)
        self.samples.append(
            (
                time.monotonic(),
                (user, system, alone),
                rss,
                threads,
                loads,
                (idle, sum(machine) - idle, cpu_seconds(self.me)),
            )
        )

    def _run(self):
        while not self.stopping.wait(self.every):
            self.sample()

    def stop(self):
        """Stop sampling."""
        self.stopping.set()
        self.thread.join(5)

    def window(self, start, end):
        """Return the CPU percents, peak RSS and threads of [start, end], or None if too short.

        Also the server's CPU seconds (user + system) between the first and the last sample
        in the window, and the times of those two samples ("sampled").
        """
        inside = [s for s in self.samples if start <= s[0] <= end]
        if len(inside) < 2:
            return None
        (t0, c0, *_, l0, m0), (t1, c1, *_, l1, m1) = inside[0], inside[-1]
        span = t1 - t0
        figures = {
            "sampled": (t0, t1),  # the window the CPU figures cover
            "server_cpu_s": (c1[0] - c0[0]) + (c1[1] - c0[1]),
            "server_user": 100 * (c1[0] - c0[0]) / span,
            "server_sys": 100 * (c1[1] - c0[1]) / span,
            "worker": 100 * (c1[2] - c0[2]) / span,  # the worker alone: its search helpers apart
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


def halves():
    """Return the lower and the upper half of the CPUs this process may run on."""
    cpus = sorted(os.sched_getaffinity(0))
    return set(cpus[: len(cpus) // 2]), set(cpus[len(cpus) // 2 :])


def code_version():
    """Return the commit the code is at, and whether server/ has changes not committed."""
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, text=True, capture_output=True, timeout=10
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "--no-optional-locks", "status", "--porcelain", "--", "server"],
            cwd=ROOT,
            text=True,
            capture_output=True,
            timeout=10,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "an unknown commit"
    return f"commit {commit or '?'}{' with uncommitted changes in server/' if dirty else ''}"


def watchdog(seconds, cleanup):
    """Run cleanup and exit the process if it is still running after seconds."""

    def fire():
        print(
            f"\n{os.path.basename(sys.argv[0])} ran over {seconds} s: stopping", file=sys.stderr, flush=True
        )
        cleanup()
        os._exit(3)

    timer = threading.Timer(seconds, fire)
    timer.daemon = True
    timer.start()
    return timer


class Profile:
    """py-spy recording a process's Python stacks for a while (pip install py-spy), in raw form.

    It samples without stopping the process (--nonblocking), so a stack may now and then be
    torn; idle threads (a gevent hub waiting in epoll, a thread blocked on a lock) are not
    sampled, so shares are of the time the process ran Python or native code under it.
    """

    def __init__(self, pid, seconds, path, rate=100):
        self.path = path
        spy = shutil.which("py-spy", path=os.path.dirname(sys.executable)) or shutil.which("py-spy")
        if not spy:
            raise RuntimeError("py-spy is not installed (.venv/bin/pip install py-spy)")
        command = [spy, "record", "--pid", str(pid), "--duration", str(max(1, int(seconds)))]
        command += ["--rate", str(rate), "--format", "raw", "--nonblocking", "--output", path]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)

    def wait(self, timeout=60):
        """Wait for the recording to end; return None, or why it failed."""
        try:
            _, err = self.process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return "py-spy did not finish"
        return None if self.process.returncode == 0 else (err.strip().splitlines() or ["py-spy failed"])[0]


def _frame_name(frame):
    """Return 'file:function' of a py-spy frame 'function (path:line)', its path shortened."""
    function, _, where = frame.rpartition(" (")
    path = where.rstrip(")").rpartition(":")[0] if where else ""
    for marker in ("site-packages/", "lib/python3"):
        if marker in path:
            path = path.split(marker, 1)[1]
            break
    else:
        path = os.path.relpath(path, ROOT) if path.startswith(str(ROOT)) else os.path.basename(path)
    return f"{path}:{function or frame}"


def hot_spots(path, top=12):
    """Summarise a raw py-spy recording: (samples, [(self share, name)], [(inclusive share, name)])."""
    own, within, total = {}, {}, 0
    with open(path) as recording:
        for line in recording:
            stack, _, count = line.rstrip("\n").rpartition(" ")
            if not count.isdigit():
                continue
            count = int(count)
            total += count
            names = [_frame_name(frame) for frame in stack.split(";") if frame]
            if names:
                own[names[-1]] = own.get(names[-1], 0) + count
            for name in set(names):
                within[name] = within.get(name, 0) + count

    def ranked(counts):
        return [(count / total, name) for name, count in sorted(counts.items(), key=lambda kv: -kv[1])[:top]]

    return total, (ranked(own) if total else []), (ranked(within) if total else [])
