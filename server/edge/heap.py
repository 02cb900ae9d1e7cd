"""Give the memory a flood of connections freed back to the system, once the flood has gone."""

import ctypes
import logging
import platform
import sys
import time

log = logging.getLogger(__name__)

# Open connections gone since the most there were since the last trim that make another worth
# it: a flood's worth (a hall of stalled clients, a class leaving), not a page's coming and going.
DROP = 100
EVERY = 5.0  # seconds between two looks at the count, and so between two trims at least


def malloc_trim():
    """Return glibc's malloc_trim, or None where there is none (another C library, another system)."""
    if not sys.platform.startswith("linux") or platform.libc_ver()[0] != "glibc":
        return None
    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return None
    trim.argtypes, trim.restype = [ctypes.c_size_t], ctypes.c_int
    return trim


class Trimmer:
    """Trim the heap once `drop` fewer connections are open than the most since the last trim.

    glibc keeps the heap a process freed for its next allocations: a minute after 200 stalled
    clients had gone, the worker was still 46 to 76 MB above where it began. count() returns the
    open connections; look() is called every EVERY seconds, so a trim (2 to 6 ms for a flood's
    heap, during which the worker serves nobody) runs at most that often, and never on a
    connection's own path.
    """

    def __init__(self, count, trim, drop=DROP, clock=time.perf_counter):
        self.count, self.trim, self.drop, self.clock = count, trim, drop, clock
        self.most = count()
        self.trims = 0

    def look(self):
        """Trim now if enough connections have gone; return whether it did."""
        now = self.count()
        if self.most - now < self.drop:
            self.most = max(self.most, now)
            return False
        began = self.clock()
        self.trim(0)
        self.trims += 1
        log.info(
            "%d connections fewer: heap trimmed in %.1f ms", self.most - now, 1000 * (self.clock() - began)
        )
        self.most = now
        return True


def install(count, spawn, sleep):
    """Start a Trimmer of count()'s connections on a task of spawn(fn)'s, if this system has malloc_trim."""
    trim = malloc_trim()
    if trim is None:
        return None
    trimmer = Trimmer(count, trim)

    def watch():
        while True:
            sleep(EVERY)
            trimmer.look()

    spawn(watch)
    return trimmer
