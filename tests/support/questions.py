"""What browser tests of class questions ask of the server and of a page."""

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
    return klass.polls.open.answer
