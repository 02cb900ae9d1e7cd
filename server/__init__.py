"""Knight's Tour Live: a Flask-SocketIO server streaming a depth-first knight's tour."""

from flask import Flask
from flask_socketio import SocketIO

from .limits import BURST, MAX_MESSAGE_BYTES, RATE, Limits

socketio = SocketIO()


def create_app(config=None):
    """Create the Flask app and bind the Socket.IO server to it."""
    app = Flask(__name__, static_folder="../static", template_folder="../templates")
    # CORS_ORIGINS: the other origins whose pages may connect (the server's own always may).
    app.config.from_mapping(PING_INTERVAL=25, CORS_ORIGINS=[], RATE_LIMIT=RATE, RATE_BURST=BURST)
    if config:
        app.config.update(config)
    # Imported here, once socketio exists: importing them registers their handlers and routes.
    from . import class_events, connection_events, run_events, runs, views  # noqa: F401

    app.register_blueprint(views.bp)
    runs.init_app(app)
    class_events.init_app(app)
    app.extensions["knights_tour_limits"] = Limits(app.config["RATE_LIMIT"], app.config["RATE_BURST"])
    # MESSAGE_QUEUE (a redis:// URL) lets several server processes share clients and classes.
    # Threading is set explicitly: eventlet is unmaintained and gevent drops large frames.
    # Each connection keeps a ping thread that notices a closed socket within PING_INTERVAL.
    socketio.init_app(
        app,
        async_mode="threading",
        ping_interval=app.config["PING_INTERVAL"],
        # None admits the server's own origin only; a cross-origin page is refused.
        cors_allowed_origins=app.config["CORS_ORIGINS"] or None,
        max_http_buffer_size=MAX_MESSAGE_BYTES * 4,
        # One client's events are handled in order, on its own connection's thread: a start
        # is in place before the step that follows it, and a flood holds up only its sender.
        async_handlers=False,
        message_queue=app.config.get("MESSAGE_QUEUE"),
    )
    return app
