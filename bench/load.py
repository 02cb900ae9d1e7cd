"""Client load for benchmarks: processes of asyncio Socket.IO clients, driven over a pipe.

The parent starts a load process with Load(name, url, deflate), creates and connects clients
in it by name (those named in browser= offer permessage-deflate as Chromium does, the others
as deflate says), has them call the server, and at the end collects each client's summary:
what it received, stamped on arrival, checked against the search itself, and the extensions
the server accepted. Every process reads the same CLOCK_MONOTONIC, so arrival times compare
across processes. offers_on_the_wire() shows what the clients' upgrade requests offer.
"""

import array
import asyncio
import collections
import gc
import itertools
import json
import multiprocessing
import os
import re
import secrets
import time
import traceback

import aiohttp
import common  # noqa: F401 - puts the project on the import path
import psutil

from server.edge.badges import COOKIE, find_proof
from server.engine.graph import knight_graph
from server.engine.search import knight_tour
from server.wire import encode
from tests.support.async_clients import BROWSER_EXTENSIONS, AsyncRecordingClient
from tests.support.replay import followed

# The page's limits, where it is asked to earn a badge (server/edge/badges.py).
LIMITS = re.compile(r'id="limits">(.*?)</script>')


async def page_badge(session, url):
    """Load the page as a browser does; return (the badge it gave, or the one earned with a proof
    of work when its address had none left, or None; whether it was earned)."""
    async with session.get(url + "/") as page:
        text = await page.text()
    if COOKIE in page.cookies:
        return page.cookies[COOKIE].value, False
    asked = json.loads(LIMITS.search(text)[1])["badgeProof"] if page.status == 200 else None
    if asked is None:
        return None, False
    proof = await asyncio.to_thread(find_proof, asked, secrets.token_urlsafe(12))
    async with session.post(url + "/badge", json={"proof": proof}) as answer:
        return (answer.cookies[COOKIE].value if COOKIE in answer.cookies else None), True


class Expected:
    """The events the server must send for each board, made here and extended as needed."""

    def __init__(self):
        self.made = {}

    def prefix(self, rows, cols, start, order, count):
        """Return the first count encoded events of a board's search (fewer if it ends sooner)."""
        key = (rows, cols, start, order)
        codes, events = self.made.setdefault(key, ([], knight_tour(knight_graph(rows, cols), start, order)))
        if len(codes) < count:
            codes.extend(encode(itertools.islice(events, count - len(codes))))
        return codes[:count]


def runs_seen(received):
    """Split (event, payload) pairs at the start of each run; return (board, pairs) of each."""
    runs = []
    for event, payload in received:
        if event == "started":
            runs.append((payload, []))
        elif event == "class_state" and payload.get("run"):
            runs.append((payload["run"], []))
        if runs:
            runs[-1][1].append((event, payload))
    return runs


def difference(seen, expected):
    """Describe where two lists of event codes first differ."""
    at = next(
        (i for i, (a, b) in enumerate(zip(seen, expected, strict=False)) if a != b),
        min(len(seen), len(expected)),
    )

    def code(codes):
        return repr(codes[at]) if at < len(codes) else "missing"

    return f"event {at} is {code(seen)}, the search's is {code(expected)}"


class Peer(AsyncRecordingClient):
    """One named client of a load process."""

    def __init__(self, name, url, deflate=False, page=False, cookies=None):
        super().__init__(url, deflate=deflate)
        self.name = name
        self.page = page  # loads the page first, as a browser does, and connects with its cookies
        self.cookies = cookies or {}  # what its browser kept from an earlier visit (a seat, say)
        self.connect_s = None

    async def connect(self, wait_timeout=30):
        """Connect, timing how long it takes (with the page's load, if it loads it)."""
        began = time.monotonic()
        headers = None
        if self.page:
            # A jar that keeps cookies of an address, as a browser does (aiohttp's keeps only a name's).
            jar = aiohttp.CookieJar(unsafe=True)
            async with aiohttp.ClientSession(cookie_jar=jar, cookies=self.cookies) as session:
                await page_badge(session, self.url)
                kept = "; ".join(
                    f"{k}={v.value}" for k, v in session.cookie_jar.filter_cookies(self.url).items()
                )
            headers = {"Cookie": kept} if kept else None
        await super().connect(wait_timeout, headers)
        self.connect_s = time.monotonic() - began

    def summary(self, expected):
        """Check the runs this client saw; return their batches' arrival times and the problems."""
        received = self.stamped()
        problems = []
        stamps, firsts, sizes, runs = array.array("d"), array.array("q"), array.array("l"), []
        # Events each run holds so far: a batch must start where the last one ended.
        held, run = {}, None
        for stamp, event, payload in received:
            if event == "class_state" and payload.get("run"):
                run = payload["run"]["run"]
                held[run] = payload["snapshot"]["events"] if payload["snapshot"] else 0
            elif event == "started":
                run, held[payload["run"]] = payload["run"], 0
            elif event == "snapshot":
                problems.append(
                    f"a snapshot of run {payload['run']} at a pace the room should get every batch of"
                )
                held[payload["run"]] = payload["events"]
            elif event == "events":
                if payload["run"] != run:
                    problems.append(f"a batch of run {payload['run']} outside its run")
                    continue
                first, size = payload["first"], len(payload["events"])
                if first != held[run]:
                    kind = "gap" if first > held[run] else "overlap"
                    problems.append(
                        f"{kind}: run {run} batch starts at event {first} after {held[run]} events"
                    )
                held[run] = max(held[run], first + size)
                stamps.append(stamp)
                firsts.append(first)
                sizes.append(size)
                runs.append(run)
            elif event == "error":
                problems.append(f"the server sent an error: {payload}")
        pairs = [(event, payload) for _, event, payload in received]
        for board, seen in runs_seen(pairs):
            try:
                codes, _ = followed(seen)
            except AssertionError as exc:
                problems.append(f"run {board['run']} cannot be replayed: {exc}")
                continue
            if not codes or board.get("speed") == 0:
                continue
            # A snapshot stands for the events before a late joiner came: only the rest is known.
            known = next((i for i, code in enumerate(codes) if code is not None), len(codes))
            search = expected.prefix(board["rows"], board["cols"], board["start"], board["order"], len(codes))
            if codes[known:] != search[known:]:
                problems.append(f"run {board['run']}: {difference(codes[known:], search[known:])}")
        if self.dropped:
            problems.append(self.dropped)
        progress = self.named("progress")
        return {
            "name": self.name,
            "browser": self.deflate,  # offered permessage-deflate as Chromium does
            "extensions": self.extensions,  # the server's answer: None if it accepted none
            "connect_s": self.connect_s,
            "problems": problems,
            "counts": dict(collections.Counter(event for event, _ in pairs)),
            "events": held.get(run, 0),
            "run": run,
            "controls": [(control["state"], control["speed"]) for control in self.named("class_control")],
            "finished": [
                {key: end.get(key) for key in ("run", "found", "visits", "backtracks", "tours", "stopped")}
                for end in self.named("finished")
            ],
            "progress": {key: progress[-1].get(key) for key in ("events", "elapsed", "rate")}
            if progress
            else None,
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
        self.expected = Expected()
        self.lags = array.array("d")  # (time, lag) pairs of the event loop, flattened
        self.gc_began, self.gc_max, self.gc_total = None, 0.0, 0.0
        gc.callbacks.append(self.timed_gc)

    async def tick(self):
        """Measure, for ever, how late the event loop wakes from a 20 ms sleep.

        Once a second it also moves every object alive into the collector's permanent
        generation (gc.freeze): what the clients have recorded grows for the whole run, and
        full collections that scan it all would stall the loop for hundreds of milliseconds,
        delays the server did not cause.
        """
        for count in itertools.count():
            began = time.monotonic()
            await asyncio.sleep(0.02)
            self.lags.extend((began, time.monotonic() - began - 0.02))
            if count % 50 == 0:
                gc.freeze()

    def timed_gc(self, phase, info):
        """Keep the longest pause of the cyclic garbage collector (a gc.callbacks hook)."""
        if phase == "start":
            self.gc_began = time.perf_counter()
        elif self.gc_began is not None:
            self.gc_max = max(self.gc_max, time.perf_counter() - self.gc_began)
            self.gc_total += time.perf_counter() - self.gc_began

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

    async def do_connect(self, names, browser=None, pages=False, cookies=None):
        """Create and connect the named peers; return how long each took.

        Those in browser offer permessage-deflate as Chromium does; the others do if the
        process's deflate says so. With pages, each loads the page first, as a browser does,
        with the cookies its browser kept (cookies: name -> {cookie: value}).
        """
        browser, cookies = set(browser or ()), cookies or {}
        for name in names:
            self.peers[name] = Peer(name, self.url, self.deflate or name in browser, pages, cookies.get(name))

        async def connect(peer):
            await peer.connect()
            return {"ok": True, "seconds": peer.connect_s}

        return await self.gather(names, connect)

    async def do_call(self, names, event, data=None, each=None):
        """Send event to the named peers (data, or each[name]); return their acks."""
        return await self.gather(
            names, lambda peer: peer.call(event, each[peer.name] if each else data, timeout=30), limit=50
        )

    async def do_call_at(self, at, event, each):
        """Send event to each peer named in at (data each[name]) at its time; return the timed acks.

        at maps a name to a time.monotonic() (one clock for every process), so that calls can
        be spread over a window. Each result is {"sent", "acked", "ack"} (acked None if it failed).
        """

        async def one(name):
            await asyncio.sleep(max(0.0, at[name] - time.monotonic()))
            sent, acked = time.monotonic(), None
            try:
                ack = await self.peers[name].call(event, each[name], timeout=30)
                acked = time.monotonic()
            except Exception as exc:  # noqa: BLE001 - reported to the parent
                ack = {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
            return name, {"sent": sent, "acked": acked, "ack": ack}

        return dict(await asyncio.gather(*(one(name) for name in at)))

    async def do_seen(self, names, events):
        """Return, for each named peer, (arrival time, event, payload) of what it got of events."""
        wanted = set(events)
        return {name: [entry for entry in self.peers[name].stamped() if entry[1] in wanted] for name in names}

    async def do_wait(self, name, event, within):
        """Wait until a peer has received event; return its arrival time, or None."""
        deadline = time.monotonic() + within
        while time.monotonic() < deadline:
            for stamp, seen, _ in self.peers[name].stamped():
                if seen == event:
                    return stamp
            await asyncio.sleep(0.05)
        return None

    async def do_collect(self):
        """Return every peer's summary, the event loop's lags and the collector's pauses (s)."""
        return {
            "peers": [peer.summary(self.expected) for peer in self.peers.values()],
            "lags": self.lags,
            "gc": {"max": self.gc_max, "total": self.gc_total},
        }

    async def do_close(self):
        """Disconnect every peer."""

        async def close(peer):
            await peer.close()
            return True

        return await self.gather(list(self.peers), close, limit=50)

    async def main(self):
        """Carry out the parent's commands until it says exit."""
        ticker = asyncio.create_task(self.tick())
        await obey(self.conn, self)
        ticker.cancel()


async def obey(conn, doer):
    """Carry out a parent's commands, each by doer's do_<command>(**args), until it says exit."""
    loop = asyncio.get_running_loop()
    while True:
        command, args = await loop.run_in_executor(None, conn.recv)
        if command == "exit":
            return
        try:
            result = ("ok", await getattr(doer, "do_" + command)(**args))
        except Exception:  # noqa: BLE001 - reported to the parent
            result = ("error", traceback.format_exc())
        conn.send(result)


def load_main(conn, url, deflate, cpus):
    """Run a load process: its clients, until the parent says exit."""
    if cpus:
        os.sched_setaffinity(0, cpus)
    try:
        asyncio.run(LoadProcess(conn, url, deflate).main())
    finally:
        conn.close()


class Driven:
    """The parent's handle on a process that obeys its commands (see obey)."""

    def __init__(self, name, target, *args):
        self.name = name
        context = multiprocessing.get_context("spawn")
        self.conn, child = context.Pipe()
        self.process = context.Process(target=target, args=(child, *args), daemon=True, name=name)
        self.process.start()
        child.close()
        self.ps = psutil.Process(self.process.pid)
        self.pending = None

    def send(self, command, **args):
        """Send a command without waiting for its result."""
        self.pending = command
        self.conn.send((command, args))

    def result(self, timeout=120):
        """Wait for the result of the command sent last; raise RuntimeError if it failed."""
        if not self.conn.poll(timeout):
            raise RuntimeError(f"{self.name} did not finish {self.pending!r} within {timeout} s")
        status, value = self.conn.recv()
        if status != "ok":
            raise RuntimeError(f"{self.name} failed {self.pending!r}:\n{value}")
        return value

    def __call__(self, command, timeout=120, **args):
        """Send a command and return its result."""
        self.send(command, **args)
        return self.result(timeout)

    def close(self):
        """Tell the process to exit; kill it if it does not."""
        try:
            self.send("exit")
        except OSError:
            pass
        self.process.join(10)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(5)


class Load(Driven):
    """The parent's handle on a load process."""

    def __init__(self, name, url, deflate, cpus=None):
        super().__init__(name, load_main, url, deflate, cpus)


async def _offers(deflate_values):
    """Connect a client of each kind to a listener that keeps their upgrade requests."""
    requests = []

    async def keep(reader, writer):
        try:
            requests.append((await reader.readuntil(b"\r\n\r\n")).decode("latin-1"))
        finally:
            writer.close()

    listener = await asyncio.start_server(keep, "127.0.0.1", 0)
    port = listener.sockets[0].getsockname()[1]
    offers = {}
    try:
        for deflate in deflate_values:
            before = len(requests)
            client = AsyncRecordingClient(f"http://127.0.0.1:{port}", deflate=deflate)
            try:
                await client.connect(wait_timeout=5)
            except Exception:  # noqa: BLE001, S110 - the listener answers nothing, as intended
                pass
            headers = [
                line.split(":", 1)[1].strip()
                for request in requests[before:]
                for line in request.split("\r\n")
                if line.lower().startswith("sec-websocket-extensions:")
            ]
            offers[deflate] = headers[0] if headers else None
    finally:
        listener.close()
        await listener.wait_closed()
    return offers


def offers_on_the_wire():
    """Return the Sec-WebSocket-Extensions each kind of client sends, as read off the wire.

    {"browser": header or None, "plain": header or None, "chromium": what Chromium sends}.
    """
    offers = asyncio.run(_offers((True, False)))
    return {"browser": offers[True], "plain": offers[False], "chromium": BROWSER_EXTENSIONS}
