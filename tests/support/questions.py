"""What browser tests of class questions ask of the server and of a page."""

import csv
import io

from server.classes.questions.slot import book
from server.classes.registry import classes


def next_square(site):
    """Return the square the class's run moves to next, as the server's engine says."""
    (klass,) = [k for k in classes(site.app).shared()[0]]
    upcoming = klass.main.player.upcoming()
    kind, vertex, _ = upcoming["next"]
    return vertex if kind == "visit" else upcoming["path"][-2]


def free_squares(page):
    """Return the squares off the path on a page's board."""
    return page.evaluate("() => [...knightsTour.model.numbers].flatMap((n, s) => (n ? [] : [s]))")


def open_answer(site):
    """Return the right answer of the class's open question, as the server keeps it."""
    (klass,) = [k for k in classes(site.app).shared()[0]]
    return book(klass).open.answer


def results_csv(page):
    """Press Results as CSV on an instructor's page; return the downloaded rows, by column."""
    with page.expect_download() as download:
        page.get_by_role("button", name="Results as CSV").click()
    with open(download.value.path(), encoding="utf-8") as saved:
        return list(csv.DictReader(io.StringIO(saved.read())))
