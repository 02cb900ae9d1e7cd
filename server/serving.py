"""How `python -m server` serves the app: Werkzeug's threaded server, and its request handler."""

from werkzeug.serving import WSGIRequestHandler


class RequestHandler(WSGIRequestHandler):
    """Werkzeug's request handler, closing a connection once the WebSocket on it has ended."""

    # Werkzeug would otherwise read on for another HTTP request, taking the client's closing
    # frames for one and holding its thread until the client drops the connection: after
    # 3 s for a python-socketio client, which waits for a close frame that Werkzeug swallowed.
    def run_wsgi(self):
        """Handle the request; end the connection after it if it was a WebSocket."""
        try:
            super().run_wsgi()
        finally:
            if self.headers.get("Upgrade", "").lower() == "websocket":
                self.close_connection = True
