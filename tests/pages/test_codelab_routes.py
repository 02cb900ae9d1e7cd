"""The code lab's routes: the sandbox's frame and its policy, the lab's Python, and Pyodide's files,
each named by its content, gzipped where a browser takes it."""

import base64
import gzip
import hashlib
import re
from pathlib import Path

from server.codelab.exercises import BOOK, EXERCISES
from server.pages.codelab import PYODIDE
from tests.support.page import limits

SERVER = Path(__file__).resolve().parents[2] / "server"


def lab_limits(client):
    return limits(client)["lab"]


def test_the_sandbox_allows_no_connection_and_runs_only_its_own_script(app):
    response = app.test_client().get("/lab/sandbox")
    policy = dict(part.split(" ", 1) for part in response.headers["Content-Security-Policy"].split("; "))
    assert (
        policy["default-src"] == "'none'"
        and policy["connect-src"] == "blob:"
        and policy["worker-src"] == "blob:"
    )
    assert policy["frame-ancestors"] == "'self'" and "X-Frame-Options" not in response.headers
    # The one script is the frame's own, inline, allowed by its hash: nothing from anywhere else.
    script = re.search(r"<script>(.*)</script>", response.get_data(as_text=True), re.S).group(1)
    digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
    assert policy["script-src"] == f"'sha256-{digest}' blob: 'wasm-unsafe-eval'"
    assert "'unsafe-eval'" not in policy["script-src"] and "'self'" not in policy["script-src"]


def test_every_other_page_still_refuses_to_be_framed(app):
    response = app.test_client().get("/")
    assert response.headers["Content-Security-Policy"] == "frame-ancestors 'none'"


def test_the_lab_runs_the_servers_own_engine_and_is_kept_under_its_contents_name(app):
    client = app.test_client()
    urls = lab_limits(client)["urls"]
    response = client.get(urls["python"])
    assert response.cache_control.immutable and response.cache_control.max_age == 365 * 24 * 3600
    sources = response.get_json()
    for package in ("engine", "codelab"):
        for path in (SERVER / package).glob("*.py"):
            assert sources[f"server/{package}/{path.name}"] == path.read_text()
    assert client.get(urls["python"].replace("?v=", "?v=0")).status_code == 404


def test_pyodides_files_are_named_by_their_content_and_gzipped_for_a_browser_that_takes_it(app):
    client = app.test_client()
    urls = lab_limits(client)["urls"]["pyodide"]
    assert set(urls) == set(PYODIDE)
    plain = client.get(urls["pyodide.asm.wasm"])
    packed = client.get(urls["pyodide.asm.wasm"], headers={"Accept-Encoding": "gzip, deflate, br"})
    assert plain.headers.get("Content-Encoding") is None and packed.headers["Content-Encoding"] == "gzip"
    assert (
        packed.headers["Content-Type"] == "application/wasm" and "Accept-Encoding" in packed.headers["Vary"]
    )
    assert gzip.decompress(packed.data) == plain.data and len(packed.data) < len(plain.data) / 2
    assert packed.cache_control.immutable
    # The standard library is a zip already: sent as it is.
    stdlib = client.get(urls["python_stdlib.zip"], headers={"Accept-Encoding": "gzip"})
    assert stdlib.headers.get("Content-Encoding") is None
    assert client.get("/vendor/pyodide/package.json").status_code == 404


def test_the_page_names_each_exercise_with_its_starting_code_and_the_page_loads_no_python(app):
    client = app.test_client()
    given = lab_limits(client)
    assert [each["id"] for each in given["exercises"]] == [each["id"] for each in EXERCISES]
    assert given["code"] == BOOK  # where every exercise starts, given once
    html = client.get("/").get_data(as_text=True)
    # Named in the page's limits for the lab to load, but no tag of the page loads any of it.
    assert not re.search(r"<(script|link)[^>]+(pyodide|/lab/)", html)
