"""What an instructor's page shows, for its class to mirror: checked before it reaches the room.

The page sends its whole view at each change: the settings (as the query of its link), the run
it shows (None: none, an empty board), the event it shows when stepped back (None: the latest),
its panels, the moments it has bookmarked, and its search tree's chosen node and zoom.
Students' pages check the link again as they check any link.
"""

from ..wire import MAX_BUDGET, shown
from .sessions import Slot

MAX_LINK = 400  # characters; a page's link query is under 200
MAX_MARKS = 30
MAX_LABEL = 60
PANELS = {"lesson": bool, "lines": bool, "hints": bool, "degrees": bool, "side": str}
SIDES = ("main", "second")
NAME = "view"  # the slot's name in a class


class Mirror(Slot):
    """What the instructor's page shows, for the room to mirror, and the last run it named in a view."""

    def __init__(self, klass):
        self.view = None
        self.run = None

    def welcome(self):
        return {"view": self.view}


def mirror(klass):
    """Return a class's Mirror."""
    return klass.slots[NAME]


def _event(name, value):
    if type(value) is not int or not 0 <= value <= MAX_BUDGET:
        raise ValueError(f"{name} must be an event number from 0 to {MAX_BUDGET}, not {shown(value)}")
    return value


def _mark(mark):
    if not isinstance(mark, dict) or set(mark) != {"at", "label"}:
        raise ValueError(f"a bookmark is an object with at and label, not {shown(mark)}")
    label = mark["label"]
    if not isinstance(label, str) or not 0 < len(label.strip()) <= MAX_LABEL:
        raise ValueError(
            f"a bookmark's label must be text of 1 to {MAX_LABEL} characters, not {shown(label)}"
        )
    return {"at": _event("a bookmark's event", mark["at"]), "label": label.strip()}


def _tree(tree):
    """Return the tree's part of a view: the node chosen (None: none) and the nodes zoomed to
    (None: all of them)."""
    if not isinstance(tree, dict) or set(tree) != {"node", "span"}:
        raise ValueError(f"tree must be an object with node and span, not {shown(tree)}")
    node, span = tree["node"], tree["span"]
    if node is not None:
        _event("tree.node", node)  # a node is a visit: never more of them than events
    if span is not None:
        if (
            not (isinstance(span, dict) and set(span) == {"from", "to", "live"})
            or type(span["live"]) is not bool
        ):
            raise ValueError(f"tree.span must be an object with from, to and live, not {shown(span)}")
        if _event("tree.span.from", span["from"]) >= _event("tree.span.to", span["to"]):
            raise ValueError("tree.span.from must come before tree.span.to")
        span = dict(span)
    return {"node": node, "span": span}


def check_view(data):
    """Return an instructor's view as the room gets it, or raise ValueError saying what is wrong."""
    if not isinstance(data, dict) or set(data) != {"link", "run", "at", "panels", "marks", "tree"}:
        raise ValueError("'class_view' needs an object with link, run, at, panels, marks and tree")
    link, run, at, panels, marks = (data[key] for key in ("link", "run", "at", "panels", "marks"))
    if not isinstance(link, str) or len(link) > MAX_LINK:
        raise ValueError(f"link must be a page's query of at most {MAX_LINK} characters")
    if at is not None:
        _event("at", at)
    if run is not None and (type(run) is not int or run < 1):
        raise ValueError(f"run must be a run's number, or null for none, not {shown(run)}")
    if not isinstance(panels, dict) or set(panels) != set(PANELS):
        raise ValueError(f"panels must be an object with {', '.join(PANELS)}")
    for name, kind in PANELS.items():
        if type(panels[name]) is not kind:
            raise ValueError(f"panels.{name} must be {'true or false' if kind is bool else 'text'}")
    if panels["side"] not in SIDES:
        raise ValueError(f"panels.side must be one of {', '.join(SIDES)}, not {shown(panels['side'])}")
    if not isinstance(marks, list) or len(marks) > MAX_MARKS:
        raise ValueError(f"marks must be a list of at most {MAX_MARKS} bookmarks")
    return {
        "link": link,
        "run": run,
        "at": at,
        "panels": dict(panels),
        "marks": [_mark(m) for m in marks],
        "tree": _tree(data["tree"]),
    }
