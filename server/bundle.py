"""Bundle the page's modules into a few files with esbuild, each named by its content.

The page is some seventy modules. Loaded one by one, a first visit asked the worker that serves
the class for each of them, and the browser resolved, fetched and compiled each on its own: a
lecture hall's first loads were seventy-odd requests a student, and a page's load cost its
browser twice the CPU the bundle does. esbuild (an npm package, pinned like the page's
libraries) joins them into one file an entry, and a chunk for each part loaded only when used;
its names carry a hash of their content, so a browser keeps them for good.

A bundle is built once for a given content of the modules and kept in the instance folder,
where every process of the same checkout (a server's restart, the tests' workers) finds it, under
a digest of every module's content, of the entries and of esbuild's version and options.
"""

import functools
import hashlib
import json
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

ESBUILD = Path(__file__).resolve().parents[1] / "node_modules" / ".bin" / "esbuild"
# The page's libraries (served from /vendor/, named through the import map) stay out of the
# bundle: they change with their package, not with the page.
OPTIONS = (
    "--bundle",
    "--format=esm",
    "--splitting",  # a module only imported when used (import()) becomes a chunk of its own
    "--minify",
    "--charset=utf8",  # the Chinese words as UTF-8 (3 bytes a character), not \u escapes (6)
    "--sourcemap",
    "--external:/vendor/*",
    "--entry-names=[dir]/[name]-[hash]",
    "--chunk-names=chunks/[name]-[hash]",
    "--log-level=warning",
)
KEEP_OLD = 24 * 3600  # seconds a bundle of other content is kept, for a server still serving it
_built = {}  # key -> Bundle, for the apps one process makes


class BundleError(RuntimeError):
    """The page's modules could not be bundled (esbuild missing, or a module that does not parse)."""


class Bundle:
    """A built bundle: its folder, its files, and the file each entry became."""

    def __init__(self, folder, entries):
        self.folder = Path(folder)
        self.entries = entries  # entry's path under the modules' folder -> its file in folder
        self.files = {p.relative_to(self.folder).as_posix() for p in self.folder.rglob("*") if p.is_file()}


@functools.cache
def version():
    """Return esbuild's version, or raise BundleError if it is not installed."""
    try:
        asked = subprocess.run([ESBUILD, "--version"], capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError) as missing:
        raise BundleError(f"esbuild is not installed ({missing}): run `make run` or `npm ci`") from missing
    return asked.stdout.strip()


def build(source, entries, cache, contents):
    """Return the bundle of entries (paths under source, the modules' folder), built in cache
    unless a bundle of the same contents (each module's path and digest) is there already."""
    source, cache = Path(source), Path(cache)
    facts = json.dumps([version(), OPTIONS, entries, sorted(contents)])
    name = hashlib.sha256(facts.encode()).hexdigest()[:16]
    if name in _built:
        return _built[name]
    folder = cache / name
    if not (folder / "meta.json").is_file():
        cache.mkdir(parents=True, exist_ok=True)
        _esbuild(source, entries, folder)
        _prune(cache, name)
    meta = json.loads((folder / "meta.json").read_text())
    _built[name] = Bundle(folder, meta)
    return _built[name]


def _esbuild(source, entries, folder):
    """Build entries into folder, whole or not at all: another process may build the same at once."""
    making = Path(tempfile.mkdtemp(prefix=f"{folder.name}.", dir=folder.parent))
    try:
        meta = making / "esbuild-meta.json"
        command = [ESBUILD, *(str(source / entry) for entry in entries), *OPTIONS]
        command += [f"--outdir={making}", f"--outbase={source}", f"--metafile={meta}"]
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            raise BundleError(f"esbuild could not bundle the page's modules:\n{done.stderr}")
        outputs = json.loads(meta.read_text())["outputs"]
        meta.unlink()
        made = {}
        for output, facts in outputs.items():
            if "entryPoint" in facts:
                entry = Path(facts["entryPoint"]).resolve().relative_to(source.resolve()).as_posix()
                made[entry] = Path(output).resolve().relative_to(making.resolve()).as_posix()
        (making / "meta.json").write_text(json.dumps(made))
        try:
            making.rename(folder)
        except OSError:  # built meanwhile by another process: theirs is the same
            if not (folder / "meta.json").is_file():
                raise
    finally:
        shutil.rmtree(making, ignore_errors=True)


def _prune(cache, kept):
    """Remove bundles of other content made more than KEEP_OLD seconds ago."""
    for other in cache.iterdir():
        if other.name != kept and other.is_dir():
            try:
                old = time.time() - other.stat().st_mtime > KEEP_OLD
            except OSError:
                continue
            if old:
                shutil.rmtree(other, ignore_errors=True)
