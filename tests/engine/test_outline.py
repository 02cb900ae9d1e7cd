"""The outline of a skipped search (engine/outline.py, Search.skim) against the tree its events
make, node by node."""

import itertools

import pytest

from server.engine import BACKTRACK, FOUND, VISIT, Search, example_graph, knight_graph, legs
from server.engine.outline import LEAST, STRETCHES
from tests.support.replay import path_nodes, tree_followed


def tree_of(events):
    """Return each node's depth (the start at 1) and the last node of each tour, read one event
    at a time."""
    depths, tours, path = [], [], []
    for kind, _, _ in events:
        if kind is VISIT:
            depths.append(len(path) + 1)
            path.append(len(depths) - 1)
        elif kind is BACKTRACK:
            path.pop()
        else:
            tours.append(len(depths) - 1)
    return depths, tours


def new_search(shape, start, options):
    graph = example_graph() if shape is None else knight_graph(*shape)
    options = dict(options)
    return Search(graph, start, options.pop("order", "naive"), **options)


def skimmed(search, skipped_from, pieces):
    """Play skipped_from events of search, then skim it in pieces of these sizes (the last
    repeated to its end) as a skip does, taking the outline after each; return the parts, the
    path put together after each with its event count, and the last event and count reached."""
    events = iter(search)
    played = list(itertools.islice(events, skipped_from))
    state = legs.where(search, len(played), played[-1] if played else None)
    outline, parts, paths = legs.outline_at(state), [], []
    path = path_nodes(played)
    made, last = state["events"], state["last"]
    for size in itertools.chain(pieces, itertools.repeat(pieces[-1])):
        made, last = legs.skim(search, made, last, size, outline)
        part = outline.take()
        parts.append(part)
        path = path[: part["pathFrom"]] + part["pathNodes"]
        paths.append((made, list(path)))
        if search.is_last(last):
            return parts, paths, last, made
    raise AssertionError("unreachable")


SEARCHES = {
    # 5x5 naive from a corner: 9,996 events to its first tour.
    "5x5": ((5, 5), 0, {}),
    # Every tour of the example graph, and of 5x5 from a corner (304 of them, 3.47 M events).
    "example, every tour": (None, "A", {"all_tours": True}),
    "5x5, every tour": ((5, 5), 0, {"all_tours": True}),
    "6x6 Warnsdorff": ((6, 6), 7, {"order": "warnsdorff"}),
    "5x5 closed, every tour": ((5, 5), 12, {"closed": True, "all_tours": True}),
    "4x4": ((4, 4), 0, {}),  # no tour: the search ends backtracking out of the start
}
SKIMS = [
    (name, skipped_from, pieces)
    for name in SEARCHES
    if name != "5x5, every tour"
    for skipped_from in (0, 1, 777)
    for pieces in ([1, 2, 3, 5000], [997], [4096])
] + [("5x5, every tour", 777, [4096])]


@pytest.mark.parametrize(("name", "skipped_from", "pieces"), SKIMS)
@pytest.mark.slow
def test_a_skims_outline_counts_each_stretch_its_depths_tours_and_path_as_the_events_do(
    name, skipped_from, pieces
):
    shape, start, options = SEARCHES[name]
    events = list(new_search(shape, start, options))
    depths, tours = tree_of(events)
    skipped_from = min(skipped_from, len(events) - 1)
    search = new_search(shape, start, options)
    parts, paths, last, made = skimmed(search, skipped_from, pieces)
    assert (made, last) == (len(events), events[-1])
    assert search.tours == len(tours)
    first = sum(1 for kind, _, _ in events[:skipped_from] if kind is VISIT)
    node, found = first, []
    for part in parts:
        assert part["from"] == node
        stretches = part["stretches"]
        for i in range(0, len(stretches), 3):
            count, low, high = stretches[i : i + 3]
            assert count > 0
            assert (low, high) == (min(depths[node : node + count]), max(depths[node : node + count]))
            node += count
        found += part["tours"]
    assert node == len(depths)
    assert found == tours[sum(1 for kind, _, _ in events[:skipped_from] if kind is FOUND) :]
    expected = path_nodes(events, after=[made for made, _ in paths])
    for made, path in paths:
        assert path == expected[made], f"the path after {made:,} events"


def test_a_skim_reaches_every_state_the_events_do_and_the_events_go_on_from_there():
    graph = knight_graph(6)
    events = list(itertools.islice(Search(graph, 0), 300_000))
    search = Search(graph, 0)
    outline = legs.outline_at(legs.where(search, 0, None))
    made, last = 0, None
    for size in (5, 4096, 33_000, 1, 100_000):
        made, last = legs.skim(search, made, last, size, outline)
        assert last == events[made - 1]
        assert search.path == _squares(events[:made])
    state = legs.where(search, made, last)
    assert list(itertools.islice(legs.go_on(search, state), 1000)) == events[made : made + 1000]


def _squares(events):
    path = []
    for kind, v, _ in events:
        if kind is VISIT:
            path.append(v)
        elif kind is BACKTRACK:
            path.pop()
    return path


@pytest.mark.slow
def test_a_long_outline_grows_its_stretches_so_that_they_stay_a_few_thousand():
    search = Search(knight_graph(8), 0)
    outline = legs.outline_at(legs.where(search, 0, None))
    made, last, stretches = 0, None, 0
    while made < 12_000_000:
        made, last = legs.skim(search, made, last, 4096, outline)
        stretches += len(outline.take()["stretches"]) // 3
    assert outline.nodes > 5_000_000
    assert stretches <= outline.nodes // (LEAST // 2)
    assert stretches < 2 * STRETCHES


def test_merging_a_legs_outline_is_the_same_as_outlining_it_here():
    def skim_to(search, outline, made, last, end):
        while made < end:
            made, last = legs.skim(search, made, last, min(4096, end - made), outline)
        return made, last

    whole_search, here_search = (
        Search(knight_graph(5), 0, all_tours=True),
        Search(knight_graph(5), 0, all_tours=True),
    )
    whole = legs.outline_at(legs.where(whole_search, 0, None))
    skim_to(whole_search, whole, 0, None, 200_000)
    here = legs.outline_at(legs.where(here_search, 0, None))
    made, last = skim_to(here_search, here, 0, None, 120_000)
    state = legs.where(here_search, made, last)
    reached = legs.run_job(*legs.job(here_search, {**state, "outline": True}, 200_000, 10))
    here.merge(reached["outline"])
    mine, theirs = here.take(), whole.take()
    assert here.nodes == whole.nodes
    assert sum(mine["stretches"][0::3]) == sum(theirs["stretches"][0::3])
    assert (mine["pathFrom"], mine["pathNodes"]) == (theirs["pathFrom"], theirs["pathNodes"])
    assert mine["tours"] == theirs["tours"]
    assert min(mine["stretches"][1::3]) == min(theirs["stretches"][1::3])
    assert max(mine["stretches"][2::3]) == max(theirs["stretches"][2::3])


@pytest.mark.slow
def test_skim_refuses_a_full_path_and_an_ended_search():
    graph = knight_graph(5)
    events = list(Search(graph, 0))
    search = Search(graph, 0)
    list(search)
    with pytest.raises(ValueError, match="ended"):
        search.skim(events[-1], 0, 0)
    full = Search(graph, 0, all_tours=True)
    found = next(i for i, event in enumerate(full) if event[0] is FOUND)
    with pytest.raises(ValueError, match="full path"):
        full.skim(list(Search(graph, 0, all_tours=True))[found - 1], 0, 0)


@pytest.mark.parametrize("name", ["5x5", "example, every tour", "5x5 closed, every tour", "4x4"])
@pytest.mark.slow
def test_the_outlines_of_a_runs_batches_are_its_tree_batch_by_batch(name):
    shape, start, options = SEARCHES[name]
    events = list(new_search(shape, start, options))
    depths, tours = tree_of(events)
    search, parts, made = new_search(shape, start, options), [], 0
    stream, sizes = iter(search), itertools.cycle([1, 3, 700, 16_384, 2, 5000])
    while made < len(events):
        batch = list(itertools.islice(stream, next(sizes)))
        made += len(batch)
        parts.append(("snapshot", {"outline": legs.outline_of(batch, search, made)}))
        part = parts[-1][1]["outline"]
        for i in range(0, len(part["stretches"]), 3):
            count, low, high = part["stretches"][i : i + 3]
            first = part["from"] + sum(part["stretches"][0:i:3])
            assert (low, high) == (min(depths[first : first + count]), max(depths[first : first + count]))
    assert tree_followed(parts) == (len(depths), path_nodes(events))
    assert [tour for _, payload in parts for tour in payload["outline"]["tours"]] == tours
