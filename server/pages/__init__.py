"""HTTP routes: the page, its embeddable board, the QR code of a class's link, and the browser's libraries."""

import io
import re
from functools import lru_cache
from pathlib import Path

import segno
from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    make_response,
    render_template,
    request,
)

from ..assets import Assets, send_packed
from ..classes.mirror import MAX_LABEL, MAX_MARKS
from ..classes.questions.checks import MAX_SERIES
from ..classes.registry import classes
from ..classes.sessions import CODE_ALPHABET, CODE_LENGTH
from ..classes.tournament.checks import MAX_NAME
from ..edge import app_badges, app_seats
from ..edge import seats as seating
from ..edge.badges import COOKIE, MAX_AGE
from ..engine import ORDERINGS, example_graph
from ..engine.orderings import MAX_KEYS, NEVER_TIE
from ..replies import Refusal, told
from ..wire import (
    DEFAULT_SPEED,
    MAX_BUDGET,
    MAX_SEED,
    MAX_SIDE,
    MAX_STRIP_BUDGET,
    MAX_STRIP_SIDE,
    SPEED_STEPS,
)
from . import codelab

bp = Blueprint("views", __name__)

# The page's libraries, by the name it loads them under: installed from the npm registry at
# set-up (package-lock.json pins them) and served from here, never a CDN.
NODE_MODULES = Path(__file__).resolve().parents[2] / "node_modules"
VENDORED = {
    "socket.io": NODE_MODULES / "socket.io-client" / "dist",
    "gifenc": NODE_MODULES / "gifenc" / "dist",
    "mediabunny": NODE_MODULES / "mediabunny" / "dist" / "bundles",
    "noble-hashes": NODE_MODULES / "@noble" / "hashes",
    "uqr": NODE_MODULES / "uqr" / "dist",
    # Python in the browser, for the code lab (codelab.py): loaded only when the lab opens.
    "pyodide": NODE_MODULES / "pyodide",
}
# Of a package that ships more than the page loads, the files it may be given.
VENDORED_FILES = {
    "mediabunny": {"mediabunny.min.mjs"},
    # SHA-256 alone, for a badge's proof of work (static/js/badge.js), and what it imports.
    "noble-hashes": {"sha2.js", "_md.js", "_u64.js", "utils.js"},
    # QR codes, drawn by a sheet of seats (static/js/seats/sheet.js).
    "uqr": {"index.mjs"},
    # Its loader, its runtime and the standard library: enough for pure Python, offline.
    "pyodide": set(codelab.PYODIDE),
}

# The modules a page loads (templates name them by their plain URL): each is bundled with what it
# imports into one file, served at BUNDLE_URL (see bundle.py).
ENTRIES = ("app.js", "seats/sheet.js")
BUNDLE_URL = "/bundle"

CODE = re.compile(f"[{CODE_ALPHABET}]{{{CODE_LENGTH}}}")
QR_MAX_AGE = 3600  # seconds a browser keeps a class's QR code; it changes only with --public-url
# Turns of its address a request takes (edge/pacing.py): a QR code is drawn for any well-formed
# code (about 7 ms, where a page takes 1), so it takes as many as eight pages.
QR_TURNS = 8
# A sheet of seats (rosters.py), a page of up to 1,000 signed cards, takes as many turns as a QR code.
QR_PATH = re.compile(r"/class/[^/]+/qr\.svg|/roster/[^/]+")


def turns(environ):
    """Return how many of its address's turns a request takes."""
    return QR_TURNS if QR_PATH.fullmatch(environ.get("PATH_INFO", "")) else 1


# The names the page gives the engine's orderings (in English; the page translates them).
ORDERING_LABELS = {
    "naive": "Naive",
    "warnsdorff": "Warnsdorff",
    "warnsdorff-roth": "Warnsdorff + Roth's tie-break",
    "random": "Random",
}


def assets(app):
    """Return the page's files, its own and its libraries', named by their content (assets.py),
    with the modules the pages load bundled (bundle.py)."""
    folders = {f"/vendor/{name}": (folder, VENDORED_FILES.get(name)) for name, folder in VENDORED.items()}
    made = Assets({app.static_url_path: (app.static_folder, None), **folders})
    modules = Path(app.static_folder) / "js"
    cache = Path(app.instance_path) / "bundle"
    made.bundle(BUNDLE_URL, modules, f"{app.static_url_path}/js", ENTRIES, cache)
    return made


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
            # The keys after which no other key of an ordering decides anything.
            "neverTie": list(NEVER_TIE),
            # Keys in one ordering; letters in the name of an ordering, as in a nickname.
            "maxKeys": MAX_KEYS,
            "maxOrderName": MAX_NAME,
            "maxStripSide": MAX_STRIP_SIDE,
            "maxStripBudget": MAX_STRIP_BUDGET,
            "example": {"names": list(graph.names), "moves": [list(m) for m in graph.adjacency]},
            # A class's bookmarks (how many, how long a label), questions in a series, and codes.
            "maxMarks": MAX_MARKS,
            "maxLabel": MAX_LABEL,
            "maxSeries": MAX_SERIES,
            # The code lab's files and exercises (codelab.py).
            "lab": codelab.page_limits(current_app.jinja_env.globals["asset"]),
            "classCode": {"alphabet": CODE_ALPHABET, "length": CODE_LENGTH},
            # The class link's address: the page's own when null.
            "joinBase": join_base(),
            # The embed's options (see embed_options); null on the page itself.
            "embed": None,
        },
        "embed": None,
        "max_side": MAX_SIDE,
        "max_seed": MAX_SEED,
        "max_budget": MAX_BUDGET,
        "speed_steps": SPEED_STEPS,
        "default_speed_step": SPEED_STEPS.index(DEFAULT_SPEED),
        "orderings": [(name, ORDERING_LABELS[name]) for name in ORDERINGS],
        "max_name": MAX_NAME,
        "max_strip_side": MAX_STRIP_SIDE,
        "max_strip_budget": MAX_STRIP_BUDGET,
        "max_roster": seating.MAX_ROSTER,
    }


def badged(context):
    """Return the page with context, giving the browser a badge if it has none, or asking it to
    earn one if its address has none left to give (see edge/badges.py)."""
    badges = app_badges()
    badge = badges.issue(request.environ, request.remote_addr)
    # An embed is not asked: it sits in another site's page, which keeps the cookie from it, so a
    # badge earned there would be work thrown away at every load.
    earn = badge is None and badges.of(request.environ) is None and context["embed"] is None
    context["limits"]["badgeProof"] = badges.asked() if earn else None
    seats = app_seats()
    seat = seats.of(request.environ)
    context["seat"] = seating.number(seat) if seat else None
    context["instructor"] = context["embed"] is None and seats.is_instructor(request.environ)
    return with_badge(make_response(render_template("index.html", **context)), badge)


def kept(response, name, value, max_age):
    """Return response, having the browser keep a cookie for max_age seconds, out of its scripts' reach."""
    response.set_cookie(name, value, max_age=max_age, httponly=True, samesite="Lax", secure=request.is_secure)
    return response


def with_badge(response, badge):
    """Return response, giving the browser badge (a cookie value) if there is one."""
    return response if badge is None else kept(response, COOKIE, badge, MAX_AGE)


@bp.post("/badge")
def earn_badge():
    """Give a browser a badge for its proof of work ({"proof": "minute.salt.nonce"}), when its
    address had none left to give it."""
    body = request.get_json(silent=True)
    try:
        badge = app_badges().earn(body.get("proof") if isinstance(body, dict) else None)
    except Refusal as refusal:
        return told(refusal)[1], 400
    return with_badge(make_response({"ok": True}), badge)


@bp.get("/")
def index():
    """Serve the page."""
    return badged(page_context())


EMBED_CONTROLS = ("none", "minimal", "full")
EMBED_PANELS = ("code", "stack", "chart", "tree")
LANGUAGES = ("en", "zh")


def embed_options(args):
    """Return an embed's options from its address; a value it cannot use falls back, as a link's do."""
    controls = args.get("controls", "minimal")
    wanted = args.get("panels", "").split(",")
    yes = ("true", "1", "yes")
    return {
        "controls": controls if controls in EMBED_CONTROLS else "minimal",
        "panels": [name for name in EMBED_PANELS if name in wanted],
        # With no controls, nothing else could start it.
        "autoplay": args.get("autoplay", "").lower() in yes or controls == "none",
        "loop": args.get("loop", "").lower() in yes,
        "language": args.get("lang") if args.get("lang") in LANGUAGES else None,
    }


@bp.get("/embed")
def embed():
    """Serve the board alone, for an iframe in another site's page: no class features."""
    context = page_context()
    context["limits"]["embed"] = context["embed"] = embed_options(request.args)
    return badged(context)


@bp.get("/vendor/<package>/<path:name>")
def vendored(package, name):
    """Serve a file of one of the page's libraries from its installed npm package."""
    if package not in VENDORED or name not in VENDORED_FILES.get(package, {name}):
        abort(404)
    if not VENDORED[package].is_dir():
        abort(503, f"The page's library {package} is not installed: run `make run` or `npm ci`.")
    return send_packed(VENDORED[package], name)


@lru_cache(maxsize=512)  # a class's, which every presenter view asks for
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
    """Serve the QR code of a class's link (with its ticket, if given), for the presenter view."""
    ticket = request.args.get("ticket")
    if not CODE.fullmatch(code) or (ticket is not None and classes().passes.admits(code, ticket) is None):
        abort(404)
    # Any well-formed code gets its picture, whether a class has it or not: the picture holds no
    # more than the code (and a ticket only its signature checks), and answering only open
    # classes would let codes be guessed here, past the limits on wrong codes.
    base = join_base() or request.host_url.rstrip("/")
    link = f"{base}/?class={code}" + (f"&ticket={ticket}" if ticket else "")
    response = Response(qr_svg(link), mimetype="image/svg+xml")
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.cache_control.public = True
    response.cache_control.max_age = QR_MAX_AGE
    response.add_etag()
    return response.make_conditional(request)
