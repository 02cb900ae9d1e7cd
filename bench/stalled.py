"""Benchmark a flood of stalled clients: what each holds in the worker, and what the worker gives back.

    python bench/stalled.py [--clients 200] [--stall 30] [--after 60] [--floods 1] [--against DIR]

The server is `python -m server` with its defaults (its address may hold every client). Each
client is a raw WebSocket, browser-like (its upgrade offers permessage-deflate as Chromium
does), with a receive buffer of 4 KB: it opens a Socket.IO session, starts the naive 8x8 search
at the fastest speed, and never reads again. The worker's RSS (VmRSS of gunicorn's worker) is
taken at the baseline (before any client), after --stall seconds of the stall (under the ping
timeout, so the server has closed none of them), and --after seconds after every client reset
its connection (SO_LINGER 0). With --floods N, N floods one after the other on the same server
(each client's cost counted from the baseline). With --against, the checkout in DIR (its
server/, static/ and node_modules/, run by this checkout's Python) is measured the same way, in
turns with this one; --against may be given more than once.
"""

import argparse
import json
import os
import socket
import struct
import sys
import time
from pathlib import Path

from common import ROOT
from processes import ServerProcess

from tests.support.wire import Wire

RCVBUF = 4096
RUN = {"rows": 8, "cols": 8, "start": 0, "order": "naive", "speed": 0}
OFFER = "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits"  # Chromium's


def rss(pid):
    """Return a process's resident set (VmRSS) in bytes."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError(f"no VmRSS for process {pid}")


class Stalled(Wire):
    """A browser-like WebSocket that starts a run played flat out and then never reads."""

    def __init__(self, port):
        super().__init__(port, headers=(OFFER,), source="127.0.0.1", timeout=10, receive_buffer=RCVBUF)
        if self.status != 101:
            self.sock.close()
            raise ConnectionError(f"the handshake was answered {self.status}")
        self.connect()
        self.send_text("420" + json.dumps(["start", RUN]))

    def reset(self):
        """Close with a reset, as a phone dropping off the network's far side would be seen."""
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.sock.close()


def sockets(pid):
    """Return how many sockets a process holds open (one reset by its peer too, until it is closed)."""
    held = 0
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            held += os.readlink(f"/proc/{pid}/fd/{fd}").startswith("socket:")
        except FileNotFoundError:  # closed meanwhile
            pass
    return held


def flood(server, worker, args, listening):
    """Stall args.clients clients, then reset them; return the worker's RSS in bytes after the
    stall and after the resets, how many connected, and the seconds until the worker held none
    of their sockets (None: not within args.after)."""
    clients = []
    try:
        for _ in range(args.clients):
            clients.append(Stalled(server.port))
        time.sleep(args.stall)
        during = rss(worker.pid)
        for client in clients:
            client.reset()
    finally:
        for client in clients:
            client.sock.close()
    reset_at = time.monotonic()
    gone = None
    while time.monotonic() - reset_at < args.after:
        if gone is None and sockets(worker.pid) <= listening:
            gone = time.monotonic() - reset_at
        time.sleep(0.5)
    return during, rss(worker.pid), len(clients), gone


def measure(root, args):
    """Return the worker's baseline RSS in bytes, and flood()'s figures for each of args.floods floods."""
    server = ServerProcess("production", 0, args.clients + 50, root=root)
    try:
        server.wait_ready()
        worker = server.worker()
        time.sleep(args.settle)
        baseline, listening = rss(worker.pid), sockets(worker.pid)
        return baseline, [flood(server, worker, args, listening) for _ in range(args.floods)]
    finally:
        server.close()


def main(argv=None):
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--stall", type=float, default=30, help="seconds of the stall (default 30)")
    parser.add_argument("--after", type=float, default=60, help="seconds after the resets (default 60)")
    parser.add_argument("--settle", type=float, default=2, help="seconds before the baseline (default 2)")
    parser.add_argument(
        "--floods", type=int, default=1, help="floods, one after the other, on one server (default 1)"
    )
    parser.add_argument("--runs", type=int, default=1, help="turns of each checkout (default 1)")
    parser.add_argument(
        "--against",
        type=Path,
        action="append",
        default=[],
        metavar="DIR",
        help="another checkout, measured in turns with this one (repeatable)",
    )
    args = parser.parse_args(argv)
    if args.stall >= 40:
        parser.error("--stall must end before the server's ping timeout closes the clients (45 s)")
    roots = [("this", ROOT)] + [
        (f"against{'' if len(args.against) == 1 else n + 1}", d.resolve()) for n, d in enumerate(args.against)
    ]
    print(
        f"{args.clients} stalled clients, each a naive 8x8 run at the fastest speed, receive buffer "
        f"{RCVBUF} bytes; RSS after {args.stall:g} s of the stall and {args.after:g} s after the resets"
    )
    print(
        f"{'checkout':<10} {'baseline':>9} {'flood':>5} {'stalled':>9} {'a client':>9} {'after':>9} "
        f"{'kept':>9} {'sockets gone':>12}"
    )
    for _ in range(args.runs):
        for name, root in roots:
            baseline, floods = measure(root, args)
            for n, (during, after, connected, gone) in enumerate(floods, start=1):
                each = (during - baseline) / max(connected, 1) / 1024
                when = "never" if gone is None else f"{gone:.1f} s"
                mb = [f"{figure / 2**20:>6.1f} MB" for figure in (baseline, during, after, after - baseline)]
                print(
                    f"{name:<10} {mb[0]} {n:>5} {mb[1]} {each:>6.0f} KB {mb[2]} {mb[3]} {when:>12}",
                    flush=True,
                )
                if connected < args.clients:
                    print(f"  only {connected} of {args.clients} clients connected")
    for name, root in roots:
        print(f"  {name}: {root}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
