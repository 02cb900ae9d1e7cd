"""Figures from what load clients received: percentiles, spreads, delivery lag, fan-out, rates.

A client's summary (see load.py) holds four parallel arrays, one entry per batch it received:
its arrival time ("stamps", time.monotonic()), the number of its first event ("firsts"), its
length ("sizes") and its run ("runs"). A window is a (start, end) pair of those times.
"""

import math


def percentile(values, q):
    """Return the nearest-rank q-th percentile of sorted values (nan if there are none)."""
    if not values:
        return math.nan
    return values[min(len(values) - 1, max(0, math.ceil(q / 100 * len(values)) - 1))]


def spread(values):
    """Return p50, p95, p99, max (in milliseconds) and count of values in seconds."""
    values = sorted(values)
    return {
        "p50": percentile(values, 50) * 1000,
        "p95": percentile(values, 95) * 1000,
        "p99": percentile(values, 99) * 1000,
        "max": (values[-1] if values else math.nan) * 1000,
        "n": len(values),
    }


def batches_in(peer, window, run=None):
    """Yield (stamp, first, size) of the batches a client received in window, of one run if given."""
    start, end = window
    batches = zip(peer["stamps"], peer["firsts"], peer["sizes"], peer["runs"], strict=True)
    for stamp, first, size, batch_run in batches:
        if start <= stamp < end and (run is None or batch_run == run):
            yield stamp, first, size


def lags(peers, window, speed, run=None):
    """Return each event's lag behind its client's best-kept schedule, the batch gaps, and the pace.

    Event n is due at n / speed after the run began; its offset is its arrival time less that.
    A client's smallest offset in the window is its best-kept schedule, so a lag is how much
    later than that an event came. The pace is the events received in the window over the
    events the speed promised the clients that received any.
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
    """Return each follower batch's delay behind the instructor's, and how many had no match."""
    # The instructor's copy is emitted just before the room's, so it marks when a batch left.
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
    """Return the events and the messages (batches) these clients received in window."""
    events = messages = 0
    for peer in peers:
        for _, _, size in batches_in(peer, window):
            events += size
            messages += 1
    return events, messages


def loop_lag(samples, window):
    """Return the spread of an event loop's lag in window, from flattened (time, lag) pairs."""
    start, end = window
    pairs = zip(samples[0::2], samples[1::2], strict=True)
    return spread([lag for stamp, lag in pairs if start <= stamp < end])


def order(followers, instructor, run):
    """Return the class batches followers missed, got out of order, and got twice, in all.

    The instructor's client receives every batch of its run, so its batches are the reference:
    a follower missed one it never received, reordered one that came after a later one.
    """
    reference = {first for _, first, _ in batches_in(instructor, (0, math.inf), run)}
    missed = reordered = repeated = 0
    for peer in followers:
        firsts = [first for _, first, _ in batches_in(peer, (0, math.inf), run)]
        missed += len(reference - set(firsts))
        repeated += len(firsts) - len(set(firsts))
        reordered += sum(1 for before, after in zip(firsts, firsts[1:], strict=False) if after <= before)
    return missed, reordered, repeated
