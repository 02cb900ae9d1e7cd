"""Helper processes that search on for skipping runs, so that the process serving the sockets
never does.

A gevent worker serves every socket from one thread, on one core. A skip (a search with its
events unsent, and on a large board no end in sight) is the costliest thing a client can ask
for; a run that skips hands its search to a helper a leg at a time (LEG seconds; see
engine/legs.py), on the machine's other cores, and waits without holding the worker. Helpers are
taken in fair turns: round robin by share (a class, or an address), then by run (see turns.py),
so 200 skips from one script wait in one line while a student's skip waits in its own.
"""

import logging
import os
import pickle
import subprocess
import sys
import threading
from pathlib import Path

from ..engine import legs
from .turns import Turns

log = logging.getLogger(__name__)
LEG = 0.1  # seconds a helper searches before it hands back where it got to
# A helper loads the engine alone, not the web app: a few megabytes, not tens.
ENGINE_HOME = str(Path(__file__).resolve().parents[1])
BOOT = (
    "import signal, sys; signal.signal(signal.SIGINT, signal.SIG_IGN); "  # the server's Ctrl-C is not theirs
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
            log.warning("a search helper ended (%r): its run searches a leg itself, then in a new one", lost)
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
            process.stdin.close()
            process.stdout.close()


class Pool:
    """A few helper processes, lent a leg at a time in fair turns."""

    def __init__(self, processes):
        self._helpers = [Helper() for _ in range(processes)]
        self._idle = list(self._helpers)
        self._lock = threading.Lock()
        self.turns = Turns(slots=processes)

    def leg(self, share, search, state, limit):
        """Search on from state for a leg in a helper, in share's turn; return the state reached
        (see legs.search_on). Raise HelperLost if the helper ends first."""
        with self.turns.turn(share):
            with self._lock:  # a turn taken guarantees an idle helper
                helper = self._idle.pop()
            try:
                return helper.ask(legs.job(search, state, limit, LEG))
            finally:
                with self._lock:
                    self._idle.append(helper)

    def pids(self):
        """Return the process ids of the helpers running now."""
        return [helper.pid for helper in self._helpers if helper.pid is not None]

    def close(self):
        """End every helper."""
        for helper in self._helpers:
            helper.close()


def default_size(cpus=None):
    """Return how many helpers suit this machine: one per core but the worker's, at least one."""
    return max(1, (len(os.sched_getaffinity(0)) if cpus is None else cpus) - 1)
