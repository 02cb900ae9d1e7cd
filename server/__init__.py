"""Knight's Tour Live: a Flask-SocketIO server streaming a depth-first knight's tour."""

from flask import Flask

from . import classes, connection, edge, message_queue, pages
from .classes import events as class_events
from .classes import sharing
from .classes.exercise import events as exercise_events
from .classes.questions import events as question_events
from .classes.tournament import events as tournament_events
from .extension import socketio
from .pages import codelab, rosters
from .runs import events as run_events
from .runs import registry as runs
from .runs import strips

__all__ = ["create_app", "socketio"]

# Imported for their handlers, which importing them registers on socketio.
HANDLERS = (connection, class_events, question_events, run_events, strips, tournament_events, exercise_events)


def create_app(config=None):
    """Create the Flask app and bind the Socket.IO server to it."""
    app = Flask(__name__, static_folder="../static", template_folder="../templates")
    # CORS_ORIGINS: the other origins whose pages may connect (the server's own always may).
    # ASYNC_MODE: "gevent" under the production server (python -m server); "threading" for an
    # app served in-process (the tests). The edge's settings: see edge/__init__.py.
    app.config.from_mapping(
        ASYNC_MODE="threading",
        PING_INTERVAL=25,
        PING_TIMEOUT=20,
        CORS_ORIGINS=[],
        # With MESSAGE_QUEUE: the longest wait for Redis to answer, in seconds, before giving up.
        QUEUE_TIMEOUT_SECONDS=1.0,
        # Helper processes searching for skipping runs (see runs/pool.py); 0: the app's own.
        SEARCH_PROCESSES=0,
    )
    app.config.update(config or {})
    app.register_blueprint(pages.bp)
    app.register_blueprint(rosters.bp)
    app.register_blueprint(codelab.bp)
    assets = pages.assets(app)
    assets.init_app(app)
    runs.init_app(app)
    classes.init_app(app)
    # MESSAGE_QUEUE (a redis:// URL) lets several server processes share clients and classes,
    # through a queue that nothing waits for: see message_queue.py and classes/sharing.py.
    queue = message_queue.queue_for(app.config.get("MESSAGE_QUEUE"), app.config["QUEUE_TIMEOUT_SECONDS"])
    _bind_socketio(app, queue)
    sharing.start(app, queue)
    edge.init_app(app, socketio, named=assets.named, cost=pages.turns)
    return app


def _bind_socketio(app, queue):
    """Bind the Socket.IO server to an app, its clients shared through queue (None: this process's)."""
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
        max_http_buffer_size=edge.MAX_FRAME_BYTES,
        # One client's events are handled in order, on its own connection's thread: a start
        # is in place before the step that follows it, and a flood holds up only its sender.
        async_handlers=False,
        client_manager=queue,
    )
