"""Waiting for a condition, never for a fixed time."""

import time


def wait_for(predicate, timeout=10.0, interval=0.01):
    """Poll predicate until it is true or timeout seconds pass; return its last value."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(interval)
