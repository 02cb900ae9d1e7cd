"""The outline of a search tree whose events were not sent (a skip's, or the batches a class's
room is not sent at paces it cannot watch), for the page's picture of the tree: the nodes in
stretches, each with its count and its shallowest and deepest node; where tours ended; and the
node of each square on the path at the end.

A node is a visit, numbered in the order the search made them (depth-first order); its depth is
the path's length once it is on it (the start is node 0, at depth 1), as the page counts them.
A skip's search sums up its pieces itself (Search.skim); a batch is read here. Either way this
gathers them into stretches.
"""

from itertools import compress
from operator import itemgetter

from .search import BACKTRACK, FOUND, VISIT

_kinds, _depths = itemgetter(0), itemgetter(2)


def _length_after(event):
    """Return how long the path is after an event that is no tour reported."""
    return event[2] + 1 if event[0] is VISIT else event[2]


# Nodes a stretch holds at least once the tree has many: its size over this many stretches.
STRETCHES = 4096
LEAST = 1024  # nodes a stretch holds at least


class Outline:
    """The outline of the events after a point of a search: `nodes` visits made before it, the
    path `depth` squares long there."""

    def __init__(self, nodes, depth, least=LEAST):
        self.nodes, self.least = nodes, least  # least: the nodes a stretch holds at least
        self.path = [None] * depth  # the node of each square on the path; None: as before this outline
        self.since = depth  # the shallowest depth (counted from 0) whose node this outline knows
        self.stretches = []  # [nodes, shallowest depth, deepest depth] of each, not yet taken
        self.tours = []  # the last node of each tour found, not yet taken
        # Where a skim of the search (see legs.skim) stopped, with the generator to go on with.
        self.skimmer, self.skimmed_to = None, None

    def piece(self, count, low, high, nodes_at, tour_nodes, length):
        """Add a piece of events that made count visits at depths low to high (counted from 0),
        after which the path is `length` squares long: nodes_at[d] numbers the visits of its
        squares from depth low on; tour_nodes are the visits that ended tours (taken from it)."""
        path = self.path
        del path[length:]
        path.extend([None] * (length - len(path)))
        if count:
            # The squares from the shallowest visit down were all visited since: the rest are as they were.
            path[low:] = nodes_at[low:length]
            self.since = min(self.since, low)
            self._stretch(count, low + 1, high + 1)
        self.since = min(self.since, length)
        self.nodes += count
        self.tours += tour_nodes
        tour_nodes.clear()

    @classmethod
    def of(cls, part, least=LEAST):
        """Return an outline holding what another outline took (see take), to merge more into."""
        outline = cls(part["from"], part["pathFrom"], least)
        outline.merge(part)
        return outline

    def add_events(self, events, length, tours=0):
        """Add events (a list, in order) after which the path is `length` squares long and that
        reported `tours` tours: a batch a run sends, that its class's room may be sent the
        outline of instead. Without tours, read from their depths alone (in C: a list, min, max
        and index over them); with them, each one's kind too."""
        if not events:
            return
        depths, start, nodes = list(map(_depths, events)), len(self.path), self.nodes
        if tours:
            self._path_each(events, length)
            visits = list(map(VISIT.__eq__, map(_kinds, events)))
        else:
            # Each visit lengthens the path and each backtrack shortens it: so many events, and
            # so much growth, are (events + growth) / 2 visits.
            self._path(depths, length, lambda at, depth: nodes + (at + depth - start) // 2)
            visits = None
        size = self.stretch_size()
        for a in range(0, len(events), 2 * size):
            b = min(a + 2 * size, len(events))
            piece, flags = depths[a:b], None if visits is None else visits[a:b]
            if flags is None:
                before = start if a == 0 else _length_after(events[a - 1])
                after = length if b == len(events) else _length_after(events[b - 1])
                count, low, high = (b - a + after - before) // 2, min(piece), max(piece)
                # Exact when the piece went deeper than its path began (a backtrack that deep pops
                # a square it visited) and ended deeper than its shallowest (a square it visited
                # there); else the kinds are read.
                if count and (high < before or after <= low):
                    flags = [event[0] is VISIT for event in events[a:b]]
            else:
                count = flags.count(True)
            if not count:
                continue
            if flags is not None:
                low, high = min(compress(piece, flags)), max(compress(piece, flags))
            self._stretch(count, low + 1, high + 1)
            self.nodes += count

    def _path(self, depths, length, node_at):
        """Find the nodes of the path's squares that events of these depths changed (none of
        them a tour reported): those from the shallowest one's depth on. node_at(at, depth)
        numbers the visit that is event `at`."""
        path, shallowest = self.path, min(depths)
        del path[length:]
        path.extend([None] * (length - len(path)))
        # Read from the end: after the visit of the path's square at depth d come only events
        # deeper than d (its subtree's), so the last event at depth d is that visit.
        backwards, last, at = depths[::-1], len(depths) - 1, 0
        for want in range(length - 1, shallowest - 1, -1):
            at = backwards.index(want, at)
            path[want] = node_at(last - at, want)
            at += 1
        self.since = min(self.since, shallowest, length)

    def _path_each(self, events, length):
        """Find the nodes of the path's squares, and of the tours, reading each event's kind."""
        path, node, since = self.path, self.nodes, self.since
        for kind, _, depth in events:
            if kind is VISIT:
                path[depth:] = (node,)
                node += 1
                since = min(since, depth)
            elif kind is BACKTRACK:
                del path[depth:]
            else:
                self.tours.append(node - 1)
        self.since = min(since, length)

    def event(self, event):
        """Add one event, read by its kind."""
        kind, _, depth = event
        if kind is VISIT:
            self.piece(1, depth, depth, [None] * depth + [self.nodes], [], depth + 1)
        elif kind is BACKTRACK:
            self.piece(0, 0, 0, (), [], depth)
        elif kind is FOUND:
            self.tours.append(self.nodes - 1)

    def stretch_size(self):
        """Return how many nodes a stretch holds now: stretches grow with the tree, so that a
        long skip's outline stays a few thousand."""
        return max(self.least, self.nodes // STRETCHES)

    def _stretch(self, count, low, high):
        """Add count nodes at depths low to high to the last stretch while it stays within half
        a stretch over its size (a piece a little short of one is a stretch of its own), else
        begin one."""
        last = self.stretches[-1] if self.stretches else None
        if last is not None and 2 * (last[0] + count) <= 3 * self.stretch_size():
            last[0] += count
            last[1], last[2] = min(last[1], low), max(last[2], high)
        else:
            self.stretches.append([count, low, high])

    def take(self):
        """Return what the outline holds that was not taken yet, as the page reads it, and forget
        its stretches and tours: `from` the node its first stretch begins at, `stretches` flat
        (count, shallowest, deepest of each), `tours`, and the path's nodes `pathNodes` from
        depth `pathFrom` (counted from 0) on; above it, the path's squares are as before."""
        counted = sum(stretch[0] for stretch in self.stretches)
        part = {
            "from": self.nodes - counted,
            "stretches": [value for stretch in self.stretches for value in stretch],
            "tours": self.tours,
            "pathFrom": self.since,
            "pathNodes": self.path[self.since :],
        }
        self.stretches, self.tours = [], []
        return part

    def merge(self, part):
        """Add what another outline took (one begun where this one ended: a helper's leg, a
        batch), its stretches made one while they fit this outline's size."""
        self.nodes = part["from"]
        for i in range(0, len(part["stretches"]), 3):
            count, low, high = part["stretches"][i : i + 3]
            self._stretch(count, low, high)
            self.nodes += count
        self.tours.extend(part["tours"])
        since, nodes = part["pathFrom"], part["pathNodes"]
        self.path.extend([None] * (since - len(self.path)))
        self.path[since:] = nodes
        self.since = min(self.since, since)
