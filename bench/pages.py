"""Helpers shared by the benchmarks that drive the page in Chromium (stream.py, tree.py): the
app served by a process of its own, a page opened with its timing hook, and the summary's words."""

import contextlib
import os
import subprocess
import sys

import common  # noqa: F401  (puts the project on the import path)

from tests.support.page import READY
from tests.support.servers import stop_processes

# Serves the app of the tree given as argv[1] (its own server code, page and test support) on a
# free port, prints its address and serves until its standard input closes: the page of each
# commit is served the same way, each by a process of its own, as the browser is.
SERVE = """
import logging, sys
sys.path.insert(0, sys.argv[1])
from server import create_app
from tests.support.servers import LiveServer
logging.getLogger("werkzeug").setLevel(logging.ERROR)
server = LiveServer(create_app())
print(server.url, flush=True)
sys.stdin.read()
server.close()
"""

# Installed once per page: times Play clicks, the first frame after the first visit, and
# the moment the status says "Tour found". A MutationObserver stamps the status change
# when it happens, where polling would round it up to the next frame.
HOOK = """() => {
  const bench = window.__bench = { clickAt: null, firstVisitAt: null, foundAt: null };
  const status = document.getElementById('status');
  document.getElementById('play').addEventListener('click', () => {
    bench.clickAt = performance.now();
    bench.firstVisitAt = null;
    bench.foundAt = null;
    const frame = () => {
      if (window.knightsTour.model.visits >= 1) bench.firstVisitAt = performance.now();
      else requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  }, { capture: true });
  new MutationObserver(() => {
    if (bench.clickAt !== null && bench.foundAt === null
        && status.textContent.includes('Tour found')) bench.foundAt = performance.now();
  }).observe(status, { childList: true, characterData: true, subtree: true });
}"""
READ = """() => {
  const m = window.knightsTour.model;
  return { ...window.__bench, events: m.events, visits: m.visits, backtracks: m.backtracks,
           tours: m.tours, status: document.getElementById('status').textContent };
}"""


def open_page(browser, url, problems):
    """Open the app in a browser context of its own, wait until Play is enabled, install the timing hook."""
    page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    page.on("pageerror", lambda exc: problems.append(str(exc)))
    page.on("console", lambda msg: msg.type == "error" and problems.append(msg.text))
    page.goto(url)
    page.wait_for_function(READY)
    page.evaluate(HOOK)
    return page


def reset(page):
    """Press Reset and wait until the page is idle again."""
    page.get_by_role("button", name="Reset").click()
    page.wait_for_function("window.knightsTour.state === 'idle'")


def verdict(ok):
    """Word a goal's outcome."""
    return "met" if ok else "NOT met"


class Served:
    """The app of a tree (this one, or a worktree of another commit), served by a process of its own."""

    def __init__(self, root):
        self.process = subprocess.Popen(
            [sys.executable, "-c", SERVE, str(root)],
            cwd=root,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        ON_TERM.append(self.close)
        self.url = self.process.stdout.readline().strip()
        if not self.url.startswith("http://"):
            self.close()
            raise RuntimeError(f"the server of {root} did not start")

    def close(self):
        """Stop serving: close the server's input, and stop it if it lingers."""
        with contextlib.suppress(OSError):
            self.process.stdin.close()
        try:
            self.process.wait(5)
        except subprocess.TimeoutExpired:
            stop_processes([self.process])


# What a termination must still undo (servers, the worktree): an exception raised inside a
# Playwright call would leave the run hanging, so the handler undoes these itself and exits.
ON_TERM = []


def stop_on_term(signum, frame):
    """Undo what ON_TERM holds, newest first, and exit (a time limit's termination)."""
    for undo in reversed(ON_TERM):
        with contextlib.suppress(Exception):
            undo()
    os._exit(128 + signum)


def spread(values):
    """Write the lowest and highest of values (ratios) as a range."""
    return f"{min(values):.2f}x-{max(values):.2f}x"
