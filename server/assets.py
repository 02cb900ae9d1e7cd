"""Name the page's files by their content, so that a browser keeps them until they change.

A page's files (its modules' bundle, its style, its libraries), asked for by their plain names,
would each be asked again at every load of the page, if only to hear that it has not changed: a
request a file at every reload, each a turn of the worker that serves the class. The page's
template names each by its path and a digest of its content (`?v=`), through an import map for
the modules' imports of the libraries, and an answer to such a name may be kept for a year: a
reload then asks for the page and nothing else, and a changed file has a new name. The modules
a page loads are bundled (bundle.py), into files whose names carry their content's hash.
"""

import hashlib
from pathlib import Path
from urllib.parse import parse_qs

from flask import abort, request, send_from_directory

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
        return send_from_directory(self._bundle.folder, name)

    def import_map(self):
        """Return the page's import map: every module's plain URL to its named one."""
        return {"imports": {path: self.versioned(path) for path in self.digests if path.endswith(MODULES)}}

    def init_app(self, app):
        """Let browsers keep an answer to a file named by its current content."""
        app.jinja_env.globals.update(asset=self.url, import_map=self.import_map())
        if self._bundle is not None:
            app.add_url_rule(f"{self._bundle_url}/<path:name>", "bundled", self._serve_bundled)

        @app.after_request
        def keep_named(response):
            if response.status_code in (200, 304) and self.named(request.environ):
                response.cache_control.no_cache = None  # send_file's default, for unnamed files
                response.cache_control.public = True
                response.cache_control.max_age = KEEP
                response.cache_control.immutable = True
            return response
