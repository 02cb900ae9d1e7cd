"""What stands between a client and the handlers: six layers of admission, outside in.

1. The door (door.py): a gunicorn worker's hook, put in by gunicorn.conf.py, that refuses an
   address's surplus handshakes and requests from a peek at their head, before gunicorn parses them.
2. ProxyFix (werkzeug's): the client's address from X-Forwarded-For, behind PROXIES proxies.
3. The Guard (guard.py): WSGI middleware that bounds each address's connections and handshakes,
   and the size of a request's body, and serves the other requests in their turn (pacing.py),
   a browser's badge (badges.py) and a student's seat (seats.py) first.
4. WebSocket frames (websocket.py): bounded in size and in frames a second, text only, uncompressed.
5. Intake packets (intake.py): each Socket.IO packet's kind, rate (limits.py), size, JSON and
   event name, checked before a handler sees it.
6. Code guesses (guesses.py): wrong class codes by connection, browser and address, checked by
   a class's join (classes/events.py) before it looks the code up.

Beside them: every response's framing headers (headers.py), the goodbye of a stopping server
(farewell.py), the heap a flood of connections leaves handed back (heap.py, from
gunicorn.conf.py), and the app's secrets (keys.py). init_app builds and installs them all; each thing
it keeps in the app has one accessor here.
"""

from flask import current_app
from werkzeug.middleware.proxy_fix import ProxyFix

from . import farewell, guard, headers, intake, websocket
from .badges import MINT_BURST, Badges
from .guesses import BURST, FREE_FAILURES, MAX_DELAY, PER_MINUTE, Guesses
from .keys import load_secret
from .limits import BURST as RATE_BURST
from .limits import MAX_MESSAGE_BYTES, RATE, Buckets
from .pacing import ADDRESS_BURST, ADDRESS_RATE, FILE_BURST, FILE_RATE, Pacing
from .seats import KEY_FILE, Seats, new_key

MAX_FRAME_BYTES = 4 * MAX_MESSAGE_BYTES  # a larger WebSocket message closes its connection

# The app's extensions keys of what the edge keeps (a test's stand-in app names them too).
LIMITS, BADGES, SEATS, GUARD, GUESSES = (
    f"knights_tour_{name}" for name in ("limits", "badges", "seats", "guard", "guesses")
)


def init_app(app, socketio, named=None, cost=None):
    """Build the edge's layers and install them around an app whose Socket.IO server is bound.

    named(environ): whether a request asks for one of the page's files by its content;
    cost(environ): how many turns a request takes (see pacing.py).
    """
    # RATE_*: a connection's requests; MAX_PER_ADDRESS, HANDSHAKE_*, MAX_WEBSOCKETS: see guard.py;
    # PROXIES: how many proxies' X-Forwarded-For to trust for a client's address; EMBED_ANCESTORS:
    # the sites whose pages may frame /embed (see headers.py), empty: any site; JOIN_*: the
    # failed joins per address (a school's NAT is one) and per connection (see guesses.py).
    for name, default in {
        "RATE_LIMIT": RATE,
        "RATE_BURST": RATE_BURST,
        "MAX_PER_ADDRESS": guard.MAX_CONNECTIONS,
        "HANDSHAKE_RATE": guard.HANDSHAKE_RATE,
        "HANDSHAKE_BURST": guard.HANDSHAKE_BURST,
        "PROXIES": 0,
        "MAX_WEBSOCKETS": guard.MAX_WEBSOCKETS,
        "EMBED_ANCESTORS": [],
        "JOIN_FAILURES_BURST": BURST,
        "JOIN_FAILURES_PER_MINUTE": PER_MINUTE,
        "JOIN_FREE_FAILURES": FREE_FAILURES,
        "JOIN_MAX_DELAY_SECONDS": MAX_DELAY,
    }.items():
        app.config.setdefault(name, default)
    config = app.config
    headers.init_app(app)
    # An address given room for a larger hall than the default's is given as many more badges,
    # page loads and files at once.
    hall = max(1.0, config["MAX_PER_ADDRESS"] / guard.MAX_CONNECTIONS)
    # Signed with the classes' secret, which every process sharing them has: a badge given by
    # one is good at all (and after a restart). Seats are signed with the instructor key, which
    # every process has too (see seats.py).
    badges = app.extensions[BADGES] = Badges(load_secret(app), mint_burst=round(MINT_BURST * hall))
    seats = app.extensions[SEATS] = Seats(load_secret(app, "INSTRUCTOR_KEY", KEY_FILE, new_key))
    pacing = Pacing(
        badges,
        addresses=Buckets(ADDRESS_RATE, round(ADDRESS_BURST * hall)),
        files=Buckets(FILE_RATE, round(FILE_BURST * hall)),
        named=named,
        cost=cost,
    )
    handshakes = Buckets(config["HANDSHAKE_RATE"], config["HANDSHAKE_BURST"])
    requests = app.extensions[LIMITS] = Buckets(config["RATE_LIMIT"], config["RATE_BURST"])
    app.extensions[GUESSES] = Guesses(
        burst=config["JOIN_FAILURES_BURST"],
        per_minute=config["JOIN_FAILURES_PER_MINUTE"],
        free=config["JOIN_FREE_FAILURES"],
        max_delay=config["JOIN_MAX_DELAY_SECONDS"],
    )
    # The layers, innermost first: each wraps the one before. The door (1) is the worker's.
    eio = socketio.server.eio
    intake.install(socketio.server, requests, MAX_MESSAGE_BYTES)  # 5
    websocket.install(eio, MAX_FRAME_BYTES, timeout=eio.ping_interval + eio.ping_timeout)  # 4
    app.wsgi_app = app.extensions[GUARD] = guard.Guard(
        app.wsgi_app,
        max_connections=config["MAX_PER_ADDRESS"],
        handshakes=handshakes,
        max_websockets=config["MAX_WEBSOCKETS"],
        badges=badges,
        seats=seats,
        pacing=pacing,
    )  # 3
    if config["PROXIES"]:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=config["PROXIES"])  # 2
    if config["ASYNC_MODE"] == "gevent":
        farewell.install(app)  # a stopping worker tells its pages first


def app_limits(app=None):
    """Return the request buckets of an app's clients (the current app's by default)."""
    return (app or current_app).extensions[LIMITS]


def app_badges(app=None):
    """Return the badges an app gives browsers (the current app's by default)."""
    return (app or current_app).extensions[BADGES]


def app_seats(app=None):
    """Return an app's seats (the current app's by default)."""
    return (app or current_app).extensions[SEATS]


def app_guard(app=None):
    """Return an app's Guard (the current app's by default), or None if it has none."""
    return (app or current_app).extensions.get(GUARD)


def app_guesses(app=None):
    """Return the failed guesses at class codes of an app's clients (the current app's by default)."""
    return (app or current_app).extensions[GUESSES]
