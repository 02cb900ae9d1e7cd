// A picture of the search tree as an icicle: the start square on top, each node under its parent,
// as wide as its subtree, left to right in the order the search made them. The branch the knight
// is on is drawn in the path's colour; everything left of it is closed: dead ends, and tours,
// which are marked. Each column of pixels sums up the nodes it covers (see SearchTree.columns),
// so a frame costs the pixels, never the nodes.
import { STYLE } from "./theme.js";
import { CanvasView } from "./canvas.js";

const TOUR_MARK = 4; // px: half the width of the triangle under a tour's column
const KNIGHT_MARK = 5; // px: the least width and height of the knight's node
const NAMED_WIDTH = 22; // px: the least width of a node whose square is written under it
const NAME_SIZE = 11; // px: the names' type
const SLIVER = 4; // px: a tree drawn narrower than this (a race's smaller one, on one scale) is pointed at
const SLIVER_SIZE = 13; // px: the pointer's type

/**
 * Return the node under (x, y), CSS pixels in a picture width x height of data (as render()
 * takes it), or -1 for none.
 */
export function nodeUnder({ tree, squares, from, to }, width, height, x, y) {
  const columns = Math.floor(width), c = Math.floor(x), depth = 1 + Math.floor((y / height) * squares);
  if (c < 0 || c >= columns || to <= from) return -1;
  return tree.pointAt(from, to, columns, c, depth);
}

/** The drawing of a tree picture, into any 2D context: the page's panel, or a clip's frames. */
export class TreePainter {
  /** Draw with ctx, a 2D context set to draw in CSS pixels. */
  constructor(ctx) {
    this.ctx = ctx;
  }

  /**
   * Write each shown node's square under its box (few nodes are shown: the picture is zoomed in).
   * Below a node its column is empty (its children have columns of their own), so a name fits
   * there however thin the rows; a node on the last row is named over the bottom of its column.
   * Return the names written, in order.
   */
  name(data, columns, row, height) {
    const { tree, visits, from, to, nameOf, known = visits } = data, ctx = this.ctx;
    const scale = columns / (to - from), named = [];
    ctx.font = STYLE.quietFont.replace("{size}", NAME_SIZE);
    ctx.textAlign = "center";
    ctx.textBaseline = "top";
    for (let k = from; k < Math.min(to, known, tree.exact); k++) {
      const name = nameOf(k), x = (k - from + 0.5) * scale;
      const top = Math.min(tree.depthOf(k) * row + 1, height - NAME_SIZE - 3);
      const wide = Math.min(ctx.measureText(name).width, scale - 4) + 4;
      ctx.fillStyle = STYLE.paper;
      ctx.fillRect(x - wide / 2, top, wide, NAME_SIZE + 2);
      ctx.fillStyle = STYLE.grayText;
      ctx.fillText(name, x, top + 1, scale - 4);
      named.push(name);
    }
    return named;
  }

  /**
   * Draw data (see TreePicture.render) in a width x height box at the context's origin; return
   * the squares named in it (zoomed in far enough), in order, else null.
   */
  draw(data, width, height) {
    const ctx = this.ctx;
    const { tree, visits, length, squares, from, to, pointed, parting, known = visits } = data;
    if (!known || to <= from || width < 2 || height < 2) return null;
    const columns = Math.floor(width), row = height / squares;
    const { starts, high } = tree.columns(from, to, columns);
    const path = tree.path(visits, length);
    // Past the moment shown, the knight's ancestors reach on over what their subtrees hold later.
    const ends = known > visits ? path.map((k) => k + tree.subtreeSize(k, known)) : [];
    let reach = ends.length;
    // Column by column: the rows of the knight's branch, then the closed ones under and beside it.
    let onPath = 0;
    for (let c = 0; c < columns; c++) {
      const end = Math.max(starts[c + 1], starts[c] + 1);
      if (starts[c] >= known) break;
      const deepest = Math.min(high[c], squares);
      if (starts[c] >= visits) {
        while (reach > 0 && ends[reach - 1] <= starts[c]) reach--;
        const lit = Math.min(reach, deepest);
        ctx.fillStyle = STYLE.path;
        if (lit > 0) ctx.fillRect(c, 0, 1, lit * row);
        ctx.fillStyle = STYLE.treeLater;
        ctx.fillRect(c, lit * row, 1, (deepest - lit) * row);
        continue;
      }
      while (onPath < path.length && path[onPath] < end) onPath++;
      const lit = Math.min(onPath, deepest);
      if (lit > 0) {
        ctx.fillStyle = STYLE.path;
        ctx.fillRect(c, 0, 1, lit * row);
      }
      if (deepest > lit) {
        ctx.fillStyle = STYLE.treeClosed;
        ctx.fillRect(c, lit * row, 1, (deepest - lit) * row);
      }
    }
    // On a race's one scale the smaller tree may be a line at the left edge: say where it is.
    const drawn = ((Math.min(known, to) - from) / (to - from)) * columns;
    if (data.sliver && drawn < SLIVER) {
      ctx.font = STYLE.quietFont.replace("{size}", SLIVER_SIZE);
      ctx.textAlign = "left";
      ctx.textBaseline = "middle";
      ctx.fillStyle = STYLE.grayText;
      ctx.fillText(data.sliver, Math.ceil(drawn) + 8, height / 2, width - drawn - 12);
    }
    // Zoomed in far enough, each node's square is named.
    const named = columns / (to - from) >= NAMED_WIDTH ? this.name(data, columns, row, height) : null;
    // Tours: a line down their column and a triangle under it, in the goal's colour.
    ctx.fillStyle = STYLE.depthGoal;
    for (const leaf of tree.tours) {
      if (leaf < from || leaf >= Math.min(to, visits)) continue;
      const x = Math.floor(((leaf - from) / (to - from)) * columns);
      ctx.fillRect(x, 0, 2, height);
      ctx.beginPath();
      ctx.moveTo(x + 1 - TOUR_MARK, height);
      ctx.lineTo(x + 1 + TOUR_MARK, height);
      ctx.lineTo(x + 1, height - TOUR_MARK * 1.5);
      ctx.fill();
    }
    // Where a race's trees part: a dashed line (not only a colour) down the picture, before the node.
    if (parting >= from && parting < to) {
      // Kept off the frame: in a picture of a whole search, the trees part within its first pixels.
      const x = Math.max(3, Math.round(((parting - from) / (to - from)) * columns)) + 0.5;
      ctx.strokeStyle = STYLE.treeParting;
      ctx.lineWidth = 2;
      ctx.setLineDash([5, 3]);
      ctx.beginPath();
      ctx.moveTo(x, 0);
      ctx.lineTo(x, height);
      ctx.stroke();
      ctx.setLineDash([]);
    }
    // The knight: its node's box, at least a few pixels, in the board's knight square colours.
    const knight = path.at(-1);
    if (knight !== undefined && knight >= from && knight < to) {
      const x = Math.floor(((knight - from) / (to - from)) * columns), tall = Math.max(row, KNIGHT_MARK);
      const top = Math.min((length - 1) * row, height - tall);
      ctx.fillStyle = STYLE.current;
      ctx.strokeStyle = STYLE.currentEdge;
      ctx.lineWidth = 1;
      ctx.fillRect(x - 2, top, KNIGHT_MARK, tall);
      ctx.strokeRect(x - 2.5, top - 0.5, KNIGHT_MARK + 1, tall + 1);
    }
    // The node pointed at or chosen by the keys: its subtree's box, from its row down.
    if (pointed >= from && pointed < Math.min(to, known)) {
      const [first, end, depth] = tree.boxOf(pointed, visits, known);
      const x0 = ((Math.max(first, from) - from) / (to - from)) * columns;
      const x1 = ((Math.min(end, to) - from) / (to - from)) * columns;
      const top = (depth - 1) * row;
      ctx.strokeStyle = STYLE.currentEdge;
      ctx.lineWidth = 2;
      ctx.strokeRect(Math.floor(x0) + 1, top + 1, Math.max(Math.round(x1 - x0), 1) - 1, height - top - 2);
    }
    return named;
  }
}

export class TreePicture extends CanvasView {
  /** Draw into canvas, whose size the page's CSS sets. */
  constructor(canvas) {
    super(canvas);
    this.painter = new TreePainter(this.ctx); // a canvas has one 2D context, kept through its resizes
    // Out of sight (the panel scrolled away, or hidden) it is not drawn: a fast search's frames
    // have better use for the time. It is drawn as it comes into sight.
    this.inSight = true;
    new IntersectionObserver(([entry]) => {
      this.inSight = entry.isIntersecting;
      if (this.inSight) this.invalidate();
    }).observe(canvas);
  }

  /**
   * Show tree (a SearchTree) as it was after visits nodes, with the path length squares long, and
   * the known nodes after them (to known, if given) as still to come, nodes from to to across the
   * width, rows down to depth squares; the node pointed at (or -1)
   * outlined; nameOf(k) names node k's square, written when there is room; parting (or -1) the
   * node where a race's two trees part, marked by a dashed line; sliver (or none) the words
   * beside a tree drawn only a few pixels wide.
   */
  render(data) {
    this.data = data;
    if (this.inSight) this.draw();
  }

  draw() {
    this.clear();
    const named = this.data && this.painter.draw(this.data, ...this.size);
    // The squares written, in order, for tests to read.
    const text = named?.join(" ");
    if (text !== this.canvas.dataset.named) {
      if (text === undefined) delete this.canvas.dataset.named;
      else this.canvas.dataset.named = text;
    }
  }
}
