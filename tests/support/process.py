"""A server process seen from outside, through psutil: its memory, threads, open sockets and CPU."""

import threading
import time
from dataclasses import dataclass

import psutil

from .waiting import wait_for

MB = 1 << 20


@dataclass(frozen=True)
class Usage:
    """What a process holds at one moment."""

    rss: int  # bytes of memory resident
    threads: int
    sockets: int  # open Internet sockets, the listening one included

    def within(self, before, rss_slack):
        """Tell whether this is no more than before: as many threads and sockets, rss_slack more memory."""
        return (
            self.rss <= before.rss + rss_slack
            and self.threads <= before.threads
            and self.sockets <= before.sockets
        )

    def __str__(self):
        return f"RSS {self.rss / MB:.1f} MB, {self.threads} thread(s), {self.sockets} socket(s)"


class Worker:
    """The one worker process of a gunicorn master (a `python -m server` process)."""

    def __init__(self, process):
        self.process = process
        self.pid = process.pid

    @classmethod
    def of(cls, master_pid, timeout=15):
        """Wait for the master's worker to exist, and return it."""
        master = psutil.Process(master_pid)
        children = wait_for(master.children, timeout)
        assert len(children) == 1, f"expected one gunicorn worker, found {children}"
        return cls(children[0])

    def running(self):
        """Tell whether the worker is still the same process, alive."""
        return self.process.is_running() and self.process.status() != psutil.STATUS_ZOMBIE

    def rss(self):
        """Return the worker's resident memory, in bytes."""
        return self.process.memory_info().rss

    def threads(self):
        """Return how many threads the worker has."""
        return self.process.num_threads()

    def connections(self):
        """Return the worker's open Internet sockets (psutil's pconn tuples)."""
        return self.process.net_connections(kind="inet")

    def sockets(self):
        """Return how many Internet sockets the worker has open, the listening one included."""
        return len(self.connections())

    def peers(self):
        """Return the (host, port) of every client the worker holds a connection to."""
        return {(c.raddr.ip, c.raddr.port) for c in self.connections() if c.raddr}

    def usage(self):
        """Return what the worker holds now."""
        return Usage(self.rss(), self.threads(), self.sockets())

    def cpu_seconds(self):
        """Return the CPU time the worker has used so far, user and system."""
        times = self.process.cpu_times()
        return times.user + times.system

    def cpu_share(self, window):
        """Return the share of one core the worker uses over the next window seconds."""
        start, used = time.monotonic(), self.cpu_seconds()
        # A measurement over a window of time, not a wait for something to happen.
        time.sleep(window)
        return (self.cpu_seconds() - used) / (time.monotonic() - start)

    def peak(self, interval=0.005):
        """Return a context manager that samples the worker's RSS while it is open (see Peak)."""
        return Peak(self, interval)


class Peak:
    """The highest RSS of a worker seen while the block of a `with` ran, sampled by a thread."""

    def __init__(self, worker, interval):
        self.worker, self.interval = worker, interval
        self.rss = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, name="rss-sampler", daemon=True)

    def _sample(self):
        while True:
            try:
                self.rss = max(self.rss, self.worker.rss())
            except psutil.Error:
                return  # the worker has gone: the test will say so
            if self._stop.wait(self.interval):
                return

    def __enter__(self):
        self.rss = self.worker.rss()
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join(5)
        self.rss = max(self.rss, self.worker.rss())
