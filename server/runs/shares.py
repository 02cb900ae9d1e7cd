"""Who searches in whose turn, and how much of the searching each kind of share may have.

A share (turns.py) is a browser (its address, and its badge if any: edge/badges.py), a class's
own run ("class:" and its code), or one of these wrapped with what asks ("strip", a class's
"tournament"). Shares fall into three groups, which take the searching by cost (seconds of it)
in proportion to their weights whenever more than one wants it:

- the room: a class's own run, which a whole hall watches, ROOM parts in ROOM + 2;
- the known: browsers with a badge given NEW_FOR seconds ago or more, a class's tournament, the
  instructor's own strips; one part;
- the new: browsers with a younger badge, an earned one, or none; one part.

A page load mints a badge, so a script can mint many: they all fall among the new, who share one
part between them, and so can never take more than half of what the class's students have
(and never any of the room's). Within a group each share has an equal part, by cost.
"""

import time

from ..edge.badges import given

ROOM = 38  # the class's own run: 19 parts in 20 of the searching, against both other groups
NEW_FOR = 600  # seconds a browser's badge is new for: a lesson's first ten minutes
CLASS = "class:"


def group(share, wall=time.time):
    """Return the group a share searches in ("room", "known" or "new") and the group's weight."""
    if isinstance(share, tuple):
        kind, inner = share
        if kind == "tournament" or (isinstance(inner, str) and inner.startswith(CLASS)):
            return "known", 1
        share = inner
    if share.startswith(CLASS):
        return "room", ROOM
    _, _, badge = share.partition(" ")
    since = given(badge) if badge else None
    return ("known", 1) if since is not None and wall() - since >= NEW_FOR else ("new", 1)
