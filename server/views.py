"""HTTP routes: the page and the browser's Socket.IO client."""

from pathlib import Path

from flask import Blueprint, abort, render_template, send_from_directory

from .engine import ORDERINGS, example_graph
from .wire import DEFAULT_SPEED, MAX_BUDGET, MAX_SEED, MAX_SIDE, SPEED_STEPS

bp = Blueprint("views", __name__)

# Installed from the npm registry at set-up (package-lock.json pins it); never a CDN.
SOCKET_IO_DIST = Path(__file__).resolve().parent.parent / "node_modules" / "socket.io-client" / "dist"

# The names the page gives the engine's orderings (in English; the page translates them).
ORDERING_LABELS = {
    "naive": "Naive",
    "warnsdorff": "Warnsdorff",
    "warnsdorff-roth": "Warnsdorff + Roth's tie-break",
    "random": "Random",
}


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
