"""Name the page's files by their content, so that a browser keeps them until they change.

A page's files (its modules' bundle, its style, its libraries), asked for by their plain names,
would each be asked again at every load of the page, if only to hear that it has not changed: a
request a file at every reload, each a turn of the worker that serves the class. The page's
template names each by its path and a digest of its content (`?v=`), through an import map for
the modules' imports of the libraries, and an answer to such a name may be kept for a year: a
reload then asks for the page and nothing else, and a changed file has a new name. The modules
a page loads are bundled (bundle.py), into files whose names carry their content's hash.
"""

import gzip
import hashlib
import mimetypes
import os
import shutil
import time
from pathlib import Path
from urllib.parse import parse_qs

from flask import abort, current_app, request, send_file, send_from_directory
from werkzeug.security import safe_join

from . import bundle

KEEP = 365 * 24 * 3600  # seconds a browser keeps a file named by its content
DIGEST = 12  # hex digits of the digest in a file's name: a collision would need 2**24 versions
# What pages load (Pyodide's WebAssembly, standard library and lock file among them); source maps
# and the like stay unnamed.
KINDS = (".js", ".mjs", ".css", ".wasm", ".zip", ".json")
MODULES = (".js", ".mjs")  # what an import map names


def digest(path):
    """Return the first DIGEST hex digits of a file's SHA-256."""
    return hashlib.sha256(path.read_bytes()).hexdigest()[:DIGEST]


# What a browser takes gzipped, where a hall's Wi-Fi carries each student's copy: the bundle
# shrinks to a third, Pyodide's WebAssembly from 9.6 MB to 3.6 MB (its standard library, a zip,
# and the images are packed already).
PACKED = (".js", ".mjs", ".css", ".wasm", ".json")
SMALL = 1024  # bytes under which gzip saves less than the header it costs
STALE = 24 * 3600  # seconds after which a gzipped copy is made again if still asked for


def gzipped(path, cache):
    """Return the path of a gzipped copy of the file at path, made once into cache (named by the
    file's path, size and time, so a changed file gets a new copy), or None for a file not packed."""
    path = Path(path)
    stat = path.stat()
    if path.suffix not in PACKED or stat.st_size < SMALL:
        return None
    key = hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:DIGEST]
    made = Path(cache) / f"{path.name}.{key}.{stat.st_size}.{stat.st_mtime_ns}.gz"
    if not made.exists():
        made.parent.mkdir(parents=True, exist_ok=True)
        partial = made.with_name(f"{made.name}.{os.getpid()}.part")
        with path.open("rb") as raw, gzip.open(partial, "wb", compresslevel=6) as out:
            shutil.copyfileobj(raw, out)
        partial.replace(made)  # whole or not at all: another process may be making it too
        _prune(Path(cache), made, f"{path.name}.{key}.")
    return made


def _prune(cache, kept, mine):
    """Remove the copies of the file's earlier content (their names begin with mine), and those a
    day old (of a bundle since replaced, say; one still served is made again when next asked)."""
    for other in cache.iterdir():
        try:
            earlier = other.name.startswith(mine) and other.suffix == ".gz"  # not one being made
            if other != kept and (earlier or time.time() - other.stat().st_mtime > STALE):
                other.unlink()
        except OSError:
            continue  # removed meanwhile by another process


def send_packed(folder, name):
    """Serve folder/name, gzipped (a copy made once) to a browser that takes gzip."""
    path = safe_join(folder, name)
    packed = path and os.path.isfile(path) and "gzip" in request.headers.get("Accept-Encoding", "")
    packed = packed and gzipped(path, Path(current_app.instance_path) / "gzip")
    if not packed:
        response = send_from_directory(folder, name)
    else:
        mimetype = mimetypes.guess_type(name)[0] or "application/octet-stream"
        response = send_file(packed, mimetype=mimetype, conditional=True, etag=False)
        response.headers["Content-Encoding"] = "gzip"
    response.vary.add("Accept-Encoding")  # a cache between must not give the gzipped copy to another
    return response


class Assets:
    """The page's files, each with the digest of its content, read once when the app is made."""

    def __init__(self, folders):
        """Take {URL prefix: (folder, names or None for every file of KINDS in it, nested)}."""
        self.digests = {}
        self.bundled = {}  # an entry module's plain URL -> the URL of the file it was bundled into
        self._bundle = self._bundle_url = None
        for prefix, (folder, names) in folders.items():
            folder = Path(folder)
            if not folder.is_dir():
                continue  # a library not installed: its route says so, its files stay unnamed
            files = [folder / name for name in names] if names else folder.rglob("*")
            for path in files:
                if path.is_file() and path.suffix in KINDS:
                    self.digests[f"{prefix}/{path.relative_to(folder).as_posix()}"] = digest(path)

    def bundle(self, url, modules, prefix, entries, cache):
        """Bundle the entries (paths under modules, the folder served at prefix) into cache, and
        serve the bundle's files at url: a page that loads an entry's plain URL loads its bundle."""
        contents = [(path, digest) for path, digest in self.digests.items() if path.startswith(f"{prefix}/")]
        self._bundle, self._bundle_url = bundle.build(modules, list(entries), cache, contents), url
        self.bundled = {f"{prefix}/{entry}": f"{url}/{made}" for entry, made in self._bundle.entries.items()}

    def url(self, path):
        """Return a file's URL named by its content (its plain URL if it is not one of the page's):
        an entry module's, that of its bundle."""
        return self.bundled.get(path) or self.versioned(path)

    def versioned(self, path):
        """Return a file's URL named by the digest of its content (`?v=`), if it is one of the page's."""
        version = self.digests.get(path)
        return path if version is None else f"{path}?v={version}"

    def named(self, environ):
        """Tell whether a request asks for one of the page's files by its current content's name."""
        path = environ.get("PATH_INFO", "")
        if self._bundle is not None and path.startswith(f"{self._bundle_url}/"):
            return path.removeprefix(f"{self._bundle_url}/") in self._bundle.files
        version = self.digests.get(path)
        return version is not None and parse_qs(environ.get("QUERY_STRING", "")).get("v") == [version]

    def _serve_bundled(self, name):
        """Serve a file of the bundle."""
        if name not in self._bundle.files:
            abort(404)
        return send_packed(self._bundle.folder, name)

    def import_map(self):
        """Return the page's import map: every module's plain URL to its named one."""
        return {"imports": {path: self.versioned(path) for path in self.digests if path.endswith(MODULES)}}

    def init_app(self, app):
        """Let browsers keep an answer to a file named by its current content."""
        app.jinja_env.globals.update(asset=self.url, import_map=self.import_map())
        if self._bundle is not None:
            app.add_url_rule(f"{self._bundle_url}/<path:name>", "bundled", self._serve_bundled)
        if app.has_static_folder:  # its style and the modules a page loads on their own
            app.view_functions["static"] = lambda filename: send_packed(app.static_folder, filename)

        @app.after_request
        def keep_named(response):
            if response.status_code in (200, 304) and self.named(request.environ):
                response.cache_control.no_cache = None  # send_file's default, for unnamed files
                response.cache_control.public = True
                response.cache_control.max_age = KEEP
                response.cache_control.immutable = True
            return response
