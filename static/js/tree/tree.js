// The search tree, as the events grow it. Every visit is a node, numbered in the order the search
// made them (depth-first order), under the node the knight came from. In that order a node's
// subtree is the run of nodes after it that lie deeper than it, so the whole tree is one depth
// per node (a byte each, for boards of up to 255 squares), and the rest is found from the depths:
// a node's subtree and its size, its ancestors, the path at any moment, the event that made it.
// Each node's square is kept beside its depth (as many bytes again), so that every node is named
// long after the page has let its event go.
// Depth is the path's length once the node is on it: the start square is node 0, at depth 1.
// The depths and the searches over them: depths.js.
//
// A skip sends no events, but an outline of the nodes it searched (server/engine/outline.py):
// stretches of nodes with their count and their shallowest and deepest node, the tours, and the
// path's nodes at the end. After one, the tree is the nodes held one by one (`exact` of them),
// then stretches up to `size`; events that come after it are summed up as stretches too. The
// path is known at the newest moment only there.

import { BLOCK, NodeDepths } from "./depths.js";

const MAX_STRETCHES = 1 << 16; // stretches kept before each two neighbours are made one

/** Return the first node of column c, when width columns show the nodes from to to. */
export function columnStart(from, to, width, c) {
  return from + Math.floor((c * (to - from)) / width);
}

export class SearchTree extends NodeDepths {
  /** Make an empty tree for a board of this many squares. */
  constructor(squares) {
    super();
    this.reset(squares);
  }

  /** Start over: no nodes. */
  reset(squares = this.squares) {
    super.reset(squares);
    this.stretches = null; // after a skip: {from, low, high} arrays, the outline of the nodes after exact
    this.pathNodes = null; // after a skip: the node of each square of the newest path
    this.pathSquares = null; // and its square
    this.depth = 0;   // the path's length after the last event
    this.tours = [];  // the last node of each tour found, in order
    this.whole = true; // every event since the start was pushed (a jump over some leaves a part)
  }

  /** Grow the tree by wire codes: a visit is a node, a backtrack shortens the path, "found" marks a tour. */
  push(codes) {
    if (this.stretches) {
      this.pushOutlined(codes);
      return;
    }
    for (const code of codes) {
      if (code === "found") this.tours.push(this.size - 1);
      else if (code >= 0) this.add(++this.depth, code);
      else this.depth -= 1;
    }
  }

  /** Grow the outlined part by wire codes: their nodes as one stretch. */
  pushOutlined(codes) {
    const from = this.size, path = this.pathNodes, squares = this.pathSquares;
    let low = Infinity, high = -Infinity;
    for (const code of codes) {
      if (code === "found") this.tours.push(this.size - 1);
      else if (code >= 0) {
        squares[this.depth] = code;
        path[this.depth++] = this.size++;
        if (this.depth < low) low = this.depth;
        if (this.depth > high) high = this.depth;
      } else this.depth -= 1;
    }
    path.length = squares.length = this.depth;
    if (this.size > from) this.stretch(from, low, high);
  }

  /**
   * Grow the tree by an outline of events not sent (see server/engine/outline.py), after which
   * the path is the squares path; return whether it fitted: false if it does not begin at the
   * tree's last node (the tree was not whole before it).
   */
  outline({ from, stretches, tours, pathFrom, pathNodes }, path) {
    if (from !== this.size || pathFrom > this.depth || pathFrom + pathNodes.length !== path.length) return false;
    if (!this.stretches) {
      this.pathNodes = this.path(this.size, this.depth);
      this.stretches = { from: [], low: [], high: [] };
    }
    for (let i = 0; i < stretches.length; i += 3) {
      this.stretch(this.size, stretches[i + 1], stretches[i + 2]);
      this.size += stretches[i];
    }
    this.tours.push(...tours);
    this.pathNodes = this.pathNodes.slice(0, pathFrom).concat(pathNodes);
    this.pathSquares = [...path];
    this.depth = this.pathNodes.length;
    return true;
  }

  /** Return the square of node k of the outlined part on the newest path, or null for another. */
  outlinedSquare(k) {
    const depth = this.depthAt(k);
    return depth ? this.pathSquares[depth - 1] : null;
  }

  /**
   * Return the node the keys go to from node k of the outlined part (or the root, when no node
   * is held one by one), by key, or -1: on the newest path, up and down along it; left and
   * right, the stretches before and after; up from a stretch, the deepest node of the newest
   * path above it (its own parent is outlined with it).
   */
  outlinedMove(k, key) {
    const s = this.stretches, depth = this.depthAt(k), i = k >= this.exact ? this.stretchOf(k) : -1;
    const up = () => {
      for (let d = depth ? depth - 1 : s.low[i] - 1; d >= 1; d--) if (this.pathNodes[d - 1] < k) return this.pathNodes[d - 1];
      return -1;
    };
    const moves = {
      ArrowUp: up,
      ArrowDown: () => (depth && this.pathNodes[depth] !== undefined ? this.pathNodes[depth] : -1),
      ArrowLeft: () => (i > 0 ? s.from[i - 1] : -1),
      ArrowRight: () => (i + 1 < s.from.length ? s.from[i + 1] : -1),
    };
    return moves[key]();
  }

  stretch(from, low, high) {
    const s = this.stretches;
    s.first = null;
    s.from.push(from);
    s.low.push(low);
    s.high.push(high);
    if (s.from.length < MAX_STRETCHES) return;
    // A search skipped for hours: each two neighbours made one, so the outline's memory stays bounded.
    for (const [key, pick] of [["from", (a) => a], ["low", Math.min], ["high", Math.max]]) {
      const values = s[key];
      s[key] = values.filter((_, i) => i % 2 === 0).map((a, i) => pick(a, values[2 * i + 1] ?? a));
    }
  }

  /** Return the index of the stretch that holds node k (one of the outlined part). */
  stretchOf(k) {
    const from = this.stretches.from;
    let lo = 0, hi = from.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (from[mid] <= k) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** Return the outlined stretch that holds node k: {from, to, low, high}. */
  stretchAt(k) {
    const s = this.stretches, i = this.stretchOf(k);
    return { from: s.from[i], to: s.from[i + 1] ?? this.size, low: s.low[i], high: s.high[i] };
  }

  /** Return the deepest depth of the outlined nodes from to to (not included), or 0 for none. */
  outlinedHigh(from, to) {
    if (!this.stretches || to <= this.exact || from >= this.size) return 0;
    const s = this.stretches;
    let high = 0;
    for (let i = this.stretchOf(Math.max(from, this.exact)); i < s.from.length && s.from[i] < to; i++) {
      if (s.high[i] > high) high = s.high[i];
    }
    return high;
  }

  /**
   * Return the number of nodes in node k's subtree, k included, among the first visits nodes.
   * Of a node whose subtree goes on into the outlined part, off the newest path, at least that
   * many: its subtree ends in the first stretch that goes as shallow as it.
   */
  subtreeSize(k, visits = this.size) {
    // A node of the outlined part: on the newest path its subtree is every node after it; off
    // it, its stretch stands for it.
    if (k >= this.exact) return Math.max(0, Math.min(this.depthAt(k) ? this.size : this.stretchAt(k).to, visits) - k);
    const depth = this.depthOf(k), end = this.nextAtMost(k, depth);
    if (end < this.exact || !this.stretches) return Math.min(end, visits) - k;
    if (visits > this.exact && this.pathNodes[depth - 1] === k) return visits - k;
    return Math.min(this.firstAsShallow(depth), visits) - k;
  }

  /** Return the first node of the first stretch that goes as shallow as depth, or size if none does. */
  firstAsShallow(depth) {
    const s = this.stretches;
    if (!s.first) {
      // s.first[d]: that stretch's index for depth d, found in one pass as the lowest so far falls.
      s.first = [];
      for (let i = 0, lowest = this.squares + 1; i < s.from.length; i++) {
        for (let d = s.low[i]; d < lowest; d++) s.first[d] = i;
        lowest = Math.min(lowest, s.low[i]);
      }
    }
    const i = s.first[depth];
    return i === undefined ? this.size : s.from[i];
  }

  /** Return whether node k is on the path after visits nodes, when the path is length squares long. */
  onPath(k, visits, length) {
    if (visits > this.exact) return this.path(visits, length).includes(k);
    const depth = this.depthOf(k);
    return k < visits && depth <= length && this.ancestor(visits - 1, depth) === k;
  }

  /** Return node k's parent, or -1 for the root. */
  parent(k) {
    return this.lastAtMost(k, this.depthOf(k) - 1);
  }

  /** Return node k's ancestor at depth (at most node k's own), k itself at its own depth. */
  ancestor(k, depth) {
    return depth === this.depthOf(k) ? k : this.lastAtMost(k, depth);
  }

  /**
   * Return node k's depth as far as the tree knows it: 0 for a node of the outlined part that is
   * not on the newest path.
   */
  depthAt(k) {
    return k < this.exact ? this.depthOf(k) : this.pathNodes.indexOf(k) + 1;
  }

  /**
   * Return [first node, end, depth] of the box drawn for node k: its subtree's, among the first
   * visits nodes (known, for a node the search comes to later); of a node of the outlined part
   * off the newest path, its stretch's.
   */
  boxOf(k, visits, known) {
    const depth = this.depthAt(k), upTo = k < visits ? visits : known;
    if (depth) return [k, k + this.subtreeSize(k, upTo), depth];
    const { from, to, low } = this.stretchAt(k);
    return [from, Math.min(to, upTo), low];
  }

  /** Return the nodes of the path after visits nodes, when the path is length squares long. */
  path(visits, length) {
    // After a skip the path is known at the newest moment: earlier ones keep what they share with it.
    if (visits > this.exact) return this.pathNodes.slice(0, length).filter((k) => k < visits);
    const nodes = new Array(length);
    let k = visits - 1;
    for (let d = Math.min(length, visits ? this.depthOf(k) : 0); d >= 1; d--) {
      k = this.ancestor(k, d);
      nodes[d - 1] = k;
    }
    return nodes;
  }

  /** Return node k's first child, or -1 if the search went no deeper from it. */
  firstChild(k) {
    return k + 1 < this.exact && this.depthOf(k + 1) === this.depthOf(k) + 1 ? k + 1 : -1;
  }

  /** Return the sibling the search tried after node k, or -1 if none (yet). */
  nextSibling(k) {
    const j = this.nextAtMost(k, this.depthOf(k));
    return j < this.exact && this.depthOf(j) === this.depthOf(k) ? j : -1;
  }

  /** Return the sibling the search tried before node k, or -1 if none. */
  previousSibling(k) {
    if (k === 0 || this.depthOf(k - 1) < this.depthOf(k)) return -1; // k - 1 is its parent
    return this.ancestor(k - 1, this.depthOf(k));
  }

  /**
   * Sum up the nodes from to to (not included) in width columns, as a picture of the tree draws
   * them: column c holds nodes starts[c] to starts[c + 1] (at least one: zoomed in, a node spans
   * columns), and its ancestors go down to depth high[c] (with many nodes a column, its edges are
   * those of the nearest blocks of 64). The cost is the columns', not the nodes'.
   */
  columns(from, to, width) {
    const starts = new Float64Array(width + 1), high = new Uint16Array(width);
    for (let c = 0; c <= width; c++) starts[c] = columnStart(from, to, width, c);
    // A column of many blocks is summed up from whole blocks: its edges moved to the nearest
    // block's, so no node is read one by one but in the last block, not yet whole.
    const snap = (to - from) / width >= 4 * BLOCK ? BLOCK : 1;
    for (let c = 0; c < width; c++) {
      const a = Math.round(starts[c] / snap) * snap;
      const b = Math.max(c + 1 === width ? starts[width] : Math.round(starts[c + 1] / snap) * snap, a + 1);
      high[c] = Math.max(a < this.exact ? this.range(a, Math.min(b, this.exact))[1] : 0, this.outlinedHigh(a, b));
    }
    return { starts, high };
  }

  /** Return the node drawn at column c of width columns of nodes from to to, at depth; or -1. */
  pointAt(from, to, width, c, depth) {
    const a = columnStart(from, to, width, c), b = Math.max(columnStart(from, to, width, c + 1), a + 1);
    if (a < this.exact || depth < 1) return this.nodeAt(a, Math.min(b, this.exact), depth);
    if (depth > this.outlinedHigh(a, b)) return -1;
    // In the outlined part: the newest path's node, if the column holds it or lies in its subtree.
    const onPath = this.pathNodes[depth - 1];
    if (onPath !== undefined && onPath < b) return onPath;
    // Else an ancestor held one by one, if no stretch before the column went as shallow; else
    // the column's own stretch stands for it.
    const s = this.stretches, last = this.stretchOf(a);
    for (let i = 0; i <= last; i++) if (s.low[i] <= depth) return a;
    return this.lastAtMost(this.exact, depth);
  }

  /**
   * Return the node drawn at depth in the column of nodes from to to: the ancestor at that depth
   * of the column's first node that goes so deep, whose subtree spans the column; or -1.
   */
  nodeAt(from, to, depth) {
    const k = depth >= 1 ? this.nextAtLeast(from, to, depth) : -1;
    return k < 0 ? -1 : this.ancestor(k, depth);
  }

  /** Return how many tours ended before node k. */
  toursBefore(k) {
    let lo = 0, hi = this.tours.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.tours[mid] < k) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Return the number of the event that visited node k, counting the run's events from 0. */
  eventOf(k) {
    // Before node k's visit came k visits and the tours found, and as many backtracks as it
    // takes to leave the path depth(k) - 1 long.
    return 2 * k + 1 - this.depthOf(k) + this.toursBefore(k);
  }
}
