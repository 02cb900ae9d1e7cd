"""Benchmark what a refused handshake costs the one worker: refused at its door, or by gunicorn.

A script behind a school's NAT opens connections flat out; past its address's budget (500 at
once, then 50 a second) each is refused with 429, and each refusal is paid by the worker that
serves the whole class. Two `python -m server` are measured in one run, one after the other:

- door: the server as deployed; a refusal is answered at the worker's door, from a peek at the
  request's head (server/edge/door.py);
- gunicorn: the same server behind a proxy (--proxies 1, the address in X-Forwarded-For), where
  the door stands aside: gunicorn parses every request, builds its environ and writes the
  answer, and the guard refuses it.

Each gets --rate long-polling handshakes a second (a handshake like any other to the address's
budget) for --seconds, all from one address, once the address's burst is spent: about 1,100 a
second is what a script reopening connections flat out sent in bench/hostile.py's `held`. The
figures are the worker's CPU a handshake, and how busy the flood keeps it (its CPU over the
flood's seconds), both including the address's 50 handshakes a second that are let in; the
goal, the door's CPU a handshake at most half of gunicorn's.
"""

import argparse
import asyncio
import time

from common import ROOT  # noqa: F401 - puts the project on the import path
from processes import ServerProcess, code_version, cpu_seconds

from server.edge.guard import HANDSHAKE_BURST

ADDRESS = "10.20.30.40"  # the class's NAT, as the proxy names it
GOAL = 0.5


def handshake(address, way="plain"):
    """Return a long-polling handshake's request from address (as a proxy in front names it): as
    a page sends it (way "plain"), its path encoded ("encoded"), or its head padded to 32 KB
    ("padded"), the two ways round the door before it read them."""
    path = "/%73ocket.io/" if way == "encoded" else "/socket.io/"
    padding = "".join(f"X-Padding-{n}: {'x' * 4000}\r\n" for n in range(8)) if way == "padded" else ""
    return (
        f"GET {path}?EIO=4&transport=polling HTTP/1.1\r\nHost: hall\r\n"
        f"X-Forwarded-For: {address}\r\n{padding}\r\n"
    ).encode()


async def flood(port, rate, seconds, way="plain"):
    """Send rate handshakes a second for seconds; return {status: count} and the seconds taken."""
    statuses, request = {}, handshake(ADDRESS, way)

    async def one():
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(request)
            line = await reader.readline()
            writer.close()
            status = line.split()[1].decode() if line else "no answer"
        except OSError as error:
            status = type(error).__name__
        statuses[status] = statuses.get(status, 0) + 1

    began, sent = time.perf_counter(), []
    for n in range(int(rate * seconds)):
        await asyncio.sleep(max(0.0, began + n / rate - time.perf_counter()))
        sent.append(asyncio.create_task(one()))
    await asyncio.gather(*sent)
    return statuses, time.perf_counter() - began


def measure(name, options, args):
    """Spend the address's burst on a fresh server, then flood it; return its worker's CPU a handshake."""
    server = ServerProcess("production", 0, 500, options=("--search-processes", "0", *options))
    try:
        server.wait_ready()
        asyncio.run(flood(server.port, args.rate, HANDSHAKE_BURST / args.rate))
        worker = server.worker()
        before = cpu_seconds(worker)
        statuses, seconds = asyncio.run(flood(server.port, args.rate, args.seconds, args.way))
        spent = cpu_seconds(worker) - before
    finally:
        server.close()
    busy, handshakes = spent / seconds, sum(statuses.values())
    print(
        f"{name:>9}: {handshakes:,} handshakes in {seconds:.2f} s, answers {statuses}; "
        f"worker busy {busy:.0%}, {spent / handshakes * 1e6:,.0f} µs a handshake",
        flush=True,
    )
    return spent / handshakes


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rate", type=float, default=1000, help="handshakes a second")
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--runs", type=int, default=2, help="of each server, alternating; the best counts")
    parser.add_argument(
        "--way",
        choices=("plain", "encoded", "padded"),
        default="plain",
        help="the handshakes as a page sends them, their path encoded, or their head padded to 32 KB",
    )
    args = parser.parse_args()
    print(f"Refused handshakes ({args.way}), {code_version()}", flush=True)
    best = {"door": [], "gunicorn": []}
    for _ in range(args.runs):
        best["door"].append(measure("door", (), args))
        best["gunicorn"].append(measure("gunicorn", ("--proxies", "1"), args))
    door, gunicorn = min(best["door"]), min(best["gunicorn"])
    ratio = door / gunicorn
    print(
        f"The worker's CPU a handshake, at best: door {door * 1e6:,.0f} µs, "
        f"gunicorn {gunicorn * 1e6:,.0f} µs: {ratio:.2f}x "
        f"(goal at most {GOAL:.2f}x: {'met' if ratio <= GOAL else 'MISSED'})"
    )


if __name__ == "__main__":
    main()
