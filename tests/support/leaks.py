"""What a test may leave behind: threads, sockets of this process, and an app's runs and classes."""

import sys
import threading
from pathlib import Path

import psutil


def threads():
    """Return the threads alive now."""
    return set(threading.enumerate())


def threads_since(before):
    """Return the threads alive now that were not in before (a set of threads)."""
    # A thread started outside the threading module shows as a dummy that never goes away.
    return {t for t in threads() - before if not isinstance(t, threading._DummyThread)}


def waiting_in(thread):
    """Return where a thread is now: its innermost frame's file:line and function."""
    frame = sys._current_frames().get(thread.ident)
    if frame is None:
        return "ended"
    return f"{Path(frame.f_code.co_filename).name}:{frame.f_lineno} {frame.f_code.co_name}"


def sockets():
    """Return the open Internet sockets of this process, as (fd, local, remote) addresses."""
    return {(c.fd, c.laddr, c.raddr) for c in psutil.Process().net_connections(kind="inet")}


def held_by(app):
    """Return what an app still holds of its clients: runs, classes, rate-limit buckets, guessers."""
    held = {
        "runs": len(app.extensions["knights_tour_runs"]),
        "strips": len(app.extensions["knights_tour_runs"].strips),
        "classes": len(app.extensions["knights_tour_classes"]),
        "limit buckets": len(app.extensions["knights_tour_limits"]),
        "join guesses": len(app.extensions["knights_tour_guesses"]),
    }
    return {name: count for name, count in held.items() if count}


def where(address):
    """Return an address as host:port (or "nowhere", for a listening socket's remote end)."""
    return f"{address.ip}:{address.port}" if address else "nowhere"


def leftovers(threads_before, sockets_before, apps):
    """Describe what is left since threads_before and sockets_before, and what apps hold."""
    left = sorted(threads_since(threads_before), key=lambda t: t.name)
    found = [f"thread {t.name}, in {waiting_in(t)}" for t in left]
    found += [f"socket {where(local)} to {where(remote)}" for _, local, remote in sockets() - sockets_before]
    found += [f"app {n}: {held}" for n, app in enumerate(apps, 1) if (held := held_by(app))]
    return found
