// The search tree's model, checked against a tree built node by node with its parents and
// children, from random walks and from whole searches.
import assert from "node:assert/strict";
import { test } from "node:test";

import { knightMoves, orderMoves } from "../../static/js/orderings/orderings.js";
import { partingNode } from "../../static/js/lane-facts.js";
import { SearchTree, columnStart } from "../../static/js/tree/tree.js";
import { random } from "./support/random.js";

/** Return the wire codes of a search's walk of n events from the start: visits, backtracks, tours. */
function walk(seed, n, squares) {
  const rand = random(seed), codes = [0];
  let depth = 1;
  while (codes.length < n) {
    const r = rand();
    if (depth < squares && (r < 0.55 || depth === 1)) {
      codes.push(Math.floor(rand() * squares));
      depth += 1;
      if (depth === squares || rand() < 0.005) codes.push("found");
    } else if (depth > 1) {
      codes.push(-1);
      depth -= 1;
    }
  }
  return codes;
}

/** Return the wire codes of the depth-first search of a rows x cols board, to its first tour or all. */
function search(rows, cols, start, { order = "naive", every = false } = {}) {
  const moves = knightMoves(rows, cols), onPath = new Uint8Array(rows * cols), codes = [];
  const stack = [];
  const enter = (u) => {
    onPath[u] = 1;
    codes.push(u);
    stack.push({ u, next: orderMoves(order, moves, onPath, u), i: 0 });
  };
  enter(start);
  while (stack.length) {
    const top = stack[stack.length - 1];
    if (stack.length === rows * cols && top.i === 0) {
      codes.push("found");
      if (!every) return codes;
      top.i = top.next.length;
    }
    const w = top.next[top.i++];
    if (w === undefined) {
      stack.pop();
      onPath[top.u] = 0;
      if (stack.length) codes.push(-top.u - 1);
    } else if (!onPath[w]) {
      enter(w);
    }
  }
  return codes;
}

/** Return the tree of these codes built plainly: each node's depth, parent, subtree size, event. */
function plainTree(codes) {
  const depth = [], parent = [], size = [], event = [], stack = [], tours = [];
  codes.forEach((code, n) => {
    if (code === "found") {
      tours.push(depth.length - 1);
    } else if (code >= 0) {
      const k = depth.length;
      depth.push(stack.length + 1);
      parent.push(stack.length ? stack[stack.length - 1] : -1);
      size.push(1);
      event.push(n);
      for (const a of stack) size[a] += 1;
      stack.push(k);
    } else {
      stack.pop();
    }
  });
  return { depth, parent, size, event, tours };
}

function check(codes) {
  const tree = new SearchTree(64);
  tree.push(codes);
  const plain = plainTree(codes);
  assert.equal(tree.size, plain.depth.length);
  assert.deepEqual(tree.tours, plain.tours);
  for (let k = 0; k < tree.size; k++) {
    assert.equal(tree.depthOf(k), plain.depth[k], `depth of ${k}`);
    assert.equal(tree.parent(k), plain.parent[k], `parent of ${k}`);
    assert.equal(tree.subtreeSize(k), plain.size[k], `subtree of ${k}`);
    assert.equal(tree.eventOf(k), plain.event[k], `event of ${k}`);
  }
  return { tree, plain };
}

test("every node's depth, parent, subtree and event are those of the tree built plainly", () => {
  for (const [seed, n] of [[1, 10], [2, 1000], [3, 20_000], [4, 70_000]]) check(walk(seed, n, 64));
});

test("a whole search's tree: 5x5 naive from a corner, every node", () => {
  const codes = search(5, 5, 0);
  assert.equal(codes.length, 9996); // the engine's count (5,010 visits, 4,985 backtracks, a tour)
  const { tree, plain } = check(codes);
  assert.equal(tree.subtreeSize(0), tree.size);
  assert.equal(plain.tours.length, tree.tours.length);
});

test("every tour of 5x5 naive from a corner: 3.47 million events, every subtree's size exact", () => {
  const codes = search(5, 5, 0, { every: true }), tree = new SearchTree(25);
  tree.push(codes);
  const size = new Int32Array(tree.size), stack = [];
  let k = 0;
  for (const code of codes) {
    if (code === "found") continue;
    if (code >= 0) stack.push(k++);
    else size[stack[stack.length - 1]] = k - stack.pop();
  }
  while (stack.length) size[stack[stack.length - 1]] = k - stack.pop();
  for (let j = 0; j < tree.size; j++) if (tree.subtreeSize(j) !== size[j]) assert.fail(`subtree of ${j}`);
  assert.equal(tree.tours.length, 304);
});

test("the path at any moment is the ancestors of the last node visited, read from the tree", () => {
  const codes = walk(5, 30_000, 64), tree = new SearchTree(64);
  tree.push(codes);
  const stack = [];
  let visits = 0;
  codes.forEach((code, n) => {
    if (code === "found") return;
    if (code >= 0) stack.push(visits++);
    else stack.pop();
    if (n % 97 === 0 || n === codes.length - 1) {
      assert.deepEqual(tree.path(visits, stack.length), stack, `after event ${n}`);
      const probe = Math.floor(visits / 2);
      assert.equal(tree.onPath(probe, visits, stack.length), stack.includes(probe));
    }
  });
});

test("the lowest and highest depth of any stretch of nodes", () => {
  const codes = walk(6, 50_000, 64), tree = new SearchTree(64);
  tree.push(codes);
  const depths = plainTree(codes).depth, rand = random(7);
  for (let i = 0; i < 500; i++) {
    const from = Math.floor(rand() * depths.length), to = from + 1 + Math.floor(rand() * (depths.length - from));
    const part = depths.slice(from, to);
    assert.deepEqual(tree.range(from, to), [Math.min(...part), Math.max(...part)], `${from}-${to}`);
  }
  assert.deepEqual(tree.range(5, 5), [Infinity, -Infinity]);
});

test("a closed subtree's size is counted only up to the moment shown", () => {
  const tree = new SearchTree(25);
  tree.push([0, 1, 2, -3, 3, -4, -2, 4]); // 0 -> 1 -> {2, 3}; 0 -> 4
  assert.equal(tree.subtreeSize(1), 3);
  assert.equal(tree.subtreeSize(1, 3), 2); // after three visits, node 3 was not made yet
  assert.equal(tree.parent(4), 0);
  assert.deepEqual(tree.path(5, 2), [0, 4]);
});

test("columns sum up the nodes by the pixel, and the node drawn at any depth of one is found", () => {
  const codes = walk(8, 40_000, 64), tree = new SearchTree(64);
  tree.push(codes);
  const { depth, parent } = plainTree(codes);
  const ancestorAt = (k, d) => {
    while (depth[k] > d) k = parent[k];
    return k;
  };
  for (const [from, to, width] of [[0, tree.size, 300], [0, tree.size, 50], [1000, 1100, 300], [5, 6, 10], [0, tree.size, 1]]) {
    const { starts, high } = tree.columns(from, to, width);
    assert.equal(starts[0], from);
    assert.equal(starts[width], to);
    for (let c = 0; c < width; c++) {
      const a = starts[c], b = Math.max(starts[c + 1], a + 1);
      const part = depth.slice(a, b);
      // Wide columns are summed up over whole blocks of 64: their edges move to the nearest.
      const snap = (to - from) / width >= 256 ? 64 : 1, edge = (n) => Math.round(n / snap) * snap;
      const blocks = depth.slice(edge(a), Math.max(c + 1 === width ? to : edge(starts[c + 1]), edge(a) + 1));
      assert.equal(high[c], Math.max(...blocks), `column ${c}`);
      for (const d of [1, 2, Math.floor(high[c] / 2), high[c], high[c] + 1]) {
        const k = part.findIndex((x) => x >= d);
        assert.equal(tree.nodeAt(a, b, d), k < 0 || d < 1 ? -1 : ancestorAt(a + k, d), `column ${c} depth ${d}`);
      }
    }
  }
});

test("a node's parent, first child and siblings, for moving through the tree by keys", () => {
  const codes = walk(9, 20_000, 64), tree = new SearchTree(64);
  tree.push(codes);
  const { parent } = plainTree(codes);
  const children = Array.from({ length: tree.size }, () => []);
  parent.forEach((p, k) => p >= 0 && children[p].push(k));
  for (let k = 0; k < tree.size; k++) {
    assert.equal(tree.firstChild(k), children[k][0] ?? -1, `first child of ${k}`);
    const kin = parent[k] >= 0 ? children[parent[k]] : [k], at = kin.indexOf(k);
    assert.equal(tree.nextSibling(k), kin[at + 1] ?? -1, `next of ${k}`);
    assert.equal(tree.previousSibling(k), at > 0 ? kin[at - 1] : -1, `previous of ${k}`);
  }
});

/** Return a lane-like {tree, codeAt} of these codes, with the events before `kept` let go. */
test("every node keeps its square, named long after its event is let go: 6x6 naive, and 16x16 (256 squares)", () => {
  for (const [rows, cols, order] of [[6, 6, "naive"], [16, 16, "warnsdorff"]]) {
    const codes = search(rows, cols, 0, { order }), tree = new SearchTree(rows * cols);
    tree.push(codes);
    const { event } = plainTree(codes);
    assert.ok(tree.size >= 256);
    for (let k = 0; k < tree.size; k++) assert.equal(tree.squareOf(k), codes[event[k]]);
  }
});

function laneOf(codes, squares, kept = 0) {
  const tree = new SearchTree(squares);
  tree.push(codes);
  return { tree, codeAt: (n) => (n >= kept && n < codes.length ? codes[n] : null) };
}

test("a race's trees part at the first node of another square or depth: naive and Warnsdorff on 5x5", () => {
  const naive = search(5, 5, 0), warnsdorff = search(5, 5, 0, { order: "warnsdorff" });
  const visits = (codes) => {
    const { depth, event } = plainTree(codes);
    return depth.map((d, k) => [d, codes[event[k]]]);
  };
  const a = visits(naive), b = visits(warnsdorff);
  const expected = a.findIndex(([d, square], k) => d !== b[k][0] || square !== b[k][1]);
  assert.ok(expected > 0);
  assert.equal(partingNode(laneOf(naive, 25), laneOf(warnsdorff, 25)), expected);
  // A race's second search at a backtrack where the first went on: the depths differ.
  const deeper = [0, 7, 4, 13, 2], back = [0, 7, 4, 13, -14, 2];
  assert.equal(partingNode(laneOf(deeper, 25), laneOf(back, 25)), 4);
});

test("while a race's trees are alike so far they have not parted, and a tree grown later parts them", () => {
  const first = laneOf([0, 7, 4], 25), codes = [0, 7];
  const second = { tree: new SearchTree(25), codeAt: (n) => codes[n] ?? null };
  second.tree.push(codes);
  assert.equal(partingNode(first, second), -1);
  codes.push(9);
  second.tree.push([9]);
  assert.equal(partingNode(first, second), 2);
  // Events the page has let go are compared all the same, by the squares the trees keep.
  assert.equal(partingNode(laneOf([0, 7, 4], 25, 3), laneOf([0, 7, 9], 25, 3)), 2);
  const skipped = laneOf([0, 7, 4], 25);
  skipped.tree.whole = false;
  assert.equal(partingNode(skipped, laneOf([0, 7, 9], 25)), null);
});

/**
 * Return a skip's outline of codes from event `from` on, as the server sends it in reports of
 * `report` events (see server/engine/outline.py), each in stretches of `slice` events.
 */
function outlineOf(codes, from, report, slice) {
  const path = [], squares = [], parts = [];
  let nodes = 0;
  const visit = (code) => {
    path.push(nodes++);
    squares.push(code);
  };
  const back = () => {
    path.pop();
    squares.pop();
  };
  for (const code of codes.slice(0, from)) {
    if (code === "found") continue;
    if (code >= 0) visit(code);
    else back();
  }
  for (let a = from; a < codes.length; a += report) {
    const part = { from: nodes, stretches: [], tours: [], pathFrom: path.length };
    for (let b = a; b < Math.min(a + report, codes.length); b += slice) {
      let count = 0, low = Infinity, high = -Infinity;
      for (const code of codes.slice(b, Math.min(b + slice, a + report, codes.length))) {
        if (code === "found") part.tours.push(nodes - 1);
        else if (code >= 0) {
          visit(code);
          count += 1;
          low = Math.min(low, path.length);
          high = Math.max(high, path.length);
          part.pathFrom = Math.min(part.pathFrom, path.length - 1);
        } else {
          back();
          part.pathFrom = Math.min(part.pathFrom, path.length);
        }
      }
      if (count) part.stretches.push(count, low, high);
    }
    part.pathNodes = path.slice(part.pathFrom);
    parts.push([part, [...squares]]);
  }
  return parts;
}

test("a skip's outline stands for its nodes: count, depths, tours, the newest path, and events after it", () => {
  const codes = search(5, 5, 0, { every: true }).slice(0, 200_000), played = 30_000, skipped = 150_000;
  const whole = new SearchTree(25), tree = new SearchTree(25);
  whole.push(codes);
  tree.push(codes.slice(0, played));
  for (const [part, path] of outlineOf(codes.slice(0, skipped), played, 20_000, 3000)) assert.ok(tree.outline(part, path));
  tree.push(codes.slice(skipped)); // played after the skip was paused
  assert.equal(tree.size, whole.size);
  assert.ok(tree.exact < tree.size);
  assert.deepEqual(tree.tours, whole.tours);
  assert.equal(tree.depth, whole.depth);
  const path = whole.path(whole.size, whole.depth);
  assert.deepEqual(tree.path(tree.size, tree.depth), path);
  // Each stretch's deepest node is the tree's; a column never drawn shallower than its nodes.
  const s = tree.stretches;
  for (let i = 0; i < s.from.length; i++) {
    const to = s.from[i + 1] ?? tree.size;
    assert.equal(tree.outlinedHigh(s.from[i], to), whole.range(s.from[i], to)[1]);
    assert.equal(s.low[i], whole.range(s.from[i], to)[0]);
  }
  const drawn = tree.columns(0, tree.size, 700).high, exact = whole.columns(0, whole.size, 700).high;
  for (let c = 0; c < 700; c++) assert.ok(drawn[c] >= exact[c], `column ${c}`);
  // The newest path's nodes are found where they are drawn, with their subtrees; a node held one
  // by one keeps its own, or at least the part of it before the outline.
  for (const [d, k] of path.entries()) {
    assert.equal(tree.depthAt(k), d + 1);
    assert.equal(tree.subtreeSize(k), whole.subtreeSize(k));
    assert.deepEqual(tree.boxOf(k, tree.size, tree.size), [k, k + whole.subtreeSize(k), d + 1]);
    let c = Math.floor((k * 70_000) / tree.size);
    while (columnStart(0, tree.size, 70_000, c + 1) <= k) c += 1; // the column that holds k
    if (k > tree.exact + 100) assert.equal(tree.pointAt(0, tree.size, 70_000, c, d + 1), k);
  }
  for (let k = 0; k < tree.exact; k += 97) {
    const size = tree.subtreeSize(k), exactSize = whole.subtreeSize(k);
    if (k + exactSize <= tree.exact) assert.equal(size, exactSize, `subtree of ${k}`);
    else assert.ok(size <= exactSize && k + size >= tree.exact, `subtree of ${k}`);
  }
  // A node of the outline off the path is drawn as its stretch.
  const off = s.from[3] + 1;
  assert.equal(tree.depthAt(off), 0);
  assert.deepEqual(tree.boxOf(off, tree.size, tree.size), [s.from[3], s.from[4], s.low[3]]);
});

test("an outline that does not begin where the tree ends is refused", () => {
  const codes = search(5, 5, 0), tree = new SearchTree(25);
  tree.push(codes.slice(0, 1000));
  const [[part, path]] = outlineOf(codes, 1200, 10_000, 500);
  assert.equal(tree.outline(part, path), false);
  assert.equal(tree.stretches, null);
});

test("a skip of hours keeps its outline's stretches bounded", () => {
  const tree = new SearchTree(64);
  tree.push([0, 1, 2]);
  for (let i = 0; i < 200_000; i++) {
    const part = { from: tree.size, stretches: [10, 3, 3 + (i % 50)], tours: [], pathFrom: 3, pathNodes: [] };
    assert.ok(tree.outline(part, [0, 1, 2]));
  }
  assert.equal(tree.size, 3 + 2_000_000);
  assert.ok(tree.stretches.from.length < 1 << 16);
  assert.equal(tree.outlinedHigh(0, tree.size), 52);
  assert.equal(tree.stretchAt(tree.size - 1).to, tree.size);
});

test("a race skipped before its trees part cannot say where they part; one played past it can", () => {
  const naive = search(5, 5, 0), warnsdorff = search(5, 5, 0, { order: "warnsdorff" });
  const skipped = (codes, played) => {
    const lane = laneOf(codes.slice(0, played), 25);
    for (const [part, path] of outlineOf(codes, played, 5000, 2000)) assert.ok(lane.tree.outline(part, path));
    return lane;
  };
  assert.equal(partingNode(skipped(naive, 3), skipped(warnsdorff, 3)), null);
  const parting = partingNode(laneOf(naive, 25), laneOf(warnsdorff, 25));
  assert.equal(partingNode(skipped(naive, 400), skipped(warnsdorff, 400)), parting);
});

test("the outlined part's path names its squares, and the keys walk its path and stretches", () => {
  const codes = search(5, 5, 0, { every: true }).slice(0, 60_000), tree = new SearchTree(25);
  tree.push(codes.slice(0, 20));
  const parts = outlineOf(codes, 20, 30_000, 1000);
  for (const [part, path] of parts) assert.ok(tree.outline(part, path));
  const squares = parts.at(-1)[1], path = tree.path(tree.size, tree.depth);
  for (const [d, k] of path.entries()) {
    if (k < tree.exact) continue;
    assert.equal(tree.outlinedSquare(k), squares[d]);
    assert.equal(tree.outlinedMove(k, "ArrowUp"), path[d - 1]);
    assert.equal(tree.outlinedMove(k, "ArrowDown"), path[d + 1] ?? -1);
  }
  const s = tree.stretches, k = s.from[2] + 5;
  assert.equal(tree.outlinedSquare(k), null);
  assert.equal(tree.outlinedMove(k, "ArrowLeft"), s.from[1]);
  assert.equal(tree.outlinedMove(k, "ArrowRight"), s.from[3]);
  assert.equal(tree.outlinedMove(s.from[0], "ArrowLeft"), -1);
  // Up from a stretch: the deepest node of the newest path above it that came before it.
  const up = tree.outlinedMove(k, "ArrowUp");
  const expected = path.slice(0, s.low[2] - 1).filter((node) => node < k).at(-1);
  assert.equal(up, expected);
});
