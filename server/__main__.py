"""Serve the app for a lecture hall: python -m server [--host H] [--port P] [options].

The server is gunicorn with one gevent worker: thousands of open WebSockets in one process,
each a greenlet rather than a thread, with read timeouts on every connection.
"""

import argparse
import os
import sys

from .guard import HANDSHAKE_BURST, MAX_CONNECTIONS

PING_INTERVAL, PING_TIMEOUT = 25, 20  # seconds; a silent page is closed within their sum
WORKER_CONNECTIONS = 10_000  # open connections the worker takes at most (each a greenlet)
KEEPALIVE = 5  # seconds a connection may take to send a request's headers, or idle between two


def parse(argv=None):
    """Return the command line's options."""
    parser = argparse.ArgumentParser(prog="python -m server", description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (0.0.0.0: every one)")
    parser.add_argument("--port", type=int, default=5000, help="port to listen on")
    parser.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="URL",
        help="also let pages from this origin connect (repeatable); by default only this server's own",
    )
    parser.add_argument(
        "--message-queue",
        metavar="URL",
        help="a redis:// URL, for several server processes to share classes (see docs/deployment.md)",
    )
    parser.add_argument(
        "--max-per-address",
        type=int,
        default=MAX_CONNECTIONS,
        metavar="N",
        help=f"open connections one address may hold, and connect at once (default {MAX_CONNECTIONS}; "
        "a class behind one NAT shares an address)",
    )
    parser.add_argument(
        "--proxies",
        type=int,
        default=0,
        metavar="N",
        help="trust X-Forwarded-For from N proxies in front of this server (nginx: 1)",
    )
    parser.add_argument("--ping-interval", type=float, default=PING_INTERVAL, help=argparse.SUPPRESS)
    parser.add_argument("--ping-timeout", type=float, default=PING_TIMEOUT, help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def gunicorn_command(args):
    """Return the gunicorn command line that serves the app with these options."""
    config = {
        "ASYNC_MODE": "gevent",
        "CORS_ORIGINS": args.allow_origin,
        "MESSAGE_QUEUE": args.message_queue,
        "MAX_PER_ADDRESS": args.max_per_address,
        "HANDSHAKE_BURST": max(HANDSHAKE_BURST, args.max_per_address),
        "PROXIES": args.proxies,
        "PING_INTERVAL": args.ping_interval,
        "PING_TIMEOUT": args.ping_timeout,
    }
    return [
        sys.executable,
        "-m",
        "gunicorn",
        *("--bind", f"[{args.host}]:{args.port}" if ":" in args.host else f"{args.host}:{args.port}"),
        *("--workers", "1", "--worker-class", "gevent", "--worker-connections", str(WORKER_CONNECTIONS)),
        *("--keep-alive", str(KEEPALIVE), "--graceful-timeout", "5", "--no-control-socket"),
        *("--limit-request-line", "4096", "--limit-request-fields", "50"),
        f"server:create_app({config!r})",
    ]


def main(argv=None):
    """Print the URL to open, then become the gunicorn server (same process, same signals)."""
    args = parse(argv)
    address = "127.0.0.1" if args.host in ("0.0.0.0", "::") else args.host
    print(f"Knight's Tour Live: open http://{address}:{args.port}/ in a browser", flush=True)
    command = gunicorn_command(args)
    # gunicorn's worker patches the standard library for gevent before it imports the app;
    # replacing this process gives it a clean start, with nothing of the app imported yet.
    os.execv(command[0], command)


if __name__ == "__main__":
    main()
