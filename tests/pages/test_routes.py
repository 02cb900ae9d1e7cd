"""The page's routes: the page with the server's own options, class links' QR codes, the Socket.IO client."""

import gzip
import hashlib
import json
import re
from pathlib import Path

from server.classes.mirror import MAX_LABEL, MAX_MARKS
from server.classes.questions.checks import MAX_SERIES
from server.classes.registry import classes
from server.classes.sessions import CODE_ALPHABET, CODE_LENGTH
from server.classes.tournament.checks import MAX_NAME
from server.engine import ORDERINGS
from server.engine.orderings import MAX_KEYS
from server.pages import QR_MAX_AGE
from server.wire import DEFAULT_SPEED, MAX_BUDGET, MAX_SEED, MAX_SIDE, SPEED_STEPS
from tests.support.page import limits
from tests.support.qr import encodes

STATIC = Path(__file__).resolve().parents[2] / "static"


def field(html, element_id, attribute):
    """Return an attribute of the element with an id in the page."""
    tag = re.search(rf'<[^>]*\bid="{element_id}"[^>]*>', html).group(0)
    return re.search(rf'\b{attribute}="([^"]*)"', tag).group(1)


def test_the_page_takes_its_options_and_limits_from_the_server(app):
    html = app.test_client().get("/").get_data(as_text=True)
    select = re.search(r'<select id="order".*?</select>', html, re.S).group(0)
    assert re.findall(r'<option value="([^"]+)"', select) == list(ORDERINGS)
    steps = [int(step) for step in field(html, "speed", "data-steps").split(",")]
    assert steps == list(SPEED_STEPS)
    assert int(field(html, "speed", "max")) == len(SPEED_STEPS) - 1
    assert steps[int(field(html, "speed", "value"))] == DEFAULT_SPEED
    assert int(field(html, "rows", "max")) == int(field(html, "cols", "max")) == MAX_SIDE
    assert int(field(html, "seed", "max")) == MAX_SEED
    assert int(field(html, "budget", "max")) == MAX_BUDGET


def test_page_is_served_with_its_controls(app):
    page = app.test_client().get("/")
    assert page.status_code == 200
    for label in (b'for="rows"', b'for="cols"', b'for="order"', b'for="speed"', b'role="status"'):
        assert label in page.data


def test_the_page_libraries_are_served_locally(app):
    client = app.test_client()
    response = client.get("/vendor/socket.io/socket.io.esm.min.js")
    assert response.status_code == 200
    assert b"io" in response.data and len(response.data) > 10_000
    response = client.get("/vendor/gifenc/gifenc.esm.js")
    assert response.status_code == 200
    assert b"GIFEncoder" in response.data
    response = client.get("/vendor/mediabunny/mediabunny.min.mjs")
    assert response.status_code == 200
    # A browser runs an imported module only if it is served as JavaScript.
    assert response.mimetype in ("text/javascript", "application/javascript"), response.mimetype
    assert b"CanvasSource" in response.data and b"BufferTarget" in response.data
    # Only the bundle the page imports, not the package's other builds.
    assert client.get("/vendor/mediabunny/mediabunny.cjs").status_code == 404
    # Only the packages the page loads: no other file under node_modules.
    assert client.get("/vendor/socket.io-client/package.json").status_code == 404
    assert client.get("/vendor/socket.io/../package.json").status_code == 404


def test_the_page_is_given_every_bound_from_the_server_s_own_constants(app):
    client = app.test_client()
    given = limits(client)
    assert (given["maxSide"], given["maxSeed"], given["maxBudget"]) == (MAX_SIDE, MAX_SEED, MAX_BUDGET)
    assert given["speeds"] == list(SPEED_STEPS) and given["defaultSpeed"] == DEFAULT_SPEED
    assert given["orders"] == list(ORDERINGS)
    # A class's: its bookmarks (how many, how long a label), questions in a series, and its codes.
    assert (given["maxMarks"], given["maxLabel"], given["maxSeries"]) == (MAX_MARKS, MAX_LABEL, MAX_SERIES)
    assert given["classCode"] == {"alphabet": CODE_ALPHABET, "length": CODE_LENGTH}
    # An ordering's: its keys, and the letters of its name (and of a nickname).
    assert (given["maxKeys"], given["maxOrderName"]) == (MAX_KEYS, MAX_NAME)
    # The fields that take them are bounded by the same values.
    html = client.get("/").get_data(as_text=True)
    assert int(field(html, "mark-label", "maxlength")) == MAX_LABEL
    assert int(field(html, "class-code", "maxlength")) == CODE_LENGTH
    assert int(field(html, "poll-series", "max")) == MAX_SERIES
    for name in ("composer-name", "tournament-name"):
        assert int(field(html, name, "maxlength")) == MAX_NAME


def test_the_page_is_given_the_address_students_join_at(app):
    client = app.test_client()
    assert limits(client)["joinBase"] is None  # no server option: the page's own address
    app.config["PUBLIC_URL"] = "http://198.51.100.7:5000"
    assert limits(client)["joinBase"] == "http://198.51.100.7:5000"


def test_a_class_qr_code_is_an_svg_of_its_link(app):
    client = app.test_client()
    code = "AB3XZQR"
    response = client.get(f"/class/{code}/qr.svg")
    assert response.status_code == 200
    assert response.mimetype == "image/svg+xml"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    svg = response.get_data(as_text=True)
    assert svg.startswith("<svg") and 'viewBox="0 0 ' in svg
    assert encodes(svg, f"http://localhost/?class={code}")
    assert not encodes(svg, "http://localhost/?class=AB3XYQR")
    app.config["PUBLIC_URL"] = "http://198.51.100.7:5000"
    assert encodes(
        client.get(f"/class/{code}/qr.svg").get_data(as_text=True), f"http://198.51.100.7:5000/?class={code}"
    )


def test_a_qr_code_is_kept_by_the_browser_and_revalidated_cheaply(app):
    client = app.test_client()
    first = client.get("/class/AB3XZQR/qr.svg")
    assert first.cache_control.public and first.cache_control.max_age == QR_MAX_AGE
    again = client.get("/class/AB3XZQR/qr.svg", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""
    other = client.get("/class/AB3XYQR/qr.svg", headers={"If-None-Match": first.headers["ETag"]})
    assert other.status_code == 200


def test_qr_codes_are_drawn_only_for_well_formed_codes(app):
    client = app.test_client()
    # Lower case, letters and digits codes never use (O, 0, I, 1), and the wrong length.
    for code in ("ab3xzqr", "AB3XOQR", "AB0XZQR", "AB1XZQR", "AB3XZQ", "AB3XZQRS", "AB%20XQR"):
        assert client.get(f"/class/{code}/qr.svg").status_code == 404, code
    assert client.get(f"/class/{CODE_ALPHABET[-CODE_LENGTH:]}/qr.svg").status_code == 200


def test_a_class_qr_code_carries_a_ticket_only_if_the_server_signed_it(app):
    client = app.test_client()
    ticket = classes(app).passes.ticket("AB3XZQR", "nonce123")
    svg = client.get(f"/class/AB3XZQR/qr.svg?ticket={ticket}").get_data(as_text=True)
    assert encodes(svg, f"http://localhost/?class=AB3XZQR&ticket={ticket}")
    # Another class's ticket, a forged one, or none at all where one is asked for: no picture.
    for bad in (classes(app).passes.ticket("AB3XYQR", "nonce123"), "nonce123." + "A" * 32, ""):
        assert client.get("/class/AB3XZQR/qr.svg", query_string={"ticket": bad}).status_code == 404, bad


def import_map(html):
    """Return the page's import map."""
    return json.loads(re.search(r'<script type="importmap">(.*?)</script>', html, re.S).group(1))


def test_each_of_the_pages_files_is_named_by_its_content_and_kept_by_browsers_for_a_year(app):
    client = app.test_client()
    html = client.get("/").get_data(as_text=True)
    imports = import_map(html)["imports"]
    # Every module the page has, and every library module it imports (by its plain URL).
    modules = {f"/static/{path.relative_to(STATIC).as_posix()}" for path in STATIC.rglob("*.js")}
    imported = set(re.findall(r'"(/vendor/[^"]+)"', "".join(p.read_text() for p in STATIC.rglob("*.js"))))
    assert imported and modules | imported <= set(imports), "a module the page loads is not named"
    named = [imports[path] for path in sorted(modules | imported)]
    named += re.findall(r'(?:href|src)="(/static/[^"]+\?v=[0-9a-f]+)"', html)  # the style
    assert "/static/css/app.css" in " ".join(named)
    for url in named:
        path, _, version = url.partition("?v=")
        response = client.get(url)
        assert response.status_code == 200, url
        assert hashlib.sha256(response.data).hexdigest().startswith(version), f"{url}: not its content"
        cache = response.cache_control
        assert cache.max_age == 365 * 24 * 3600 and cache.immutable and not cache.no_cache, url
        packed = client.get(url, headers={"Accept-Encoding": "gzip"})  # a small one comes as it is
        unpacked = gzip.decompress(packed.data) if packed.content_encoding else packed.data
        assert unpacked == response.data, url
        assert packed.content_encoding == "gzip" or len(response.data) < 1024 or url.endswith(".zip"), url
        # Its plain name, or a name of other content, is asked again every time, as before.
        for other in (path, f"{path}?v=000000000000"):
            again = client.get(other).cache_control
            assert again.max_age is None and not again.immutable and again.no_cache, other
    assert import_map(client.get("/embed").get_data(as_text=True)) == import_map(html)


def test_the_page_loads_its_modules_bundled_and_each_file_of_the_bundle_is_kept_for_a_year(app):
    client = app.test_client()
    html = client.get("/").get_data(as_text=True)
    entries = re.findall(r'<script type="module" src="([^"]+)"', html)
    assert len(entries) == 1 and re.fullmatch(r"/bundle/app-[A-Z0-9]{8}\.js", entries[0]), entries
    embed = client.get("/embed").get_data(as_text=True)
    assert re.findall(r'<script type="module" src="([^"]+)"', embed) == entries
    waiting, seen = list(entries), set()
    while waiting:  # the entry and every chunk it imports, by their names
        url = waiting.pop()
        seen.add(url)
        response = client.get(url)
        assert response.status_code == 200 and response.mimetype == "text/javascript", url
        cache = response.cache_control
        assert cache.max_age == 365 * 24 * 3600 and cache.immutable and not cache.no_cache, url
        assert response.headers.get("Content-Encoding") is None and "Accept-Encoding" in response.vary
        # A browser that takes gzip is given the same file gzipped, with the same name and life.
        packed = client.get(url, headers={"Accept-Encoding": "gzip, deflate, br, zstd"})
        assert packed.headers["Content-Encoding"] == "gzip" and packed.cache_control.immutable, url
        assert gzip.decompress(packed.data) == response.data and len(packed.data) < len(response.data), url
        for chunk in re.findall(r'from"(\./[^"]+)"|import\("(\./[^"]+)"\)', response.get_data(as_text=True)):
            name = str(Path(url).parent / (chunk[0] or chunk[1]).removeprefix("./"))
            if name not in seen:
                waiting.append(name)
    source = client.get(entries[0]).get_data(as_text=True)
    # The modules are in it (a word of the page's and a library import left to the import map).
    assert "Knight" in source and "/vendor/socket.io/socket.io.esm.min.js" in source
    # The code lab's run and sandbox are chunks of their own, loaded when the lab opens: the page
    # without the lab does not load them.
    lab = {Path(name).name for name in seen if re.search(r"/chunks/(lab-run|sandbox)-", name)}
    imported = {Path(name).name for name in re.findall(r'(?:from|import)"(\./[^"]+)"', source)}
    assert len(lab) == 2 and not lab & imported, (sorted(seen), sorted(imported))
    # The Chinese words are in the bundle as UTF-8, not as \u escapes twice their size.
    assert "\\u5468" not in source.lower() and "周游" in source
    assert client.get("/bundle/app-AAAAAAAA.js").status_code == 404
    assert client.get("/bundle/../server/__init__.py").status_code == 404
