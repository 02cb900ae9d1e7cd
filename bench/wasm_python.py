"""Benchmark Python in WebAssembly against this machine's CPython, with no browser and no page:
the code lab's own Python (server/codelab, server/engine) run by Pyodide under Node and by CPython
in this process, in the same run, piece by piece.

What the code lab's speed can reach is bounded by what Pyodide's interpreter gives: this tells
whether a gap the lab shows (bench/codelab.py) is the page's and the worker's or Pyodide's own.
"""

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

from common import ROOT
from lab_cases import EVENTS, GENERATOR, NAIVE

from server.pages.codelab import python_sources

NODE_MODULES = ROOT / "node_modules"

# Each measure as Python, run alike in both: seconds, the best of `runs`.
MEASURES = """
import time
from server.codelab.runner import Run, backtrack, define, visit
from server.codelab.trace import Trace


def best(runs, measure):
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        measure()
        times.append(time.perf_counter() - began)
    return min(times)


def lab(code, reference=True):
    def run():
        go = Run(code, 6, 6, 0, "naive")
        if not reference:
            go.reference.check = go.reference.finish = lambda *args: None
        assert go.go(lambda codes, lines: 4096, 4096)["events"] == EVENTS
    return run


def bare(code):
    names = {"visit": visit, "backtrack": backtrack}
    exec(code, names)

    def run():
        count = 0
        for _ in names["main"](6, 6, 0):
            count += 1
        assert count == EVENTS - 1  # every event but the tour found, which the lab adds
    return run


def book_bare(code):
    main = define(code)  # the lab's Graph and Vertex, whose colour changes go nowhere

    def run():
        assert main(6, 6, 0) is True
    return run


def checks(code):
    names = {"visit": visit, "backtrack": backtrack}
    exec(code, names)
    events = list(names["main"](6, 6, 0))

    def run():
        trace = Trace(6, 6, 0)
        trace.batch = 4096
        heard = trace.hearer(trace.take)
        for kind, square in events:
            heard(kind, square)
    return run


def measure(runs):
    return {
        "generator, bare": best(runs, bare(GENERATOR)),
        "the lab's checks alone, over its events": best(runs, checks(GENERATOR)),
        "generator, the lab's runner without the reference": best(runs, lab(GENERATOR, False)),
        "generator, the lab's runner": best(runs, lab(GENERATOR)),
        "book's code, bare (its colour changes heard by nobody)": best(runs, book_bare(NAIVE)),
        "book's code, the lab's runner without the reference": best(runs, lab(NAIVE, False)),
        "book's code, the lab's runner": best(runs, lab(NAIVE)),
    }
"""

NODE = """
import { loadPyodide } from "%(pyodide)s";
import fs from "node:fs";
const { sources, prelude, runs } = JSON.parse(fs.readFileSync(0, "utf8"));
const py = await loadPyodide();
for (const [path, source] of Object.entries(sources)) {
  py.FS.mkdirTree("/home/pyodide/" + path.split("/").slice(0, -1).join("/"));
  py.FS.writeFile("/home/pyodide/" + path, source);
}
py.runPython("import sys; sys.path.insert(0, '/home/pyodide')");
py.runPython(prelude);
console.log(py.runPython(`import json; json.dumps(measure(${runs}))`));
"""


def prelude():
    """Return the measures' Python, with the lab's cases (bench/codelab.py's) written in."""
    return f"EVENTS = {EVENTS}\nGENERATOR = {GENERATOR!r}\nNAIVE = {NAIVE!r}\n{MEASURES}"


def in_cpython(runs):
    names = {}
    exec(prelude(), names)
    return names["measure"](runs)


def in_pyodide(runs):
    script = NODE % {"pyodide": (NODE_MODULES / "pyodide" / "pyodide.mjs").as_uri()}
    given = json.dumps({"sources": json.loads(python_sources()[0]), "prelude": prelude(), "runs": runs})
    done = subprocess.run(
        ["node", "--input-type=module", "-e", script], input=given, capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3, help="runs of each measure, best kept (default 3)")
    args = parser.parse_args(argv)
    if not (NODE_MODULES / "pyodide").exists():
        print("Pyodide not installed: run `make setup-dev`", file=sys.stderr)
        return 2
    version = json.loads(Path(NODE_MODULES / "pyodide" / "package.json").read_text())["version"]
    print(
        f"6x6 naive from square 0, {EVENTS:,} events; Pyodide {version} under Node against CPython "
        f"{sys.version.split()[0]}, best of {args.runs}, in turns"
    )
    began = time.perf_counter()
    wasm, native = in_pyodide(args.runs), in_cpython(args.runs)
    print(f"\n  {'measure':<56} {'Pyodide s':>10} {'CPython s':>10} {'ratio':>7}")
    for name, seconds in native.items():
        print(f"  {name:<56} {wasm[name]:>10.3f} {seconds:>10.3f} {seconds / wasm[name]:>6.2f}x")
    print(
        f"\n(ratio: CPython's seconds over Pyodide's; 1x is par. {time.perf_counter() - began:.0f} s in all)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
