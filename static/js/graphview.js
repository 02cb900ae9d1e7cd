// Draw the textbook's six-vertex example graph from the model: vertices white or gray,
// numbered in visit order, the path, and a flash on a vertex the search backs out of.
import { STYLE } from "./theme.js";
import { knightSquare } from "./model.js";

// Where each vertex sits, as fractions of the canvas, after the textbook's figure.
const PLACES = [[0.12, 0.5], [0.4, 0.18], [0.88, 0.18], [0.4, 0.82], [0.66, 0.82], [0.88, 0.5]];

export class GraphView {
  constructor(canvas, frame) {
    this.canvas = canvas;
    this.frame = frame;
    this.ctx = canvas.getContext("2d");
    this.model = null;
    this.names = [];
    this.moves = [];
    this.flashed = new Map();
    this.seenBacktracks = 0;
    this.queued = false;
    new ResizeObserver(() => this.resize()).observe(frame);
  }

  /** Show a model of the graph with these vertex names and moves (directed edges). */
  show(model, names, moves) {
    this.model = model;
    this.names = names;
    this.moves = moves;
    this.flashed.clear();
    this.seenBacktracks = model.backtracks;
    this.resize();
  }

  /** Stop drawing (another view uses the canvas). */
  hide() {
    this.model = null;
  }

  invalidate() {
    if (this.queued) return;
    this.queued = true;
    requestAnimationFrame((now) => { this.queued = false; this.draw(now); });
  }

  resize() {
    if (!this.model) return;
    const { width, height } = this.frame.getBoundingClientRect();
    const w = Math.max(200, Math.min(width, height * 1.6)), h = w / 1.6;
    const dpr = window.devicePixelRatio || 1;
    this.canvas.style.width = `${w}px`;
    this.canvas.style.height = `${h}px`;
    this.canvas.width = Math.round(w * dpr);
    this.canvas.height = Math.round(h * dpr);
    this.ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    this.size = [w, h];
    this.invalidate();
  }

  point(v) {
    return [PLACES[v][0] * this.size[0], PLACES[v][1] * this.size[1]];
  }

  draw(now) {
    const m = this.model, ctx = this.ctx;
    if (!m || !this.size) return;
    const [w, h] = this.size, r = Math.min(w, h) * 0.085;
    if (m.backtracks > this.seenBacktracks) this.flashed.set(m.lastBacktrack, now);
    this.seenBacktracks = m.backtracks;
    ctx.clearRect(0, 0, w, h);
    // Edges, as arrows; those on the path drawn heavier.
    const onPath = new Set(m.path.slice(1).map((v, i) => `${m.path[i]}>${v}`));
    this.moves.forEach((targets, a) => targets.forEach((b) => {
      const [x0, y0] = this.point(a), [x1, y1] = this.point(b);
      const len = Math.hypot(x1 - x0, y1 - y0), ux = (x1 - x0) / len, uy = (y1 - y0) / len;
      const sx = x0 + ux * r, sy = y0 + uy * r, ex = x1 - ux * r, ey = y1 - uy * r;
      const heavy = onPath.has(`${a}>${b}`);
      ctx.strokeStyle = heavy ? STYLE.path : STYLE.grid;
      ctx.fillStyle = ctx.strokeStyle;
      ctx.lineWidth = heavy ? r * 0.16 : r * 0.07;
      ctx.beginPath(); ctx.moveTo(sx, sy); ctx.lineTo(ex, ey); ctx.stroke();
      const head = r * 0.45;
      ctx.beginPath();
      ctx.moveTo(ex, ey);
      ctx.lineTo(ex - ux * head - uy * head * 0.5, ey - uy * head + ux * head * 0.5);
      ctx.lineTo(ex - ux * head + uy * head * 0.5, ey - uy * head - ux * head * 0.5);
      ctx.fill();
    }));
    const here = knightSquare(m);
    this.names.forEach((name, v) => {
      const [x, y] = this.point(v);
      const since = this.flashed.get(v);
      const flashing = since !== undefined && now - since < STYLE.backtrackMs * 2 && !m.numbers[v];
      ctx.fillStyle = flashing ? STYLE.backtrack : m.numbers[v] ? (v === here ? STYLE.current : STYLE.gray) : STYLE.square;
      ctx.strokeStyle = v === m.start ? STYLE.start : STYLE.knight;
      ctx.lineWidth = v === m.start ? r * 0.16 : r * 0.06;
      ctx.beginPath(); ctx.arc(x, y, r, 0, 2 * Math.PI); ctx.fill(); ctx.stroke();
      ctx.fillStyle = flashing ? "#ffffff" : STYLE.grayText;
      ctx.font = STYLE.font.replace("{size}", Math.round(r * 0.8));
      ctx.textAlign = "center";
      ctx.textBaseline = "middle";
      ctx.fillText(name, x, y);
      if (m.numbers[v]) {
        ctx.font = STYLE.font.replace("{size}", Math.round(r * 0.5));
        ctx.fillStyle = STYLE.knight;
        ctx.fillText(String(m.numbers[v]), x + r * 0.95, y - r * 0.95);
      }
    });
    if ([...this.flashed.values()].some((t) => now - t < STYLE.backtrackMs * 2)) this.invalidate();
  }
}
