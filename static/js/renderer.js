// Draw the board from the model on a canvas; draws only on animation frames after a change.
import { STYLE } from "./theme.js";
import { knightSquare } from "./model.js";

// A knight's head facing left, in a 100 x 100 box.
const KNIGHT = new Path2D(
  "M20 92 L80 92 L80 84 L74 81 C77 60 76 36 62 17 L58 6 L50 16 C40 18 30 26 24 36 " +
  "L14 48 C13 55 18 59 24 57 L36 51 C40 49 44 49 47 51 C40 59 32 69 30 81 L20 84 Z"
);

export class Renderer {
  /** Draw into canvas, sized to fill frame (an element whose size the page's layout sets). */
  constructor(canvas, frame) {
    this.canvas = canvas;
    this.frame = frame;
    this.ctx = canvas.getContext("2d");
    this.model = null;
    this.start = 0;
    this.speed = 0;
    this.cell = 0;
    this.knight = null;      // { from: [x, y], to: square, t0, ms }
    this.flashes = new Map(); // square -> time it was backtracked from
    this.seenBacktracks = 0;
    this.frameRequested = false;
    this.overlay = () => ({ hints: [], degrees: null });
    this.reducedMotion = false;
    new ResizeObserver(() => this.resize()).observe(frame);
  }

  /** Show a new model (a new run or an empty board). */
  show(model) {
    const old = this.model;
    this.model = model;
    this.knight = null;
    this.flashes.clear();
    this.seenBacktracks = model.backtracks;
    if (old && old.rows === model.rows && old.cols === model.cols) this.invalidate();
    else this.resize();
  }

  /** Stop drawing (another view uses the canvas). */
  hide() {
    this.model = null;
  }

  /**
   * Draw what overlay(model) returns with each frame: the moves still to try ({square, rank,
   * onward}) and the moves from each square on an empty board (or null).
   */
  setOverlay(overlay) {
    this.overlay = overlay;
  }

  /** Draw without gliding or fading, for users who ask for less motion. */
  setReducedMotion(reduced) {
    this.reducedMotion = reduced;
  }

  /** Note the speed, which decides whether the knight glides or jumps. */
  setSpeed(speed) {
    this.speed = speed;
  }

  /** Ask for a redraw on the next animation frame. */
  invalidate() {
    if (this.frameRequested) return;
    this.frameRequested = true;
    requestAnimationFrame((now) => {
      this.frameRequested = false;
      this.draw(now);
    });
  }

  /** Return the square under a point of the page, or -1. */
  squareAt(clientX, clientY) {
    const box = this.canvas.getBoundingClientRect();
    const col = Math.floor((clientX - box.left) / this.cell);
    const row = Math.floor((clientY - box.top) / this.cell);
    const { rows, cols } = this.model;
    return row >= 0 && row < rows && col >= 0 && col < cols ? row * cols + col : -1;
  }

  resize() {
    if (!this.model) return;
    const { rows, cols } = this.model;
    const { width, height } = this.frame.getBoundingClientRect();
    this.cell = Math.max(4, Math.floor(Math.min(width / cols, height / rows)));
    const dpr = window.devicePixelRatio || 1;
    const w = this.cell * cols, h = this.cell * rows;
    this.canvas.style.width = `${w}px`;
    this.canvas.style.height = `${h}px`;
    this.canvas.width = Math.round(w * dpr);
    this.canvas.height = Math.round(h * dpr);
    this.ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    this.invalidate();
  }

  centre(square) {
    const { cols } = this.model;
    return [(square % cols + 0.5) * this.cell, (Math.floor(square / cols) + 0.5) * this.cell];
  }

  draw(now) {
    const m = this.model;
    if (!m || !this.cell) return;
    this.trackBacktracks(now);
    const ctx = this.ctx, c = this.cell;
    ctx.clearRect(0, 0, m.cols * c, m.rows * c);
    for (let s = 0; s < m.squares; s++) this.drawSquare(s, now);
    this.drawGrid();
    this.drawStart();
    const animating = this.moveKnight(now);
    this.drawPath(now);
    this.drawNumbers();
    this.drawOverlay();
    this.drawKnight(now);
    if (animating || this.flashes.size) this.invalidate();
  }

  trackBacktracks(now) {
    const m = this.model;
    if (m.backtracks > this.seenBacktracks) this.flashes.set(m.lastBacktrack, now);
    this.seenBacktracks = m.backtracks;
    for (const [square, t] of this.flashes) {
      if (now - t > STYLE.backtrackMs || m.numbers[square]) this.flashes.delete(square);
    }
  }

  drawSquare(s, now) {
    const m = this.model, ctx = this.ctx, c = this.cell;
    const x = (s % m.cols) * c, y = Math.floor(s / m.cols) * c;
    const row = Math.floor(s / m.cols), col = s % m.cols;
    ctx.fillStyle = m.numbers[s] ? STYLE.gray : (row + col) % 2 ? STYLE.squareAlt : STYLE.square;
    ctx.fillRect(x, y, c, c);
    if (s === knightSquare(m)) {
      ctx.fillStyle = STYLE.current;
      ctx.fillRect(x, y, c, c);
    }
    const flashed = this.flashes.get(s);
    if (flashed !== undefined) {
      // Fades to white; the cross tells it apart from the current square by more than hue.
      const fade = this.reducedMotion ? 1 : 1 - (now - flashed) / STYLE.backtrackMs;
      ctx.globalAlpha = Math.max(0, fade);
      ctx.fillStyle = STYLE.backtrack;
      ctx.fillRect(x, y, c, c);
      ctx.strokeStyle = "#ffffff";
      ctx.lineWidth = Math.max(1.5, c * 0.07);
      const p = c * 0.28;
      ctx.beginPath();
      ctx.moveTo(x + p, y + p); ctx.lineTo(x + c - p, y + c - p);
      ctx.moveTo(x + c - p, y + p); ctx.lineTo(x + p, y + c - p);
      ctx.stroke();
      ctx.globalAlpha = 1;
    }
  }

  drawGrid() {
    const m = this.model, ctx = this.ctx, c = this.cell;
    ctx.strokeStyle = STYLE.grid;
    ctx.lineWidth = 1;
    ctx.beginPath();
    for (let r = 0; r <= m.rows; r++) { ctx.moveTo(0, r * c + 0.5); ctx.lineTo(m.cols * c, r * c + 0.5); }
    for (let k = 0; k <= m.cols; k++) { ctx.moveTo(k * c + 0.5, 0); ctx.lineTo(k * c + 0.5, m.rows * c); }
    ctx.stroke();
  }

  drawStart() {
    const m = this.model, ctx = this.ctx, c = this.cell;
    const s = m.path.length ? m.path[0] : m.start;
    const x = (s % m.cols) * c, y = Math.floor(s / m.cols) * c;
    ctx.strokeStyle = STYLE.start;
    ctx.lineWidth = Math.max(2, c * 0.08);
    const inset = ctx.lineWidth / 2 + 1;
    ctx.strokeRect(x + inset, y + inset, c - 2 * inset, c - 2 * inset);
  }

  drawPath(now) {
    const m = this.model, ctx = this.ctx;
    if (m.path.length < 2) return;
    const last = m.path.length - 1;
    ctx.strokeStyle = STYLE.path;
    ctx.lineWidth = Math.max(1.5, this.cell * 0.06);
    ctx.lineJoin = "round";
    ctx.beginPath();
    m.path.forEach((s, i) => {
      // The line reaches the knight where it is, so it grows with the glide.
      const [x, y] = i === last ? this.knightAt(now) : this.centre(s);
      if (i) ctx.lineTo(x, y); else ctx.moveTo(x, y);
    });
    ctx.stroke();
    if (m.closed && m.justFound) {
      // The move from the last square back to the first closes the tour.
      const [x0, y0] = this.centre(m.path[0]);
      const [x1, y1] = this.centre(m.path[last]);
      ctx.setLineDash([this.cell * 0.15, this.cell * 0.1]);
      ctx.strokeStyle = STYLE.closing;
      ctx.beginPath();
      ctx.moveTo(x1, y1);
      ctx.lineTo(x0, y0);
      ctx.stroke();
      ctx.setLineDash([]);
    }
  }

  drawNumbers() {
    const m = this.model, ctx = this.ctx, c = this.cell;
    const size = Math.floor(c * (m.squares > 99 ? 0.27 : 0.32));
    if (size < 7) return; // too small to read: the path line still shows the order
    ctx.font = STYLE.font.replace("{size}", size);
    ctx.fillStyle = STYLE.grayText;
    // A halo in the square's own colour keeps numbers readable where the path crosses them.
    ctx.lineWidth = Math.max(2, size * 0.22);
    ctx.lineJoin = "round";
    ctx.textAlign = "left";
    ctx.textBaseline = "top";
    const pad = Math.max(2, c * 0.08);
    const knight = knightSquare(m);
    for (let s = 0; s < m.squares; s++) {
      if (!m.numbers[s]) continue;
      ctx.strokeStyle = s === knight ? STYLE.current : STYLE.gray;
      const x = (s % m.cols) * c + pad, y = Math.floor(s / m.cols) * c + pad;
      ctx.strokeText(String(m.numbers[s]), x, y);
      ctx.fillText(String(m.numbers[s]), x, y);
    }
  }

  drawOverlay() {
    const m = this.model, ctx = this.ctx, c = this.cell;
    const { hints, degrees } = this.overlay(m);
    const big = Math.floor(c * 0.34), small = Math.floor(c * 0.22);
    if (big < 7) return;
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    if (degrees) {
      ctx.font = STYLE.font.replace("{size}", big);
      ctx.fillStyle = STYLE.degree;
      degrees.forEach((n, s) => {
        if (!m.numbers[s]) ctx.fillText(String(n), (s % m.cols + 0.5) * c, (Math.floor(s / m.cols) + 0.55) * c);
      });
    }
    for (const { square, rank, onward } of hints) {
      const x = (square % m.cols) * c, y = Math.floor(square / m.cols) * c;
      ctx.setLineDash([c * 0.1, c * 0.07]);
      ctx.strokeStyle = STYLE.hint;
      ctx.lineWidth = Math.max(1.5, c * 0.04);
      ctx.strokeRect(x + c * 0.1, y + c * 0.1, c * 0.8, c * 0.8);
      ctx.setLineDash([]);
      ctx.fillStyle = STYLE.square;
      ctx.fillRect(x + c * 0.3, y + c * 0.33, c * 0.4, c * 0.4);
      ctx.fillStyle = STYLE.hint;
      ctx.font = STYLE.font.replace("{size}", big);
      ctx.fillText(String(onward), x + c * 0.5, y + c * 0.55);
      ctx.font = STYLE.font.replace("{size}", small);
      ctx.fillText(`#${rank}`, x + c * 0.78, y + c * 0.2);
    }
  }

  /** Aim the knight at its square, gliding at slow speeds; return whether it is moving. */
  moveKnight(now) {
    const target = knightSquare(this.model);
    if (target < 0) return false;
    const k = this.knight;
    if (!k || k.to !== target) {
      const glides = this.speed > 0 && this.speed < STYLE.glideMinSpeed && k && !this.reducedMotion;
      const from = k ? this.knightAt(now) : this.centre(target);
      const ms = glides ? Math.min(STYLE.glideMaxMs, 700 / this.speed) : 0;
      this.knight = { from, to: target, t0: now, ms };
    }
    return now - this.knight.t0 < this.knight.ms;
  }

  drawKnight(now) {
    if (!this.knight || knightSquare(this.model) < 0) return;
    const [x, y] = this.knightAt(now);
    const ctx = this.ctx, size = this.cell * 0.62;
    ctx.save();
    ctx.translate(x + size * 0.08, y - size * 0.02);
    ctx.scale(size / 100, size / 100);
    ctx.translate(-50, -50);
    ctx.lineWidth = 8;
    ctx.strokeStyle = STYLE.knightEdge;
    ctx.stroke(KNIGHT);
    ctx.fillStyle = STYLE.knight;
    ctx.fill(KNIGHT);
    ctx.fillStyle = STYLE.knightEdge;
    ctx.beginPath();
    ctx.arc(42, 31, 4.5, 0, 2 * Math.PI);
    ctx.fill();
    ctx.restore();
  }

  knightAt(now) {
    const k = this.knight;
    const to = this.centre(k.to);
    if (!k.ms) return to;
    const t = Math.min(1, (now - k.t0) / k.ms);
    const ease = t * t * (3 - 2 * t);
    return [k.from[0] + (to[0] - k.from[0]) * ease, k.from[1] + (to[1] - k.from[1]) * ease];
  }
}
