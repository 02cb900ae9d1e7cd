"""Benchmark a sheet of students' seats: what printing one costs the worker that streams the class,
against a page load of the same server in the same run, and how long its browser takes to draw it.

    python bench/sheet.py [--seats 1000] [--against DIR]

With --against, the same is measured of the checkout in DIR (another commit's, set up with
`make setup`), in turns with this one.
"""

import argparse
import re
import sys
import time
from pathlib import Path

import requests
from common import ROOT
from playwright.sync_api import sync_playwright
from processes import ServerProcess, cpu_seconds

from tests.support.browser import CHROMIUM, FLAGS

PAGES = 50  # page loads measured, for the peer figure


def instructor(server):
    """Return a requests session holding the instructor key that the server printed."""
    printed = re.search(r"Instructors: .* enter the key (\S+)", server.log_text())
    if printed is None:
        raise SystemExit("the server printed no instructor's key")
    session = requests.Session()
    session.post(server.url + "/instructor", data={"key": printed[1]}, timeout=10).raise_for_status()
    return session


def worker_seconds(server, ask, times):
    """Return the worker's CPU seconds for each of times calls of ask()."""
    worker = server.worker()
    before = cpu_seconds(worker)
    for _ in range(times):
        ask()
    return (cpu_seconds(worker) - before) / times


def measure(root, seats, browser):
    """Return (worker s a sheet, worker s a page, browser s to show the sheet with its codes)."""
    server = ServerProcess("production", 0, 500, root=root)
    try:
        server.wait_ready()
        teacher = instructor(server)
        made = teacher.get(
            server.url + "/roster/new", params={"seats": seats}, allow_redirects=False, timeout=10
        )
        where = server.url + made.headers["Location"]
        sheet = worker_seconds(server, lambda: teacher.get(where, timeout=120).raise_for_status(), 3)
        page = worker_seconds(
            server, lambda: teacher.get(server.url + "/", timeout=10).raise_for_status(), PAGES
        )
        context = browser.new_context()
        try:
            cookies = [{"name": c.name, "value": c.value, "url": server.url} for c in teacher.cookies]
            context.add_cookies(cookies)
            tab = context.new_page()
            began = time.perf_counter()
            tab.goto(where, timeout=120_000)
            tab.locator(".seat-card svg").nth(seats - 1).wait_for(timeout=120_000)
            shown = time.perf_counter() - began
        finally:
            context.close()
        return sheet, page, shown
    finally:
        server.close()


def main(argv=None):
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seats", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=2, help="turns of each checkout (default 2)")
    parser.add_argument("--against", type=Path, help="another checkout, measured in turns with this one")
    args = parser.parse_args(argv)
    roots = [("this", ROOT)] + ([("against", args.against.resolve())] if args.against else [])
    figures = {name: [] for name, _ in roots}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        for _ in range(args.runs):
            for name, root in roots:
                figures[name].append(measure(root, args.seats, browser))
        browser.close()
    print(f"a sheet of {args.seats} seats, {args.runs} runs each (best):")
    print(f"{'checkout':<10} {'worker a sheet':>14} {'a page':>8} {'ratio':>7} {'browser shows it':>16}")
    for name, root in roots:
        sheet, page, shown = (min(run[i] for run in figures[name]) for i in range(3))
        ratio = sheet / page
        print(f"{name:<10} {sheet * 1000:>11.0f} ms {page * 1000:>5.1f} ms {ratio:>6.0f}x {shown:>14.2f} s")
        print(f"  ({root})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
