"""HTTP routes: the page, the QR code of a class's link, and the browser's Socket.IO client."""

import io
import re
from functools import lru_cache
from pathlib import Path

import segno
from flask import Blueprint, Response, abort, current_app, render_template, request, send_from_directory

from .class_sessions import CODE_ALPHABET, CODE_LENGTH
from .engine import ORDERINGS, example_graph
from .wire import DEFAULT_SPEED, MAX_BUDGET, MAX_SEED, MAX_SIDE, SPEED_STEPS

bp = Blueprint("views", __name__)

# Installed from the npm registry at set-up (package-lock.json pins it); never a CDN.
SOCKET_IO_DIST = Path(__file__).resolve().parent.parent / "node_modules" / "socket.io-client" / "dist"

CODE = re.compile(f"[{CODE_ALPHABET}]{{{CODE_LENGTH}}}")
QR_MAX_AGE = 3600  # seconds a browser keeps a class's QR code; it changes only with --public-url

# The names the page gives the engine's orderings (in English; the page translates them).
ORDERING_LABELS = {
    "naive": "Naive",
    "warnsdorff": "Warnsdorff",
    "warnsdorff-roth": "Warnsdorff + Roth's tie-break",
    "random": "Random",
}


def join_base():
    """Return the address students open (python -m server's choice), or None for the page's own."""
    return current_app.config.get("PUBLIC_URL")


def page_context():
    """Return what the page's template shows: option lists and limits, from the server's own."""
    graph = example_graph()
    return {
        # Read by the page's script, so that it holds no copy of the server's limits or graph.
        "limits": {
            "maxSide": MAX_SIDE,
            "maxSeed": MAX_SEED,
            "maxBudget": MAX_BUDGET,
            "speeds": SPEED_STEPS,
            "defaultSpeed": DEFAULT_SPEED,
            "orders": list(ORDERINGS),
            "example": {"names": list(graph.names), "moves": [list(m) for m in graph.adjacency]},
            # The class link's address: the page's own when null.
            "joinBase": join_base(),
        },
        "max_side": MAX_SIDE,
        "max_seed": MAX_SEED,
        "max_budget": MAX_BUDGET,
        "speed_steps": SPEED_STEPS,
        "default_speed_step": SPEED_STEPS.index(DEFAULT_SPEED),
        "orderings": [(name, ORDERING_LABELS[name]) for name in ORDERINGS],
    }


@bp.get("/")
def index():
    """Serve the page."""
    return render_template("index.html", **page_context())


@bp.get("/vendor/socket.io/<path:name>")
def socket_io_client(name):
    """Serve the Socket.IO browser client from the installed npm package."""
    if not SOCKET_IO_DIST.is_dir():
        abort(503, "The Socket.IO browser client is not installed: run `make run` or `npm ci`.")
    return send_from_directory(SOCKET_IO_DIST, name)


@lru_cache(maxsize=512)
def qr_svg(text):
    """Return a QR code of text as an SVG that scales to any size."""
    # Medium error correction survives a projector's glare; the four-module quiet zone and the
    # white ground let a phone find the code on any background.
    out = io.BytesIO()
    segno.make_qr(text, error="m").save(
        out, kind="svg", border=4, dark="#000", light="#fff", omitsize=True, xmldecl=False, nl=False
    )
    return out.getvalue()


@bp.get("/class/<code>/qr.svg")
def class_qr(code):
    """Serve the QR code of a class's link, for the presenter view."""
    if not CODE.fullmatch(code):
        abort(404)
    # Any well-formed code gets its picture, whether a class has it or not: the picture holds no
    # more than the code, and answering only open classes would let codes be guessed here,
    # past the limits on wrong codes.
    base = join_base() or request.host_url.rstrip("/")
    response = Response(qr_svg(f"{base}/?class={code}"), mimetype="image/svg+xml")
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.cache_control.public = True
    response.cache_control.max_age = QR_MAX_AGE
    response.add_etag()
    return response.make_conditional(request)
