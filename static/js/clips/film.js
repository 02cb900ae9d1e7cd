// A clip's frames: the board painted off the page by the board's own drawing core, at a size
// and scale of the clip's choosing, by the clip's simulated clock, with the search tree beside it
// if asked, over a strip of caption lines that make the clip explain itself on a slide.
import { evenSize } from "./pacing.js";
import { STYLE } from "../paint/theme.js";
import { BoardPainter } from "../paint/board.js";
import { TreePainter } from "../paint/tree.js";

const CAPTION = { font: 15, line: 21, pad: 10 }; // the caption's type and spacing, in CSS pixels
const CAPTION_LINES = 2;
const MARGIN = 12;     // paper around the board, so that it does not touch the frame's edges
const MIN_WIDTH = 400; // room for the caption under a board of one or two files
const TREE_SHARE = 0.4; // of the box's width, for the search tree beside the board

export class Film {
  /**
   * Paint a rows x cols board laid out in a width x height box (CSS pixels, the caption
   * included) at scale pixels a CSS pixel, on a canvas of its own whose sides are even; tree:
   * whether the search tree goes beside the board, as tall as it; read: whether each frame's
   * pixels are read back (kept in memory rather than on the GPU, then).
   */
  constructor(rows, cols, { width, height, scale, tree = false, read = false }) {
    this.canvas = document.createElement("canvas");
    this.scale = scale;
    this.ctx = this.canvas.getContext("2d", { willReadFrequently: read });
    this.painter = new BoardPainter(this.ctx);
    this.trees = tree ? new TreePainter(this.ctx) : null;
    const caption = CAPTION_LINES * CAPTION.line + 2 * CAPTION.pad;
    const beside = tree ? Math.round(width * TREE_SHARE) + MARGIN : 0;
    const g = this.painter.fit(rows, cols, width - 2 * MARGIN - beside, height - MARGIN - caption);
    [this.canvas.width, this.canvas.height] = evenSize(Math.max(g.width + 2 * MARGIN + beside, MIN_WIDTH),
      MARGIN + g.height + caption, scale);
    this.width = this.canvas.width / scale;   // in CSS pixels, as the painter draws
    this.height = this.canvas.height / scale;
    this.left = Math.round((this.width - g.width - beside) / 2);
    this.captionTop = MARGIN + g.height;
    // The tree's box: right of the board, as tall as the board's squares and their labels.
    this.treeBox = tree && { left: this.left + g.width + MARGIN, width: beside - MARGIN, height: g.height };
  }

  /** Note scene at time now (ms) between frames: each of several events a frame, at its own time. */
  note(scene, now) {
    this.painter.note(scene, now);
  }

  /**
   * Paint scene (see BoardView.render) as at time now (ms), with the caption's lines under it
   * and tree (data for TreePainter.draw; null for none) beside it.
   */
  frame(scene, now, lines, tree = null) {
    const { ctx, scale } = this;
    ctx.setTransform(scale, 0, 0, scale, 0, 0);
    ctx.fillStyle = STYLE.paper;
    ctx.fillRect(0, 0, this.width, this.height);
    ctx.setTransform(scale, 0, 0, scale, this.left * scale, MARGIN * scale);
    this.painter.draw(scene, now);
    if (this.trees && tree) {
      const { left, width, height } = this.treeBox;
      ctx.setTransform(scale, 0, 0, scale, left * scale, MARGIN * scale);
      ctx.strokeStyle = STYLE.grid;
      ctx.lineWidth = 1;
      ctx.strokeRect(0.5, 0.5, width - 1, height - 1);
      this.trees.draw(tree, width, height);
    }
    ctx.setTransform(scale, 0, 0, scale, 0, 0);
    this.caption(lines);
  }

  /** Write lines centred in the strip under the board: the first as a title, the rest quieter. */
  caption(lines) {
    const { ctx } = this;
    const room = this.width - 2 * CAPTION.pad;
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    lines.forEach((text, i) => {
      const font = i ? STYLE.quietFont : STYLE.font;
      ctx.font = font.replace("{size}", CAPTION.font);
      // A long line (a long ordering's name, big numbers) is set smaller rather than cut.
      const size = Math.min(CAPTION.font, Math.floor((CAPTION.font * room) / ctx.measureText(text).width));
      ctx.font = font.replace("{size}", size);
      ctx.fillStyle = i ? STYLE.coordinate : STYLE.grayText;
      ctx.fillText(text, this.width / 2, this.captionTop + CAPTION.pad + (i + 0.5) * CAPTION.line);
    });
  }
}
