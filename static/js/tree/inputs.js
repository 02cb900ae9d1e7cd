// The search tree's inputs: pointing at a node names it, the keys walk it, the wheel, a pinch or
// the keys zoom it; a click or Enter moves the timeline (and so the board, stack, code and chart)
// to the moment the node was visited. A race draws its second search's tree below the first's,
// on the same scale: the zoom is theirs.
import { partingNode, partingSpan, pointedNode, treeLanes, treeShown, zoomedSpan } from "../lane-facts.js";
import { nodeUnder } from "../paint/tree.js";

/** Listen to the tree pictures and the zoom to where a race's trees part. */
export function bindTreeInputs(els, store, runs, playback) {
  const on = (el, type, handler) => el.addEventListener(type, handler);
  const setView = (patch) => store.update({ view: patch });

  /** Listen to a picture of the tree of laneOf()'s lane. */
  const treeInputs = (canvas, laneOf) => {
    const shown = () => treeShown(store.state, laneOf(), treeLanes(store.state, runs));
    const chooseNode = (node) => setView({ treeNode: node < 0 ? null : { run: laneOf().run?.run, node } });
    // A node a skip outlined has no event kept to go to.
    const visitNode = (node) => node >= 0 && node < laneOf().tree.exact && playback.seek(laneOf().tree.eventOf(node) + 1);
    const pointed = (event) => {
      const rect = canvas.getBoundingClientRect();
      return nodeUnder(shown(), rect.width, rect.height, event.clientX - rect.left, event.clientY - rect.top);
    };
    // Where across the nodes shown a pointer is: a wheel or a pinch zooms about it, as a map does.
    const across = (clientX) => {
      const rect = canvas.getBoundingClientRect(), now = shown();
      return now.from + ((clientX - rect.left) / Math.max(1, rect.width)) * (now.to - now.from);
    };
    // Zoom about a node (the wheel's or pinch's place, the one chosen by the keys, else the
    // middle of what is shown): the wheel, a pinch, or + - 0.
    const zoomTree = (factor, about) => {
      const now = shown();
      if (!now.total) return;
      const at = about >= 0 ? about : (now.from + now.to) / 2;
      const span = factor === 0 ? null : zoomedSpan(now, at, factor);
      setView({ treeSpan: span && { run: runs.main.run?.run, ...span } });
    };
    canvas.addEventListener("wheel", (event) => {
      event.preventDefault(); // the page does not scroll under a zoom
      zoomTree(event.deltaY < 0 ? 0.5 : 2, across(event.clientX));
    }, { passive: false });
    // Two fingers pinch it: spread apart to zoom in, about the node between them, together to
    // zoom out. Across the tree only (its nodes are across it): a swipe up or down scrolls the page.
    const fingers = new Map(); // pointerId -> its clientX, while on the tree
    let apart = 0; // the fingers' distance when the tree was last zoomed by them
    const spread = () => Math.abs(Math.max(...fingers.values()) - Math.min(...fingers.values()));
    on(canvas, "pointerdown", (event) => {
      if (event.pointerType !== "touch") return;
      fingers.set(event.pointerId, event.clientX);
      apart = fingers.size === 2 ? spread() : 0;
    });
    on(canvas, "pointermove", (event) => {
      if (!fingers.has(event.pointerId)) {
        chooseNode(pointed(event));
        return;
      }
      fingers.set(event.pointerId, event.clientX);
      if (fingers.size !== 2 || !apart) return;
      const factor = apart / Math.max(1, spread());
      if (factor > 0.8 && factor < 1.25) return; // zoomed by steps: each redraws the tree
      const [a, b] = fingers.values();
      zoomTree(factor, across((a + b) / 2));
      apart = spread();
    });
    for (const type of ["pointerup", "pointercancel"]) {
      on(canvas, type, (event) => {
        fingers.delete(event.pointerId);
        apart = 0;
      });
    }
    on(canvas, "pointerleave", () => document.activeElement !== canvas && chooseNode(-1));
    on(canvas, "click", (event) => visitNode(pointed(event)));
    on(canvas, "focus", () => {
      const lane = laneOf();
      if (pointedNode(store.state, lane) < 0 && lane.model.visits) chooseNode(0); // the start square
    });
    on(canvas, "blur", () => chooseNode(-1));
    on(canvas, "keydown", (event) => {
      const lane = laneOf(), k = pointedNode(store.state, lane), tree = lane.tree;
      const held = {
        ArrowUp: () => tree.parent(k),
        ArrowDown: () => tree.firstChild(k),
        ArrowLeft: () => tree.previousSibling(k),
        ArrowRight: () => tree.nextSibling(k),
      };
      // The outlined part is walked by its path and its stretches.
      const moves = k < tree.exact ? held
        : Object.fromEntries(Object.keys(held).map((key) => [key, () => tree.outlinedMove(k, key)]));
      const zooms = { "+": 0.5, "=": 0.5, "-": 2, 0: 0 };
      if (event.key in zooms) {
        event.preventDefault();
        event.stopPropagation(); // the page's own + and - change the speed
        zoomTree(zooms[event.key], k);
        return;
      }
      if (k < 0 || !(event.key in moves || event.key === "Enter")) return;
      event.preventDefault();
      event.stopPropagation(); // the page's own arrows step the search
      if (event.key === "Enter") {
        visitNode(k);
        return;
      }
      const next = moves[event.key]();
      if (next >= 0) chooseNode(next);
    });
  };
  treeInputs(els.treePicture, () => runs.main);
  treeInputs(els.treePictureSecond, () => runs.second);
  on(els.treePartingZoom, "click", () => {
    const parting = partingNode(runs.main, runs.second) ?? -1;
    if (parting >= 0) setView({ treeSpan: { run: runs.main.run?.run, ...partingSpan(parting) } });
  });
}
