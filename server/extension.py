"""The Socket.IO extension object, apart from the factory that binds it to an app (init_app)."""

from flask_socketio import SocketIO

socketio = SocketIO()
