"""The browser the tests and benchmarks drive: Debian's Chromium, headless, through Playwright.

Its headless shell (Debian's `chromium-headless-shell`, the browser Playwright itself runs headless):
the same Blink and V8 as `chromium`, without the browser's own windows, whose address bar alone
cost a new browser context as much CPU as the page it loads.
"""

import os

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium-headless-shell")
# Without the background-networking flags Chromium keeps trying to reach Google's hosts.
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
