"""Serve the app for a lecture hall: python -m server [--host H] [--port P] [options].

The server is gunicorn with one gevent worker: thousands of open WebSockets in one process,
each a greenlet rather than a thread, with read timeouts on every connection.
"""

import argparse
import ipaddress
import os
import re
import resource
import socket
import sys
from urllib.parse import urlsplit

from flask import Flask

from .edge.guard import HANDSHAKE_BURST, MAX_CONNECTIONS
from .edge.keys import load_secret
from .edge.seats import KEY_FILE, new_key
from .runs.pool import default_size

PING_INTERVAL, PING_TIMEOUT = 25, 20  # seconds; a silent page is closed within their sum
WORKER_CONNECTIONS = 10_000  # open connections the worker takes at most (each a greenlet)
HOOKS = os.path.join(os.path.dirname(__file__), "gunicorn.conf.py")  # the worker's hooks
KEEPALIVE = 5  # seconds a connection may take to send a request's headers, or idle between two
# File descriptors kept back from WebSockets: the page's own HTTP requests (a browser opens up to
# six at once), Redis, logs and the worker's pipes need theirs when the WebSockets hold the rest.
SPARE_FILES = 100
EVERY_ADDRESS = ("0.0.0.0", "::", "")
HALL = 2_000  # pages a lecture hall may connect at once (a race page holds two connections)
# Where a probe's route leads: documentation addresses (RFC 5737, RFC 3849) that no network
# routes, so that only the default route can take them; a probe sends nothing anyway.
PROBES = ((socket.AF_INET, ("192.0.2.1", 9)), (socket.AF_INET6, ("2001:db8::1", 9)))


def public_url(text):
    """Return an http(s) URL given on the command line, without a trailing slash."""
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise argparse.ArgumentTypeError(f"{text!r} is not an http:// or https:// address")
    return text.rstrip("/")


SITE = re.compile(r"https?://(\*\.)?[A-Za-z0-9.-]+(:\d{1,5})?")


def site(text):
    """Return a site allowed to frame the embed (https://lms.example.edu, https://*.example.edu)."""
    text = text.rstrip("/")
    if not SITE.fullmatch(text):
        raise argparse.ArgumentTypeError(f"{text!r} is not a site such as https://lms.example.edu")
    return text


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
        "--embed-site",
        action="append",
        default=[],
        type=site,
        metavar="URL",
        help="let only these sites show the embeddable board (/embed) in a frame (repeatable; "
        "https://*.example.edu covers its subdomains); by default any site may",
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
    parser.add_argument(
        "--public-url",
        type=public_url,
        metavar="URL",
        help="the address students open, shown in the class link and its QR code "
        "(default: this machine's network address when listening on 0.0.0.0)",
    )
    parser.add_argument(
        "--search-processes",
        type=int,
        default=default_size(),
        metavar="N",
        help="helper processes that search for skipping runs, beside the one serving the pages "
        f"(default {default_size()}: one per core but one; 0: search in the serving process)",
    )
    parser.add_argument("--ping-interval", type=float, default=PING_INTERVAL, help=argparse.SUPPRESS)
    parser.add_argument("--ping-timeout", type=float, default=PING_TIMEOUT, help=argparse.SUPPRESS)
    # Seconds: a class key's life in Redis, and how often its owner renews it.
    parser.add_argument("--class-ttl", type=float, help=argparse.SUPPRESS)
    parser.add_argument("--class-heartbeat", type=float, help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def url_of(host, port):
    """Return the http:// address of a host (a name or an IPv4 or IPv6 address) and port."""
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def lan_address(probe=socket.socket):
    """Return this machine's address on the network its default route leads to, or None."""
    # Connecting a UDP socket only picks the route and the source address it would use.
    for family, target in PROBES:
        try:
            with probe(family, socket.SOCK_DGRAM) as sock:
                sock.connect(target)
                address = ipaddress.ip_address(sock.getsockname()[0])
        except (OSError, ValueError):  # no such route, or a scoped (link-local) address
            continue
        if not (address.is_loopback or address.is_unspecified or address.is_link_local):
            return str(address)
    return None


def reachable_host(host, probe=socket.socket):
    """Return the address other machines reach a server listening on host at."""
    if host not in EVERY_ADDRESS:
        return host
    # A machine off every network is reached, if at all, by its name.
    return lan_address(probe) or socket.gethostname() or "127.0.0.1"


def join_url(args, probe=socket.socket):
    """Return the address students open, or None when each page should give its own."""
    if args.public_url:
        return args.public_url
    # Behind a proxy the students open the proxy's address, which is the instructor's page's own.
    if args.proxies:
        return None
    return url_of(reachable_host(args.host, probe), args.port)


def raise_open_file_limit(limits=resource):
    """Raise this process's soft limit of open files to its hard limit; return the soft limit."""
    soft, hard = limits.getrlimit(limits.RLIMIT_NOFILE)
    if hard != soft:
        try:
            limits.setrlimit(limits.RLIMIT_NOFILE, (hard, hard))
            soft = hard
        except (ValueError, OSError):  # an unlimited hard limit that the system caps lower
            pass
    return soft


def websocket_capacity(open_files):
    """Return how many WebSockets the worker takes before it refuses more with a clear answer."""
    # Past either bound a new connection would wait unanswered until its client gave up: no
    # descriptor to accept it with, or no greenlet free in gunicorn's pool to serve it.
    bound = min(open_files, WORKER_CONNECTIONS)
    return max(1, bound - max(SPARE_FILES, bound // 10))


def gunicorn_command(args, open_files=WORKER_CONNECTIONS):
    """Return the gunicorn command line that serves the app with these options."""
    config = {
        "ASYNC_MODE": "gevent",
        "CORS_ORIGINS": args.allow_origin,
        "EMBED_ANCESTORS": args.embed_site,
        "MESSAGE_QUEUE": args.message_queue,
        "MAX_PER_ADDRESS": args.max_per_address,
        "HANDSHAKE_BURST": max(HANDSHAKE_BURST, args.max_per_address),
        "PROXIES": args.proxies,
        "PING_INTERVAL": args.ping_interval,
        "PING_TIMEOUT": args.ping_timeout,
        "PUBLIC_URL": join_url(args),
        "MAX_WEBSOCKETS": websocket_capacity(open_files),
        "SEARCH_PROCESSES": args.search_processes,
    }
    tuning = {
        "CLASS_TTL_SECONDS": args.class_ttl,
        "CLASS_HEARTBEAT_SECONDS": args.class_heartbeat,
    }
    config.update({key: value for key, value in tuning.items() if value is not None})
    return [
        sys.executable,
        "-m",
        "gunicorn",
        *("--bind", f"[{args.host}]:{args.port}" if ":" in args.host else f"{args.host}:{args.port}"),
        *("--workers", "1", "--worker-class", "gevent", "--worker-connections", str(WORKER_CONNECTIONS)),
        *("--keep-alive", str(KEEPALIVE), "--graceful-timeout", "5", "--no-control-socket"),
        *("--limit-request-line", "4096", "--limit-request-fields", "50"),
        *("--config", HOOKS),
        f"server:create_app({config!r})",
    ]


def instructor_key():
    """Return the server's instructor key, as the app finds it in its instance folder (made if missing)."""
    return load_secret(Flask("server"), "INSTRUCTOR_KEY", KEY_FILE, new_key).decode()


def main(argv=None):
    """Print the URL to open, then become the gunicorn server (same process, same signals)."""
    args = parse(argv)
    open_files = raise_open_file_limit()
    local = url_of("127.0.0.1" if args.host in EVERY_ADDRESS else args.host, args.port)
    public = join_url(args)
    also = f"; students open {public}/" if public and public != local else ""
    print(f"Knight's Tour Live: open {local}/ in a browser{also}", flush=True)
    print(
        f"Instructors: to print students' seats, open {public or local}/instructor once and enter the key "
        f"{instructor_key()}",
        flush=True,
    )
    capacity = websocket_capacity(open_files)
    if capacity < HALL:
        print(
            f"Open-file limit {open_files:,}: at most {capacity:,} pages connected at once "
            "(raise it for a lecture hall: docs/deployment.md)",
            flush=True,
        )
    command = gunicorn_command(args, open_files)
    # gunicorn's worker patches the standard library for gevent before it imports the app;
    # replacing this process gives it a clean start, with nothing of the app imported yet.
    os.execv(command[0], command)


if __name__ == "__main__":
    main()
