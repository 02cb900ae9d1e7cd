"""Helper processes that search on for skipping runs and runs played flat out, so that the
process serving the sockets never does.

A gevent worker serves every socket from one thread, on one core. A skip (a search with its
events unsent, and on a large board no end in sight) is the costliest thing a client can ask
for; a run that skips hands its search to a helper a leg at a time (LEG seconds; see
engine/legs.py), on the machine's other cores, and waits without holding the worker. A run
played flat out has its next batch searched by a helper too, and only sends it; a strip's board
goes a leg at a time too (see cells.py). Helpers are taken in fair turns by cost: each job is
charged the seconds it took to its share (a class's own run, or a browser: its address and
badge), and the share, in the group, that has had the least goes next (see turns.py and
shares.py), so 200 skips from one script wait in one line while a student's skip waits in its
own, and a strip's long boards wait for as long as they took. A helper that has just served a
share still owed more (the class's own run, played flat out: it asks for its next batch once
its page has taken one) waits ANTICIPATE for it to ask again before it serves another: else each
of its batches would wait for someone's whole leg.
"""

import contextlib
import functools
import logging
import os
import pickle
import subprocess
import sys
import threading
import time
from concurrent.futures import Future
from pathlib import Path

from ..engine import legs
from .turns import Lines, together

log = logging.getLogger(__name__)
LEG = 0.1  # seconds a helper searches before it hands back where it got to
# Seconds a helper keeps for a share owed more that it has just served: a page acknowledges a
# batch, and so its run asks for the next, within tens of milliseconds (on a busy worker, more).
ANTICIPATE = 0.1
# Seconds of legs a share that comes back to the helpers may be behind the others, at most:
# a run whose page is slow to ask for its next leg keeps its place for a few legs.
GRACE = 10 * LEG
# A helper loads the engine alone, not the web app: a few megabytes, not tens.
ENGINE_HOME = str(Path(__file__).resolve().parents[1])
# A helper gives way to everything else on the machine (nice 10): on a laptop that serves a class
# and projects it, a skip takes only the time the worker and the browser leave.
BOOT = (
    # Ctrl-C is the server's to take, not theirs.
    "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_IGN); os.nice(10); "
    f"sys.path.insert(0, {ENGINE_HOME!r}); from engine.legs import serve; serve()"
)


class HelperLost(OSError):
    """A helper process ended before it answered (killed, out of memory): the leg was not searched."""


class Helper:
    """One helper process, started when first asked and again after it is lost."""

    def __init__(self):
        self._process = None

    def ask(self, job):
        """Return what the helper answers to a job; raise HelperLost if it ends first."""
        if self._process is None:
            pipe = subprocess.PIPE
            self._process = subprocess.Popen([sys.executable, "-c", BOOT], stdin=pipe, stdout=pipe)
        try:
            pickle.dump(job, self._process.stdin)
            self._process.stdin.flush()
            return pickle.load(self._process.stdout)
        except (OSError, EOFError, pickle.UnpicklingError) as lost:
            self.close()
            raise HelperLost(f"a search helper ended: {lost!r}") from lost

    @property
    def pid(self):
        return None if self._process is None else self._process.pid

    def close(self):
        """End the helper process, if there is one."""
        process, self._process = self._process, None
        if process is not None:
            process.kill()
            process.wait()
            for pipe in (process.stdin, process.stdout):
                with contextlib.suppress(OSError):  # a job half written to a helper gone
                    pipe.close()


class Pool:
    """A few helper processes, each searching the legs asked of the pool in fair turns."""

    def __init__(self, processes, group=together, clock=time.monotonic):
        self._helpers = [Helper() for _ in range(processes)]
        # (future, job) of each leg asked for and not yet taken, by share: see turns.Lines.
        self._asked = Lines(group, GRACE)
        self._clock = clock
        self._cond = threading.Condition()
        self._serving = []  # a thread per helper, started with the first leg asked for
        self._closed = False

    def leg(self, share, search, state, limit, keep=False):
        """Ask for a leg of search from state, in share's turn (see legs.search_on); return a
        Future of the state it reaches (with keep, of the state and the events to limit, written
        compactly: see legs.kept)."""
        return self.ask(share, legs.job(search, state, limit, None if keep else LEG))

    def ask(self, share, job):
        """Ask for a job (a leg, or a strip's board: legs.cell_job) in share's turn; return a
        Future of its answer. A job cancelled before its turn is never done; a helper lost sets
        HelperLost."""
        future = Future()
        with self._cond:
            if self._closed:
                future.set_exception(HelperLost("the search helpers have ended with their server"))
                return future
            if not self._serving:
                for helper in self._helpers:
                    self._serving.append(threading.Thread(target=self._serve, args=(helper,), daemon=True))
                    self._serving[-1].start()
            self._asked.join(share, (future, job))
            self._cond.notify()
        return future

    def _serve(self, helper):
        """Search the legs asked for in one helper, the next in turn each time, until closed."""
        served = None  # the share of the last job this helper did
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._asked or self._closed)
                if served is not None and not self._asked.waits(served) and self._asked.favours(served):
                    # Kept for it, the helper is its: the wait is charged to it as searching is.
                    began = self._clock()
                    self._cond.wait_for(functools.partial(self._back, served), ANTICIPATE)
                    self._asked.charge(served, self._clock() - began)
                    served = None  # once
                if self._closed:
                    return
                if not self._asked:
                    continue  # another helper took what waited meanwhile
                served, (future, job) = self._asked.next()
            if future.set_running_or_notify_cancel():
                self._do(helper, served, future, job)
            else:
                served = None  # its run was paused or stopped while it waited

    def _back(self, share):
        """Tell whether share has asked again, or the pool has closed (the lock is held)."""
        return self._asked.waits(share) or self._closed

    def _do(self, helper, share, future, job):
        """Have helper do a job of share's, charged the seconds it took; settle its future."""
        began = self._clock()
        try:
            answer, failure = helper.ask(job), None
        except HelperLost as lost:
            if not self._closed:
                log.warning("%s: its run searches a leg itself, then in a new one", lost)
            failure = lost
        except Exception as failed:  # the thread goes on serving the others' legs
            log.exception("a search helper failed a leg")
            helper.close()  # its pipe may hold half a job
            failure = HelperLost(f"a search helper failed: {failed!r}")
        with self._cond:  # before the future is settled: its share may ask again at once
            self._asked.charge(share, self._clock() - began)
        if failure is None:
            future.set_result(answer)
        else:
            future.set_exception(failure)

    @property
    def size(self):
        """Return how many helpers the pool has."""
        return len(self._helpers)

    def pids(self):
        """Return the process ids of the helpers running now."""
        return [helper.pid for helper in self._helpers if helper.pid is not None]

    def close(self):
        """End every helper, and fail the legs still waiting."""
        with self._cond:
            self._closed = True
            waiting = [self._asked.next()[1] for _ in range(len(self._asked))]
            self._cond.notify_all()
        for future, _ in waiting:
            future.cancel()
        for helper in self._helpers:  # first: a leg under way fails now, not once it is done
            helper.close()
        for thread in self._serving:
            thread.join(5)


def default_size(cpus=None):
    """Return how many helpers suit this machine: one per core but the worker's, at least one."""
    return max(1, (len(os.sched_getaffinity(0)) if cpus is None else cpus) - 1)
