// The page's board: a canvas sized to fill its frame, drawn by the board's painter only on
// animation frames after a change, the square under a click, and the board as a PNG.
import { BoardPainter } from "../paint/board.js";
import { fitCanvas, frameRequester, frameTime, scaleCanvas, watchSize } from "../paint/canvas.js";

export class BoardView {
  /** Draw into canvas, sized to fill frame (an element whose size the page's layout sets). */
  constructor(canvas, frame) {
    this.canvas = canvas;
    this.frame = frame;
    this.painter = new BoardPainter(canvas.getContext("2d"));
    this.scene = null;
    this.fitted = null; // what the canvas was last fitted to: board, box, density and backing store
    this.invalidate = frameRequester((now) => this.draw(now));
    watchSize(frame, () => this.fit());
  }

  /** Return where the squares and labels go, for the scene's board size (null before a scene). */
  get geometry() {
    return this.painter.geometry;
  }

  /**
   * Show scene on the next frame: {model, hints, degrees, deadEnd, answers, hold, speed, reducedMotion,
   * paced} (see paint; paced: the page renders often enough that a fade needs no frames of its
   * own); null stops drawing, for another view to use the canvas.
   */
  render(scene) {
    const old = this.scene;
    this.scene = scene;
    if (!scene) return;
    if (!old || old.model !== scene.model) this.painter.land();
    const g = this.geometry;
    // Shown again, the canvas may have been sized by another view meanwhile.
    const refit = !old || g.rows !== scene.model.rows || g.cols !== scene.model.cols;
    // The page renders in an animation frame: painted now, the board changes in the same frame
    // as the rest of the page, where a frame of its own would cost as much again.
    if (!(refit && this.fit())) this.draw(frameTime());
  }

  /** Return the square under a point of the page, or -1 (also on the margin). */
  squareAt(clientX, clientY) {
    const g = this.geometry;
    if (!g) return -1;
    const box = this.canvas.getBoundingClientRect();
    const col = Math.floor((clientX - box.left - g.left) / g.cell);
    const row = Math.floor((clientY - box.top - g.top) / g.cell);
    return row >= 0 && row < g.rows && col >= 0 && col < g.cols ? row * g.cols + col : -1;
  }

  /**
   * Return a PNG of the scene as {blob, width, height} (pixels): the board as laid out on screen,
   * at least scale times its size there and at least side pixels on its longer side, so that it
   * is sharp on a slide whatever the screen; coordinates, knight at rest.
   */
  image({ scale = 2, side = 1600 } = {}) {
    const { scene, geometry: g } = this;
    if (!scene || !g) return Promise.reject(new Error("Nothing is shown on the board."));
    const canvas = document.createElement("canvas");
    const ratio = Math.max(scale, side / Math.max(g.width, g.height));
    this.painter.still(scene, scaleCanvas(canvas, g.width, g.height, ratio));
    return new Promise((resolve, reject) => canvas.toBlob((blob) => (blob
      ? resolve({ blob, width: canvas.width, height: canvas.height })
      : reject(new Error("The image could not be made."))), "image/png"));
  }

  /**
   * Lay the board out in the frame's box and paint it at once, unless nothing it depends on has
   * changed; return whether it was painted.
   */
  fit() {
    if (!this.scene) return false;
    const { rows, cols } = this.scene.model;
    // The frame's box inside its borders: the canvas must fit in it.
    const width = this.frame.clientWidth, height = this.frame.clientHeight;
    const key = [rows, cols, width, height, window.devicePixelRatio || 1].join(" ");
    const f = this.fitted;
    if (f && f.key === key && f.backing === `${this.canvas.width} ${this.canvas.height}`) return false;
    const g = this.painter.fit(rows, cols, width, height);
    this.painter.ctx = fitCanvas(this.canvas, g.width, g.height);
    this.fitted = { key, backing: `${this.canvas.width} ${this.canvas.height}` };
    // Sizing the canvas erased it: painted on the next frame, it would show empty on this one.
    this.draw(frameTime());
    return true;
  }

  draw(now) {
    if (!this.scene || !this.geometry) return;
    if (this.painter.draw(this.scene, now) && !this.scene.paced) this.invalidate();
  }
}
