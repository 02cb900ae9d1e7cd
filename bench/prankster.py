"""A prankster on the class's own address: the attacks a lecture hall makes easy, over raw sockets.

The parent starts Prankster(url), then starts an attack by name (several may run at once) and
stops them all; each attack counts what it did and what the server answered. Every attack is
bounded: it runs only until the parent stops it (the scenario's phases are seconds long), and
opens at most the connections its table says. The attacks:

  codes      wrong class codes as fast as the server answers, three per fresh connection
  trickle    one wrong class code every 3 s, each on a fresh connection
  held       500 WebSockets that answer pings and never send a request
  skips      200 connections that each skip a naive 32x32 search (one that never ends)
  strips     200 connections that each ask for the costliest strip (4 orderings, boards 5 to 100,
             100,000 backtracks a board) and ask again as soon as each board comes
  pings      20 connections sending WebSocket pings flat out, never reading
  noops      5 connections sending Engine.IO noop packets flat out
  badged     loads of the page for the badges the address is given (600 at once), and more earned
             with proofs of work found flat out in a thread of its own; connections opened flat
             out meanwhile, each with the next badge
  pages      20 connections loading the page flat out, one load after another
  squat      200 connections, each on a badge of its own and each having sent a request (so that
             none is a socket to reap, nor one browser's), opened again when closed
  voters     150 connections that join the class once a question is open and answer it
  stuffing   10 connections at a time, each joining the class without a pass (a new student each
             time), entering its open tournament and closing, then another: a script filling it
  longway    600 connections at a time sending handshakes the long way round the door (their path
             encoded, as the door did not read them before), each on a fresh connection, flat out
"""

import asyncio
import contextlib
import itertools
import json
import random
import sys
from pathlib import Path
from urllib.parse import urlsplit

import aiohttp
import common  # noqa: F401 - puts the project on the import path
from load import Driven, obey, page_badge

from server.classes.sessions import CODE_ALPHABET, CODE_LENGTH
from server.edge.badges import COOKIE

ENGINE_PATH = "/socket.io/?EIO=4&transport=websocket"
ENDLESS = {"rows": 32, "cols": 32, "start": 0, "order": "naive", "speed": 30, "paused": True}
COSTLIEST_STRIP = {"orders": ["naive", "random", "pohl", "-onward"], "sides": [5, 100], "budget": 100_000}
SIZES = {
    "held": 500,
    "skips": 200,
    "strips": 200,
    "pings": 20,
    "noops": 5,
    "voters": 150,
    "codes": 4,
    "pages": 20,
    "squat": 200,
    "stuffing": 10,
    "longway": 600,
}
# A long-polling handshake whose path is encoded (/socket.io/), from the class's own address.
LONG_WAY = b"GET /%73ocket.io/?EIO=4&transport=polling HTTP/1.1\r\nHost: hall\r\n\r\n"
EARNER = Path(__file__).with_name("earner.py")


class Closed(Exception):
    """The server closed the connection."""


class Raw:
    """One Socket.IO connection spoken by hand: pings answered, requests numbered."""

    def __init__(self, ws):
        self.ws, self.ids, self.answers = ws, itertools.count(), {}

    @classmethod
    async def open(cls, session, url, headers=None):
        ws = await session.ws_connect(
            url.replace("http", "ws", 1) + ENGINE_PATH, autoping=False, timeout=10, headers=headers
        )
        raw = cls(ws)
        if not (await raw.text()).startswith("0"):
            raise Closed()
        await ws.send_str("40")
        if not (await raw.text()).startswith("40"):
            raise Closed()
        return raw

    async def text(self):
        """Return the next text frame, answering Engine.IO pings meanwhile; raise Closed if it closes."""
        while True:
            message = await self.ws.receive()
            if message.type != aiohttp.WSMsgType.TEXT:
                raise Closed()
            if message.data == "2":
                await self.ws.send_str("3")
                continue
            return message.data

    async def call(self, event, data=None):
        """Send a request; return the server's answer to it."""
        number = next(self.ids)
        await self.ws.send_str(f"42{number}" + json.dumps([event] if data is None else [event, data]))
        prefix = f"43{number}["
        while True:
            text = await self.text()
            if text.startswith(prefix):
                return json.loads(text[len(prefix) - 1 :])[0]

    async def listen(self, on):
        """Read and drop everything until the connection closes (pings answered) or on() is false."""
        try:
            while on():
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(self.text(), 1)
        except (Closed, aiohttp.ClientError):
            pass

    async def close(self):
        """Close without waiting long for the server's half of the handshake."""
        with contextlib.suppress(asyncio.TimeoutError, aiohttp.ClientError, ConnectionError):
            await asyncio.wait_for(self.ws.close(), 1)


def wrong_code(right):
    """Return a random class code that is not right."""
    while True:
        code = "".join(random.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        if code != right:
            return code


class Attacks:
    """The attacks, each a coroutine run until cancelled, counting into self.counts[name]."""

    def __init__(self, session, url, code):
        self.session, self.url, self.code = session, url, code
        self.counts = {}
        self.stock = []  # badges collected before the attacks, as a script prepared in advance would
        # Every loop checks it too: a cancellation swallowed in the client's library must not
        # leave an attack running into the next phase.
        self.on = False

    def count(self, attack, what, n=1):
        tally = self.counts.setdefault(attack, {})
        tally[what] = tally.get(what, 0) + n

    def answered(self, attack, answer):
        self.count(attack, "ok" if answer.get("ok") else answer.get("code", "refused"))

    async def opened(self, attack, headers=None):
        """Open a connection for attack, or count why not and return None."""
        try:
            raw = await Raw.open(self.session, self.url, headers)
        except (TimeoutError, Closed, aiohttp.ClientError) as exc:
            self.count(attack, f"not connected ({type(exc).__name__})")
            await asyncio.sleep(0.05)
            return None
        self.count(attack, "connections")
        return raw

    async def guesses(self, attack, per_connection, every=0.0):
        """Guess wrong codes, per_connection on each fresh connection, every seconds apart."""
        while self.on:
            raw = await self.opened(attack)
            if raw is None:
                continue
            try:
                for _ in range(per_connection):
                    self.answered(attack, await raw.call("class_join", {"code": wrong_code(self.code)}))
                    await asyncio.sleep(every)
            except (Closed, aiohttp.ClientError):
                self.count(attack, "closed by the server")
            finally:
                await raw.close()

    async def badged(self):
        """Collect badges (as a browser would, and by earning them), and open and close
        connections flat out meanwhile, each with the next badge."""
        badges = []
        collecting = asyncio.create_task(self.collect(badges))
        try:
            for n in itertools.count():
                if not self.on:
                    return
                if not badges:
                    await asyncio.sleep(0.01)
                    continue
                raw = await self.opened("badged", {"Cookie": f"{COOKIE}={badges[n % len(badges)]}"})
                if raw is not None:
                    await raw.close()
        finally:
            collecting.cancel()

    async def collect(self, badges):
        """Collect badges from bench/earner.py, a process of its own on a core of its own: those
        the address may be given, then those it earns with proofs of work; add each to badges."""
        earner = await asyncio.create_subprocess_exec(
            sys.executable, str(EARNER), self.url, stdout=asyncio.subprocess.PIPE
        )
        try:
            async for line in earner.stdout:
                how, _, badge = line.decode().strip().partition(" ")
                self.count("badged", "badges" if how == "given" else how)
                if how in ("given", "earned"):
                    badges.append(badge)
        finally:
            earner.kill()
            await earner.wait()

    async def codes(self):
        await asyncio.gather(*(self.guesses("codes", 3) for _ in range(SIZES["codes"])))

    async def trickle(self):
        await self.guesses("trickle", 1, every=3.0)

    async def many(self, attack, n, body):
        """Keep n connections doing body(raw), each opened again when the server closes it."""

        async def one():
            while self.on:
                raw = await self.opened(attack)
                if raw is None:
                    continue
                try:
                    await body(raw)
                except (Closed, aiohttp.ClientError, ConnectionError):
                    self.count(attack, "closed by the server")
                finally:
                    await raw.close()

        await asyncio.gather(*(one() for _ in range(n)))

    async def squat(self):
        async def one(i):
            # The script keeps its badges from phase to phase.
            badge = self.stock[i] if i < len(self.stock) else await self.badge("squat")
            while self.on and badge:
                raw = await self.opened("squat", {"Cookie": f"{COOKIE}={badge}"})
                if raw is None:
                    continue
                try:
                    self.answered("squat", await raw.call("pause"))
                    await raw.listen(lambda: self.on)
                except (Closed, aiohttp.ClientError, ConnectionError):
                    self.count("squat", "closed by the server")
                finally:
                    await raw.close()

        await asyncio.gather(*(one(i) for i in range(SIZES["squat"])))

    async def badge(self, attack):
        """Return a badge, one the address gives or else one earned with a proof; None once stopped."""
        while self.on:
            badge, earned = await page_badge(self.session, self.url)
            if badge is not None:
                self.count(attack, "earned" if earned else "badges")
                return badge
            await asyncio.sleep(0.05)  # the page not served (paced): try again
        return None

    async def held(self):
        await self.many("held", SIZES["held"], lambda raw: raw.listen(lambda: self.on))

    async def skips(self):
        async def skip(raw):
            self.answered("skips", await raw.call("start", ENDLESS))
            self.answered("skips", await raw.call("skip"))
            await raw.listen(lambda: self.on)

        await self.many("skips", SIZES["skips"], skip)

    async def strips(self):
        async def strip(raw):
            # A new strip ends the last: asked again and again, each keeps the helpers busy anew.
            while self.on:
                self.answered("strips", await raw.call("strip", COSTLIEST_STRIP))
                await asyncio.sleep(1)

        await self.many("strips", SIZES["strips"], strip)

    async def pings(self):
        async def flood(raw):
            while self.on:
                await raw.ws.ping()
                self.count("pings", "frames")
                if raw.ws.closed:
                    raise Closed()
                await asyncio.sleep(0)

        await self.many("pings", SIZES["pings"], flood)

    async def noops(self):
        async def flood(raw):
            while self.on:
                await raw.ws.send_str("6")
                self.count("noops", "frames")
                if raw.ws.closed:
                    raise Closed()
                await asyncio.sleep(0)

        await self.many("noops", SIZES["noops"], flood)

    async def pages(self):
        async def load():
            while self.on:
                try:
                    async with self.session.get(self.url + "/") as page:
                        await page.read()
                    self.count("pages", str(page.status))
                except aiohttp.ClientError as exc:
                    self.count("pages", f"failed ({type(exc).__name__})")
                    await asyncio.sleep(0.05)

        await asyncio.gather(*(load() for _ in range(SIZES["pages"])))

    async def longway(self):
        where = urlsplit(self.url)

        async def flood():
            while self.on:
                try:
                    reader, writer = await asyncio.open_connection(where.hostname, where.port)
                    writer.write(LONG_WAY)
                    line = await reader.readline()
                    writer.close()
                    self.count("longway", line.split()[1].decode() if line else "no answer")
                except OSError as exc:
                    self.count("longway", f"failed ({type(exc).__name__})")
                    await asyncio.sleep(0.05)

        await asyncio.gather(*(flood() for _ in range(SIZES["longway"])))

    async def voters(self, question, square):
        """Join once the question is open, each connection answering it once, and stay."""

        async def vote(raw):
            self.answered("voters", await raw.call("class_join", {"code": self.code}))
            self.answered("voters", await raw.call("poll_answer", {"id": question, "square": square}))
            await raw.listen(lambda: self.on)

        await self.many("voters", SIZES["voters"], vote)

    async def stuffing(self):
        """Fill the class's tournament: join as a new student, enter, close, and again."""

        async def stuff(raw):
            self.answered("stuffing", await raw.call("class_join", {"code": self.code}))
            entered = await raw.call("tournament_enter", {"order": "index"})
            self.count("stuffing", "entered" if entered.get("ok") else entered.get("code", "refused"))

        await self.many("stuffing", SIZES["stuffing"], stuff)


class PranksterProcess:
    """The prankster's side of the pipe: its commands, by name (see load.obey)."""

    def __init__(self, attacks):
        self.attacks, self.running = attacks, []

    async def do_code(self, code):
        self.attacks.code = code
        return True

    async def do_stock(self, n):
        """Collect n badges before any attack, for the squat; return how many were earned."""
        self.attacks.on = True
        self.attacks.stock = [await self.attacks.badge("stock") for _ in range(n)]
        self.attacks.on = False
        return self.attacks.counts.pop("stock", {}).get("earned", 0)

    async def do_scale(self, by):
        """Make every attack this much smaller (a smoke run's)."""
        for name in SIZES:
            SIZES[name] = max(1, round(SIZES[name] * by))
        return dict(SIZES)

    async def do_start(self, attack, **args):
        self.attacks.on = True
        self.running.append(asyncio.create_task(getattr(self.attacks, attack)(**args)))
        return True

    async def do_stop(self):
        """Stop every attack; return what each did."""
        self.attacks.on = False
        for task in self.running:
            task.cancel()
        await asyncio.gather(*self.running, return_exceptions=True)
        self.running.clear()
        counts, self.attacks.counts = self.attacks.counts, {}
        return counts


async def serve(conn, url):
    """Attack url as the parent commands, until it says exit."""
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
        await obey(conn, PranksterProcess(Attacks(session, url, None)))


def prankster_main(conn, url):
    asyncio.run(serve(conn, url))


class Prankster(Driven):
    """The prankster's process, driven over a pipe."""

    def __init__(self, url):
        super().__init__("prankster", prankster_main, url)
