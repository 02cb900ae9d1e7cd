"""HTTP routes of the code lab: the sandbox a student's code runs in, and the Python it runs with.

A student's Python runs in their own browser (Pyodide), in a Web Worker made inside the frame
served here. The frame has no origin of its own (the page frames it sandboxed, without
allow-same-origin), so it holds no cookie and no storage of the page, and its policy allows no
connection at all: the page hands it everything it needs (Pyodide's files, this Python, the
worker's script) as messages.
"""

import base64
import hashlib
import json
from functools import cache
from pathlib import Path

from flask import Blueprint, Response, abort, current_app, request

from ..classes.exercise.checks import VERDICT_EVERY
from ..codelab.exercises import BOOK, exercises

bp = Blueprint("codelab", __name__)

SERVER = Path(__file__).resolve().parents[1]
# The Python the lab runs beside the student's code: the engine (the reference it is compared
# with, the server's own) and the lab's runner (server/codelab).
PYTHON = ("engine", "codelab")
FRAME_SCRIPT = "js/codelab/frame.js"
# Pyodide's files the worker loads: its loader, its runtime and the standard library.
PYODIDE = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")


def page_limits(asset):
    """Return what the page needs of the lab (asset names a file by its content: assets.py)."""
    return {
        "urls": {
            "frame": "/lab/sandbox",
            "worker": asset("/static/js/codelab/worker.js"),
            "python": python_url(),
            "pyodide": {name: asset(f"/vendor/pyodide/{name}") for name in PYODIDE},
        },
        "exercises": exercises(),
        "code": BOOK,  # where every exercise starts
        "verdictEvery": VERDICT_EVERY,  # seconds between two verdicts a page sends on a class's exercise
    }


@cache
def python_sources():
    """Return the lab's Python as JSON ({path under the sandbox's home: source}) and its digest."""
    sources = {"server/__init__.py": ""}
    for package in PYTHON:
        for path in sorted((SERVER / package).glob("*.py")):
            sources[f"server/{package}/{path.name}"] = path.read_text()
    body = json.dumps(sources, sort_keys=True).encode()
    return body, hashlib.sha256(body).hexdigest()[:12]


def python_url():
    """Return the URL of the lab's Python, named by its content."""
    return f"/lab/python.json?v={python_sources()[1]}"


@cache
def frame(static_folder):
    """Return the sandbox's page, and its policy: the frame's script inline, allowed by its hash."""
    script = (Path(static_folder) / FRAME_SCRIPT).read_text()
    digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
    page = f'<!doctype html>\n<meta charset="utf-8">\n<title>Code lab</title>\n<script>{script}</script>\n'
    policy = "; ".join(
        (
            "default-src 'none'",
            # The worker is made from a blob of the script the page hands over; Pyodide compiles
            # WebAssembly. blob: URLs name bytes this frame already holds: nothing is fetched.
            f"script-src 'sha256-{digest}' blob: 'wasm-unsafe-eval'",
            "worker-src blob:",
            "connect-src blob:",
            "frame-ancestors 'self'",
            "base-uri 'none'",
            "form-action 'none'",
        )
    )
    return page, policy


@bp.get("/lab/sandbox")
def sandbox():
    """Serve the frame a student's code runs in."""
    page, policy = frame(current_app.static_folder)
    response = Response(page, mimetype="text/html")
    response.headers["Content-Security-Policy"] = policy
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/lab/python.json")
def python():
    """Serve the lab's Python; kept by the browser for good under its content's name."""
    body, digest = python_sources()
    if request.args.get("v") != digest:
        abort(404)
    response = Response(body, mimetype="application/json")
    response.cache_control.public = True
    response.cache_control.max_age = 365 * 24 * 3600
    response.cache_control.immutable = True
    return response
