"""HTTP routes: the page and the browser's Socket.IO client."""

from pathlib import Path

from flask import Blueprint, abort, render_template, send_from_directory

from .options import MAX_SIDE, MAX_SPEED
from .search import ORDERINGS

bp = Blueprint("views", __name__)

# Installed from the npm registry at set-up (package-lock.json pins it); never a CDN.
SOCKET_IO_DIST = Path(__file__).resolve().parent.parent / "node_modules" / "socket.io-client" / "dist"


@bp.get("/")
def index():
    """Serve the page."""
    return render_template("index.html", max_side=MAX_SIDE, max_speed=MAX_SPEED, orderings=list(ORDERINGS))


@bp.get("/vendor/socket.io/<path:name>")
def socket_io_client(name):
    """Serve the Socket.IO browser client from the installed npm package."""
    if not SOCKET_IO_DIST.is_dir():
        abort(503, "The Socket.IO browser client is not installed: run `make run` or `npm ci`.")
    return send_from_directory(SOCKET_IO_DIST, name)
