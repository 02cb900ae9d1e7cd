"""Knight's Tour Live: a Flask-SocketIO server streaming a depth-first knight's tour."""

from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix

from . import connection, message_queue, pages
from .classes import events as class_events
from .classes import poll_events, seams, sharing, tournament_events
from .classes import registry as classes
from .classes.passes import load_secret
from .edge import door, farewell, guard, headers, intake, websocket
from .edge.badges import MINT_BURST, Badges
from .edge.limits import BURST, MAX_MESSAGE_BYTES, RATE, Buckets
from .edge.pacing import ADDRESS_BURST, ADDRESS_RATE, FILE_BURST, FILE_RATE, Pacing
from .edge.seats import KEY_FILE, Seats, new_key
from .extension import socketio
from .pages import rosters
from .runs import events as run_events
from .runs import registry as runs
from .runs import strips

__all__ = ["create_app", "socketio"]

MAX_FRAME_BYTES = 4 * MAX_MESSAGE_BYTES  # a larger WebSocket message closes its connection
# Imported for their handlers, which importing them registers on socketio.
HANDLERS = (connection, class_events, poll_events, run_events, strips, tournament_events)


def create_app(config=None):
    """Create the Flask app and bind the Socket.IO server to it."""
    app = Flask(__name__, static_folder="../static", template_folder="../templates")
    # CORS_ORIGINS: the other origins whose pages may connect (the server's own always may).
    # ASYNC_MODE: "gevent" under the production server (python -m server); "threading" for an
    # app served in-process (the tests). MAX_PER_ADDRESS, HANDSHAKE_*: see edge/guard.py; PROXIES:
    # how many proxies' X-Forwarded-For to trust for a client's address.
    app.config.from_mapping(
        ASYNC_MODE="threading",
        PING_INTERVAL=25,
        PING_TIMEOUT=20,
        CORS_ORIGINS=[],
        RATE_LIMIT=RATE,
        RATE_BURST=BURST,
        MAX_PER_ADDRESS=guard.MAX_CONNECTIONS,
        HANDSHAKE_RATE=guard.HANDSHAKE_RATE,
        HANDSHAKE_BURST=guard.HANDSHAKE_BURST,
        PROXIES=0,
        MAX_WEBSOCKETS=guard.MAX_WEBSOCKETS,
        # With MESSAGE_QUEUE: the longest wait for Redis to answer, in seconds, before giving up.
        QUEUE_TIMEOUT_SECONDS=1.0,
        # The sites whose pages may frame /embed (see edge/headers.py); empty: any site.
        EMBED_ANCESTORS=[],
        # Helper processes searching for skipping runs (see runs/pool.py); 0: the app's own.
        SEARCH_PROCESSES=0,
    )
    if config:
        app.config.update(config)
    app.register_blueprint(pages.bp)
    app.register_blueprint(rosters.bp)
    assets = pages.assets(app)
    assets.init_app(app)
    headers.init_app(app)
    runs.init_app(app)
    classes.init_app(app)
    seams.init_app(app)
    requests = app.extensions["knights_tour_limits"] = Buckets(
        app.config["RATE_LIMIT"], app.config["RATE_BURST"]
    )
    # MESSAGE_QUEUE (a redis:// URL) lets several server processes share clients and classes,
    # through a queue that nothing waits for: see message_queue.py and classes/sharing.py.
    queue = message_queue.queue_for(app.config.get("MESSAGE_QUEUE"), app.config["QUEUE_TIMEOUT_SECONDS"])
    # The mode is set explicitly: with gevent installed, Flask-SocketIO would pick it even for
    # an app served by threads.
    socketio.init_app(
        app,
        async_mode=app.config["ASYNC_MODE"],
        ping_interval=app.config["PING_INTERVAL"],
        ping_timeout=app.config["PING_TIMEOUT"],
        # The page connects over WebSocket only: no long-polling requests to hold or limit.
        transports=["websocket"],
        # None admits the server's own origin only; a cross-origin page is refused.
        cors_allowed_origins=app.config["CORS_ORIGINS"] or None,
        max_http_buffer_size=MAX_FRAME_BYTES,
        # One client's events are handled in order, on its own connection's thread: a start
        # is in place before the step that follows it, and a flood holds up only its sender.
        async_handlers=False,
        client_manager=queue,
    )
    sharing.start(app, queue)
    eio = socketio.server.eio
    websocket.install(eio, MAX_FRAME_BYTES, timeout=eio.ping_interval + eio.ping_timeout)
    intake.install(socketio.server, requests, MAX_MESSAGE_BYTES)
    handshakes = Buckets(app.config["HANDSHAKE_RATE"], app.config["HANDSHAKE_BURST"])
    # An address given room for a larger hall than the default's is given as many more badges,
    # page loads and files at once.
    hall = max(1.0, app.config["MAX_PER_ADDRESS"] / guard.MAX_CONNECTIONS)
    # Signed with the classes' secret, which every process sharing them has: a badge given by
    # one is good at all (and after a restart). Seats are signed with the instructor key, which
    # every process has too (see edge/seats.py).
    secret = load_secret(app)
    badges = Badges(secret, mint_burst=round(MINT_BURST * hall))
    app.extensions["knights_tour_badges"] = badges
    seats = app.extensions["knights_tour_seats"] = Seats(
        load_secret(app, "INSTRUCTOR_KEY", KEY_FILE, new_key)
    )
    app.wsgi_app = app.extensions[door.GUARD] = guard.Guard(
        app.wsgi_app,
        max_connections=app.config["MAX_PER_ADDRESS"],
        handshakes=handshakes,
        max_websockets=app.config["MAX_WEBSOCKETS"],
        badges=badges,
        seats=seats,
        pacing=Pacing(
            badges,
            addresses=Buckets(ADDRESS_RATE, round(ADDRESS_BURST * hall)),
            files=Buckets(FILE_RATE, round(FILE_BURST * hall)),
            named=assets.named,
            cost=pages.turns,
        ),
    )
    if app.config["PROXIES"]:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=app.config["PROXIES"])
    if app.config["ASYNC_MODE"] == "gevent":
        farewell.install(app)  # a stopping worker tells its pages first
    return app
