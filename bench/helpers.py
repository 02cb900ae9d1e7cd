"""Benchmark the search helpers shared by cost: what a student's strips and a script's leave the
class's own run, a student's own run, and a student's skip.

    python bench/helpers.py [--seconds 8] [--flood 40] [--against DIR]

`python -m server` with its defaults (one helper on a 2-core machine). Everyone is on 127.0.0.1,
browser-like (each loads the page for its badge and offers permessage-deflate as Chromium does):
an instructor plays a class's run at Fastest on 32x32 with a follower, a student plays their own
at Fastest on 32x32, and, at each phase's start, another student skips a 6x6 naive search (0.2 s
of search). In each phase (--seconds long) the events each Fastest run got, the follower's
snapshots, and how long the skip took are counted:

- idle: nothing else;
- one strip: a student's page asks once for a strip of an 8-key ordering on boards 90 to 100 at
  a budget of 100,000 (1.4 to 2.8 s of a helper a board);
- badges: --flood pages, each with a badge of its own, ask for that strip once each;
- no badges: --flood connections without badges (one browser) ask for it again and again.

The figures are each run's events against the idle phase's. The goals (printed, never asserted):
the class's run at least 95% of its idle pace in every phase, and the skip done within 2 s. With
--against, the same is measured of the checkout in DIR (set up with `make setup`), after this one.
"""

import argparse
import asyncio
import multiprocessing
import sys
import time
from pathlib import Path

import aiohttp
from common import ROOT
from load import page_badge
from processes import ServerProcess

from tests.support.async_clients import AsyncRecordingClient

ORDER = "-pohl,-onward,-centre,-start,-edge,-corner,random,-index"
STRIP = {"orders": [ORDER], "sides": [90, 100], "budget": 100_000}
FASTEST = {"rows": 32, "cols": 32, "start": 0, "order": "naive", "speed": 0}
SKIP = {"rows": 6, "cols": 6, "start": 0, "order": "naive", "speed": 0}
PHASES = ("idle", "one strip", "badges", "no badges")
GOAL_PACE = 95
GOAL_SKIP_S = 2.0


class Counting(AsyncRecordingClient):
    """A browser-like client that counts what it is sent, keeping none of it."""

    def __init__(self, url):
        super().__init__(url, deflate=True)
        self.got = self.snapshots = 0
        self.done = asyncio.Event()

    def keep(self, event, payload=None):
        if event == "events":
            self.got += len(payload["events"])
        elif event == "snapshot":
            self.snapshots += 1
        elif event in ("finished", "strip_done"):
            self.done.set()
        return True


async def browser(url, badge=True):
    """Return a Counting client connected as a browser: with its page's badge, or with none."""
    headers = None
    if badge:
        jar = aiohttp.CookieJar(unsafe=True)
        async with aiohttp.ClientSession(cookie_jar=jar) as session:
            await page_badge(session, url)
            kept = "; ".join(f"{k}={v.value}" for k, v in session.cookie_jar.filter_cookies(url).items())
        headers = {"Cookie": kept} if kept else None
    client = Counting(url)
    await client.connect(30, headers)
    return client


async def flooding(url, phase, seconds, flood):
    """Do what phase asks of the others for seconds."""
    if phase == "idle":
        await asyncio.sleep(seconds)
        return
    count, badge = {"one strip": (1, True), "badges": (flood, True), "no badges": (flood, False)}[phase]
    clients = list(await asyncio.gather(*(browser(url, badge) for _ in range(count))))
    try:
        until = time.monotonic() + seconds

        async def ask(client):
            await client.call("strip", STRIP, timeout=30)
            while not badge and time.monotonic() < until:  # again and again, as a script does
                client.done.clear()
                try:
                    await asyncio.wait_for(client.done.wait(), 2)
                except TimeoutError:
                    pass
                await client.call("strip", STRIP, timeout=30)

        asking = [asyncio.create_task(ask(client)) for client in clients]
        await asyncio.sleep(max(0.0, until - time.monotonic()))
        for task in asking:
            task.cancel()
        await asyncio.gather(*asking, return_exceptions=True)
    finally:
        await asyncio.gather(*(client.close() for client in clients), return_exceptions=True)


def others(url, phase, seconds, flood, ready):
    """Run a phase's flood in a process of its own, so that its clients cost the measured ones nothing."""
    ready.set()
    asyncio.run(flooding(url, phase, seconds, flood))


async def measure(root, seconds, flood):
    """Return {phase: (class events, follower snapshots, student events, skip seconds)} of one checkout."""
    server = ServerProcess("production", 0, 1000, root=root)
    try:
        server.wait_ready()
        url = server.url
        teacher, follower, student, skipper = [await browser(url) for _ in range(4)]
        code = (await teacher.call("class_open"))["code"]
        assert (await follower.call("class_join", {"code": code}))["ok"], "the follower joins"
        for client in (teacher, student):
            assert (await client.call("start", FASTEST))["ok"], "a Fastest run starts"
        await asyncio.sleep(2)  # under way
        figures = {}
        context = multiprocessing.get_context("spawn")
        for phase in PHASES:
            ready = context.Event()
            crowd = context.Process(target=others, args=(url, phase, seconds + 1, flood, ready))
            crowd.start()
            await asyncio.to_thread(ready.wait, 30)
            await asyncio.sleep(1)  # its clients connected and asking
            before = (teacher.got, follower.snapshots, student.got)
            skipper.done.clear()
            began = time.monotonic()
            await skipper.call("start", SKIP)
            await skipper.call("skip")
            try:
                await asyncio.wait_for(skipper.done.wait(), seconds)
                skip = time.monotonic() - began
            except TimeoutError:
                skip = None
            await asyncio.sleep(max(0.0, began + seconds - time.monotonic()))
            after = (teacher.got, follower.snapshots, student.got)
            figures[phase] = (*(a - b for a, b in zip(after, before, strict=True)), skip)
            await asyncio.to_thread(crowd.join, 60)
            await asyncio.sleep(2)  # what the flood asked for is let go
        for client in (teacher, follower, student, skipper):
            await client.close()
        return figures
    finally:
        server.close()


def report(name, root, figures):
    """Print one checkout's figures, each run's against its idle phase."""
    idle = figures["idle"]
    print(f"\n{name} ({root})")
    print(f"{'phase':<10} {'class run':>14} {'follower':>14} {'student run':>14} {'6x6 skip':>9}")
    for phase in PHASES:
        klass, snaps, mine, skip = figures[phase]
        cells = [
            f"{n:>9,} {100 * n / max(base, 1):>3.0f}%"
            for n, base in ((klass, idle[0]), (snaps, idle[1]), (mine, idle[2]))
        ]
        print(f"{phase:<10} {' '.join(cells)} {'-' if skip is None else f'{skip:.2f} s':>9}")
    worst = min(100 * figures[p][0] / max(idle[0], 1) for p in PHASES)
    met = "met" if worst >= GOAL_PACE else "NOT met"
    print(f"goal: the class's run at {GOAL_PACE}% of its idle pace in each phase: {worst:.0f}% ({met})")
    skips = [figures[p][3] for p in PHASES]
    slowest = None if None in skips else max(skips)
    met = "met" if slowest is not None and slowest < GOAL_SKIP_S else "NOT met"
    took = "not done in a phase" if slowest is None else f"{slowest:.2f} s at most"
    print(f"goal: the 6x6 skip done within {GOAL_SKIP_S:g} s in each phase: {took} ({met})")


def main(argv=None):
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=8.0, help="each phase's length (default 8)")
    parser.add_argument(
        "--flood", type=int, default=40, help="the script's pages or connections (default 40)"
    )
    parser.add_argument("--against", type=Path, help="another checkout, measured in turns with this one")
    args = parser.parse_args(argv)
    roots = [("this", ROOT)] + ([("against", args.against.resolve())] if args.against else [])
    for name, root in roots:
        report(name, root, asyncio.run(measure(root, args.seconds, args.flood)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
