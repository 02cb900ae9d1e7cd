"""Knight's Tour Live: a Flask-SocketIO server streaming a depth-first knight's tour."""

from flask import Flask
from flask_socketio import SocketIO

socketio = SocketIO()


def create_app(config=None):
    """Create the Flask app and bind the Socket.IO server to it."""
    app = Flask(__name__, static_folder="../static", template_folder="../templates")
    app.config.from_mapping(PING_INTERVAL=25)
    if config:
        app.config.update(config)
    from . import classroom, runs, sockets, views  # noqa: F401  (registers handlers, routes)

    app.register_blueprint(views.bp)
    runs.init_app(app)
    classroom.init_app(app)
    # Threading is set explicitly: eventlet is unmaintained and gevent drops large frames.
    # Each connection keeps a ping thread that notices a closed socket within PING_INTERVAL.
    socketio.init_app(app, async_mode="threading", ping_interval=app.config["PING_INTERVAL"])
    return app
