"""The search tree beside the board: every node the engine made, each subtree's size, and the
tree linked both ways with the timeline."""

import re

import pytest
from playwright.sync_api import expect

from server.engine.graph import knight_graph
from server.engine.search import knight_tour
from server.wire import encode
from tests.support.page import (
    FASTEST,
    artifact,
    model,
    press,
    rendered,
    square_name,
    step_events,
    wait_for_events,
)
from tests.support.replay import path_nodes

SIZES = ((390, 844), (1280, 800), (1920, 1080))  # phone, laptop, projector
SCREENS = {str(width): {"width": width, "height": height} for width, height in SIZES}

SUBTREE_SIZES = """() => {
  const tree = knightsTour.tree;
  return Array.from({ length: tree.size }, (_, k) => tree.subtreeSize(k));
}"""


# Whether a column near the tree picture's right edge is drawn, in part, in the colour of nodes
# still to come.
LATER_PIXEL = """(() => {
  const canvas = document.getElementById('tree-picture'), ratio = canvas.width / canvas.clientWidth;
  const column = canvas.getContext('2d').getImageData(canvas.width - 4 * ratio, 0, 1, canvas.height).data;
  for (let i = 0; i < column.length; i += 4) {
    if (column[i] === 0xe6 && column[i + 1] === 0xe8 && column[i + 2] === 0xec) return true;
  }
  return false;
})()"""


def engine_subtree_sizes(codes):
    """Return each visit's subtree size, counted from the engine's events: nodes in visit order."""
    sizes, stack, made = [], [], 0
    for code in codes:
        if code == "found":
            continue
        if code >= 0:
            stack.append(made)
            sizes.append(0)
            made += 1
        else:
            node = stack.pop()
            sizes[node] = made - node
    for node in stack:
        sizes[node] = made - node
    return sizes


def play_to_the_end(page):
    page.get_by_label("Speed").fill(FASTEST)
    page.get_by_role("button", name="Play").click()
    expect(page.get_by_role("status")).to_contain_text("Tour found", timeout=30_000)


def test_the_tree_holds_every_node_of_the_engines_search_with_its_subtrees_size(open_page):
    page = open_page("/?rows=5&cols=5&order=naive")
    play_to_the_end(page)
    codes = encode(list(knight_tour(knight_graph(5, 5), 0)))
    assert len(codes) == 9996
    assert page.evaluate(SUBTREE_SIZES) == engine_subtree_sizes(codes)
    visits = sum(1 for code in codes if code != "found" and code >= 0)
    assert page.evaluate("() => knightsTour.tree.tours") == [visits - 1]  # the last visit ends the tour
    explored = page.locator("#tree-explored-text")
    expect(explored).to_have_text(re.compile(rf"^{visits:,} of about 4\.1 × 10¹⁴ nodes searched"))


def test_the_keys_walk_the_tree_and_enter_moves_the_timeline_there(open_page):
    page = open_page("/?rows=5&cols=5&order=naive")
    step_events(page, 40)
    first = encode(list(knight_tour(knight_graph(5, 5), 0)))[:40]
    visits = sum(1 for code in first if code != "found" and code >= 0)
    page.locator("#tree-picture").focus()
    expect(page.locator("#tree-keys")).to_contain_text("Enter goes to that moment")
    said = page.locator("#tree-point")
    expect(said).to_have_text(f"a5, depth 1: its subtree holds {visits} squares so far; the knight is in it")
    page.keyboard.press("ArrowDown")
    expect(said).to_contain_text(", depth 2:")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowRight")  # the second square tried from there
    chosen = page.evaluate("() => knightsTour.store.view.treeNode.node")
    at = page.evaluate(f"() => knightsTour.tree.eventOf({chosen})")
    events = model(page, "events")
    page.keyboard.press("Enter")
    wait_for_events(page, at + 1)
    assert at + 1 < events
    # The board shows the moment the node was visited: its square is the knight's.
    assert page.evaluate("() => knightsTour.model.path.length") == 3


@pytest.mark.parametrize("screen", SCREENS)
def test_a_click_on_the_tree_moves_the_timeline_to_that_visit(open_page, screen):
    page = open_page("/?rows=5&cols=5&order=naive", viewport=SCREENS[screen])
    play_to_the_end(page)
    tree = page.locator("#tree-picture")
    tree.scroll_into_view_if_needed()
    box = tree.bounding_box()
    tree.click(position={"x": box["width"] * 0.25, "y": box["height"] * 0.5})
    node = page.evaluate("() => knightsTour.store.view.treeNode.node")
    at = page.evaluate(f"() => knightsTour.tree.eventOf({node})")
    wait_for_events(page, at + 1)
    # At the moment of its visit the node is the knight's, and its subtree is that one square.
    depth = page.evaluate(f"() => knightsTour.tree.depthOf({node})")
    assert page.evaluate("() => knightsTour.model.path.length") == depth
    said = re.compile(rf", depth {depth}: its subtree holds 1 square so far; the knight is in it$")
    expect(page.locator("#tree-point")).to_have_text(said)
    # The whole tree received stays in the picture, on the same scale: what the search does after
    # the moment shown is drawn lighter, as still to come, and its nodes can be named and chosen.
    page.wait_for_function(f"() => {LATER_PIXEL}")
    tree.hover(position={"x": box["width"] * 0.9, "y": box["height"] * 0.6})
    expect(page.locator("#tree-point")).to_contain_text("the search comes here later")


def engine_visits(order="naive"):
    """Return the squares of the 5x5 search's visits from a5, in order, as named on the page."""
    events = knight_tour(knight_graph(5, 5), 0, order)
    return [(square_name(v, 5, 5), depth) for kind, v, depth in events if kind == "visit"]


def test_zoomed_in_the_tree_names_each_square(open_page):
    page = open_page("/?rows=5&cols=5&order=naive")
    step_events(page, 30)
    page.locator("#tree-picture").focus()
    for _ in range(4):
        page.keyboard.press("+")
    span = page.evaluate("() => knightsTour.store.view.treeSpan")
    assert span["to"] - span["from"] == 8
    names = [name for name, _ in engine_visits()[span["from"] : span["to"]]]
    expect(page.locator("#tree-picture")).to_have_attribute("data-named", " ".join(names))
    page.keyboard.press("0")
    page.wait_for_function("() => knightsTour.store.view.treeSpan === null")
    expect(page.locator("#tree-picture")).not_to_have_attribute("data-named", re.compile("."))


def test_zoomed_in_at_the_newest_nodes_the_tree_keeps_up_with_the_knight(open_page):
    page = open_page("/?rows=5&cols=5&order=naive")
    step_events(page, 20)
    tree = page.locator("#tree-picture")
    box = tree.bounding_box()
    tree.hover(position={"x": box["width"] - 2, "y": box["height"] / 2})
    for _ in range(3):
        page.mouse.wheel(0, -100)
    page.wait_for_function("() => knightsTour.store.view.treeSpan?.live === true")
    visits = engine_visits()
    for events in (20, 30):
        if events > 20:
            step_events(page, events - 20)
        shown = model(page, "visits")
        # The last square named is the knight's: the newest node, in sight however many came.
        expect(tree).to_have_attribute("data-named", re.compile(rf" {visits[shown - 1][0]}$"))


def word(page, language, id):
    """Return the page's words for id in a language, from its catalogue."""
    catalogue = f"(await import('/static/js/words/{language}.js')).{language.upper()}"
    return page.evaluate(f"async () => {catalogue}[{id!r}]")


@pytest.mark.parametrize("language", ["en", "zh"])
@pytest.mark.parametrize("screen", SCREENS)
def test_a_race_draws_both_trees_on_one_scale_and_zooms_to_where_they_part(open_page, screen, language):
    page = open_page(f"/?mode=race&rows=5&cols=5&lang={language}", viewport=SCREENS[screen])
    page.locator("#speed").fill(FASTEST)
    page.locator("#play").click()
    page.wait_for_function("() => knightsTour.state === 'finished'", timeout=30_000)
    naive, warnsdorff = engine_visits("naive"), engine_visits("warnsdorff")
    parting = next(k for k, (a, b) in enumerate(zip(naive, warnsdorff, strict=False)) if a != b)
    section = page.locator("section[data-panel=tree]")
    section.scroll_into_view_if_needed()
    counts = [f"{len(naive):,}", f"{len(warnsdorff):,}"]
    expect(page.locator("#tree-name")).to_contain_text(counts[0])
    expect(page.locator("#tree-name-second")).to_contain_text(counts[1])
    said = page.locator("#tree-parting-text")
    for named in (str(parting), naive[parting][0], warnsdorff[parting][0]):
        expect(said).to_contain_text(named)
    section.screenshot(path=artifact(f"tree_race_{screen}_{language}.png"))
    # The keys the pictures describe to a screen reader: a race has no timeline for Enter to move.
    expect(page.locator("#tree-keys")).to_have_text(word(page, language, "lesson.treeKeysRace"))
    page.get_by_role("button", name=word(page, language, "lesson.treePartingZoom")).click()
    # One scale: both pictures show the same stretch of nodes, each named, the parting among them.
    span = page.evaluate("() => knightsTour.store.view.treeSpan")
    assert span["from"] < parting < span["to"]
    for canvas, visits in (("#tree-picture", naive), ("#tree-picture-second", warnsdorff)):
        names = " ".join(name for name, _ in visits[span["from"] : span["to"]])
        expect(page.locator(canvas)).to_have_attribute("data-named", names)
    section.screenshot(path=artifact(f"tree_race_parting_{screen}_{language}.png"))


@pytest.mark.parametrize("screen", SCREENS)
def test_after_a_skip_the_tree_is_the_whole_search_the_skipped_part_outlined(open_page, screen):
    page = open_page("/?rows=6&cols=6&order=naive", viewport=SCREENS[screen])
    step_events(page, 40)
    page.get_by_role("button", name="Skip to end").click()
    expect(page.get_by_role("status")).to_contain_text("Tour found", timeout=30_000)
    tree = page.locator("#tree-picture")
    expect(tree).to_be_visible()
    expect(page.locator("#tree-note")).to_be_hidden()
    events = list(knight_tour(knight_graph(6, 6), 0))
    played = sum(1 for kind, _, _ in events[:40] if kind == "visit")
    visits, path = sum(1 for kind, _, _ in events if kind == "visit"), path_nodes(events)
    assert visits == 183_635
    held = page.evaluate(
        "() => { const t = knightsTour.tree; return [t.size, t.exact, t.tours, t.path(t.size, t.depth)]; }"
    )
    assert held == [visits, played, [visits - 1], path]
    tree.scroll_into_view_if_needed()
    box = tree.bounding_box()
    said = page.locator("#tree-point")
    # The start square's node spans the picture: its subtree is the whole search.
    tree.hover(position={"x": box["width"] * 0.5, "y": 2})
    expect(said).to_have_text(
        f"a6, depth 1: its subtree holds {visits:,} squares so far; the knight is in it"
    )
    # Deep in the skipped part, a stretch of the outline: how many squares, at which depths.
    tree.hover(position={"x": box["width"] * 0.5, "y": box["height"] * 0.6})
    expect(said).to_have_text(re.compile(r"^Outlined: [\d,]+ squares here, at depths \d+ to \d+ "))
    # A click there has no moment to go to: the view stays at the end.
    tree.click(position={"x": box["width"] * 0.5, "y": box["height"] * 0.6})
    assert model(page, "events") == len(events)
    # The keys walk the outline: to the next stretch, and up to the knight's branch above it.
    stretch = page.evaluate("() => knightsTour.store.view.treeNode.node")
    tree.press("ArrowRight")
    page.wait_for_function(f"() => knightsTour.store.view.treeNode.node > {stretch}")
    expect(said).to_have_text(re.compile(r"^Outlined: "))
    tree.press("ArrowUp")
    expect(said).to_have_text(re.compile(r"^[a-f][1-6], depth \d+: its subtree holds"))
    # Stepped back before the skip, the knight's branch in the skipped part is still named.
    page.get_by_role("button", name="Step back").click()
    wait_for_events(page, 40)
    tree.hover(position={"x": box["width"] - 1, "y": box["height"] - 1})
    expect(said).to_have_text(
        re.compile(r"^[a-f][1-6], depth 36: the search comes here later; its subtree holds 1 square$")
    )
    page.locator("section[data-panel=tree]").screenshot(path=artifact(f"tree_skipped_{screen}.png"))


def test_two_fingers_pinch_the_tree_in_and_out(open_page):
    page = open_page("/?rows=5&cols=5&order=naive", viewport=SCREENS["390"], has_touch=True)
    play_to_the_end(page)
    tree = page.locator("#tree-picture")
    tree.scroll_into_view_if_needed()
    box = tree.bounding_box()
    middle, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    cdp = page.context.new_cdp_session(page)

    def touch(kind, distance=None):
        """Send a touch event of two fingers distance apart across the tree's middle (none: lifted)."""
        fingers = (
            []
            if distance is None
            else [{"x": middle + side * distance / 2, "y": y, "id": i} for i, side in enumerate((-1, 1))]
        )
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": fingers})

    def pinch(distances):
        """Put two fingers on the tree distances[0] apart, move them through the others, lift them."""
        touch("touchStart", distances[0])
        for distance in distances[1:]:
            touch("touchMove", distance)
        touch("touchEnd")

    visits = model(page, "visits")
    pinch([40, 80, 160, 320])  # spread apart: about 8 times closer
    span = page.evaluate("() => knightsTour.store.view.treeSpan")
    assert span is not None and span["to"] - span["from"] <= visits / 4, span
    assert span["from"] <= visits / 2 <= span["to"], "zoomed about the node between the fingers"
    pinch([320, 160, 80, 40, 20])  # together again, and more: the whole tree
    page.wait_for_function("() => knightsTour.store.view.treeSpan === null")


# The tree's place on the page, the dead end's box, and how many backtracks the page shows.
LESSON_PLACES = """() => [document.getElementById('tree-picture').getBoundingClientRect().y,
  document.getElementById('dead-end').textContent, knightsTour.model.backtracks]"""


def test_the_tree_stays_put_while_steps_and_step_backs_go_through_dead_ends(open_page):
    page = open_page("/?rows=5&cols=5&start=a5&order=naive")
    places = [page.evaluate(LESSON_PLACES)]
    for _ in range(40):
        step_events(page)
        rendered(page)
        places.append(page.evaluate(LESSON_PLACES))
    for events in range(39, 29, -1):
        press(page.locator("#back"))
        wait_for_events(page, events)
        rendered(page)
        places.append(page.evaluate(LESSON_PLACES))
    assert any(dead for _, dead, _ in places) and any(not dead for _, dead, _ in places[1:])
    assert max(backtracks for *_, backtracks in places) > 0
    tops = [top for top, *_ in places]
    assert max(tops) - min(tops) <= 1, f"the tree moved between {min(tops)} and {max(tops)} px"
