// The textbook's six-vertex example graph, drawn from a scene: vertices white or gray, numbered
// in visit order, the path, and a mark on a vertex the search backs out of.
import { STYLE } from "./theme.js";
import { knightSquare } from "../model.js";
import { BacktrackMarks, fitCanvas, frameRequester, frameTime, watchSize } from "./canvas.js";

// Where each vertex sits, as fractions of the canvas, after the textbook's figure.
const PLACES = [[0.12, 0.5], [0.4, 0.18], [0.88, 0.18], [0.4, 0.82], [0.66, 0.82], [0.88, 0.5]];
const ASPECT = 1.6; // width over height

export class GraphView {
  /** Draw into canvas, sized to fit frame (an element whose size the page's layout sets). */
  constructor(canvas, frame) {
    this.canvas = canvas;
    this.frame = frame;
    this.ctx = canvas.getContext("2d");
    this.scene = null;
    this.size = null;
    // Twice the board's time: a vertex is bigger than a square, and seen from further back.
    this.marks = new BacktrackMarks(STYLE.backtrackMs * 2);
    this.invalidate = frameRequester((now) => this.draw(now));
    watchSize(frame, () => this.fit());
  }

  /**
   * Show scene on the next frame: {model, names, moves, hold, reducedMotion}, names being the
   * vertices' names and moves each vertex's out-neighbours; null stops drawing.
   */
  render(scene) {
    const old = this.scene;
    this.scene = scene;
    if (!scene) return;
    // Shown again, the canvas may have been sized by another view meanwhile.
    if (!old) this.fit();
    else this.invalidate();
  }

  /** Return -1: vertices are not picked by pointing. */
  squareAt() {
    return -1;
  }

  fit() {
    if (!this.scene) return;
    // The frame's box inside its borders: the canvas must fit in it.
    const width = this.frame.clientWidth, height = this.frame.clientHeight;
    const w = Math.max(1, Math.floor(Math.min(width, height * ASPECT))), h = Math.floor(w / ASPECT);
    this.ctx = fitCanvas(this.canvas, w, h);
    this.size = [w, h];
    // Sizing the canvas erased it: painted on the next frame, it would show empty on this one.
    this.draw(frameTime());
  }

  point(v) {
    return [PLACES[v][0] * this.size[0], PLACES[v][1] * this.size[1]];
  }

  draw(now) {
    const scene = this.scene;
    if (!scene || !this.size) return;
    const { model: m, names, moves } = scene;
    const held = scene.hold || scene.reducedMotion;
    const fading = this.marks.update(m, now, held);
    const marked = new Map(this.marks.shown(now, held));
    const ctx = this.ctx, [w, h] = this.size, r = Math.min(w, h) * 0.085;
    ctx.clearRect(0, 0, w, h);
    // Edges, as arrows; those on the path drawn heavier.
    const onPath = new Set(m.path.slice(1).map((v, i) => `${m.path[i]}>${v}`));
    moves.forEach((targets, a) => targets.forEach((b) => {
      const [x0, y0] = this.point(a), [x1, y1] = this.point(b);
      const len = Math.hypot(x1 - x0, y1 - y0), ux = (x1 - x0) / len, uy = (y1 - y0) / len;
      const sx = x0 + ux * r, sy = y0 + uy * r, ex = x1 - ux * r, ey = y1 - uy * r;
      const heavy = onPath.has(`${a}>${b}`);
      ctx.strokeStyle = ctx.fillStyle = heavy ? STYLE.path : STYLE.grid;
      ctx.lineWidth = heavy ? r * 0.16 : r * 0.07;
      ctx.beginPath();
      ctx.moveTo(sx, sy);
      ctx.lineTo(ex, ey);
      ctx.stroke();
      const head = r * 0.45;
      ctx.beginPath();
      ctx.moveTo(ex, ey);
      ctx.lineTo(ex - ux * head - uy * head * 0.5, ey - uy * head + ux * head * 0.5);
      ctx.lineTo(ex - ux * head + uy * head * 0.5, ey - uy * head - ux * head * 0.5);
      ctx.fill();
    }));
    const here = knightSquare(m);
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    names.forEach((name, v) => {
      const [x, y] = this.point(v);
      const fill = m.numbers[v] ? (v === here ? STYLE.current : STYLE.gray) : STYLE.square;
      ctx.fillStyle = fill;
      ctx.strokeStyle = v === m.start ? STYLE.start : STYLE.knight;
      ctx.lineWidth = v === m.start ? r * 0.16 : r * 0.06;
      ctx.beginPath();
      ctx.arc(x, y, r, 0, 2 * Math.PI);
      ctx.fill();
      const strength = marked.get(v) ?? 0;
      if (strength) {
        ctx.globalAlpha = strength;
        ctx.fillStyle = STYLE.backtrack;
        ctx.fill();
        ctx.globalAlpha = 1;
      }
      ctx.stroke();
      // White on the mark while it is strong, dark again as it fades.
      ctx.fillStyle = strength > 0.5 ? "#ffffff" : STYLE.grayText;
      ctx.font = STYLE.font.replace("{size}", Math.round(r * 0.8));
      ctx.fillText(name, x, y);
      if (m.numbers[v]) {
        ctx.font = STYLE.font.replace("{size}", Math.round(r * 0.5));
        ctx.fillStyle = STYLE.knight;
        ctx.fillText(String(m.numbers[v]), x + r * 0.95, y - r * 0.95);
      }
    });
    if (fading) this.invalidate();
  }
}
