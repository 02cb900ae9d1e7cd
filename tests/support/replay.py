"""Rebuild a run from what a client received, as the page does."""


def path_of(events):
    """Replay (kind, vertex, depth) events into the path they leave, checking each depth."""
    path = []
    for kind, vertex, depth in events:
        if kind == "visit":
            assert depth == len(path)
            path.append(vertex)
        elif kind == "backtrack":
            assert path.pop() == vertex and depth == len(path)
    return path


def path_nodes(events, after=None):
    """Return the node of each square on the path that (kind, vertex, depth) events leave, the
    search tree's nodes being its visits numbered from 0; with after (counts of events), a dict
    of the same after each of those counts instead, read in one pass."""
    wanted, paths, path, nodes = set(after or ()), {0: []}, [], 0
    for n, (kind, _, _) in enumerate(events, 1):
        if kind == "visit":
            path.append(nodes)
            nodes += 1
        elif kind == "backtrack":
            path.pop()
        if n in wanted:
            paths[n] = list(path)
    return path if after is None else paths


def followed(received):
    """Return the (codes, path) a follower holds after the (event, payload) pairs it received.

    A snapshot (in 'class_state' or 'snapshot') stands for the events it counts; a batch may
    overlap what a snapshot already holds, and only its new part counts. A gap, or a
    backtrack of a square not at the path's end, raises AssertionError.
    """
    codes, path = [], []
    for event, payload in received:
        if event == "class_state" and payload["snapshot"]:
            codes = [None] * payload["snapshot"]["events"]
            path = list(payload["snapshot"]["path"])
        elif event == "snapshot":
            codes = [None] * payload["events"]
            path = list(payload["path"])
        elif event == "started":
            codes, path = [], []
        elif event == "events":
            assert payload["first"] <= len(codes), "a gap in what the room was sent"
            fresh = payload["events"][len(codes) - payload["first"] :]
            codes.extend(fresh)
            for code in fresh:
                if code == "found":
                    continue
                if code >= 0:
                    path.append(code)
                else:
                    assert path.pop() == -code - 1, "a backtrack of a square not at the path's end"
    return codes, path


def tree_followed(received):
    """Return the nodes of the search tree a follower's page holds after the (event, payload)
    pairs it received, and the node of each square on its path: each visit received is a node,
    and each outline (of a skip, or of the batches a room was not sent) adds its own, where the
    nodes so far end. An outline that begins elsewhere raises AssertionError."""
    nodes, path = 0, []
    for event, payload in received:
        if event == "events":
            for code in payload["events"]:
                if code == "found":
                    continue
                if code >= 0:
                    path.append(nodes)
                    nodes += 1
                else:
                    path.pop()
        outline = payload.get("outline") if event in ("snapshot", "progress", "finished") else None
        if outline is not None:
            assert outline["from"] == nodes, f"an outline from node {outline['from']:,} after {nodes:,}"
            nodes += sum(outline["stretches"][0::3])
            path = path[: outline["pathFrom"]] + outline["pathNodes"]
    return nodes, path
