// A live chart of the search's depth over its events: the sawtooth of backtracking.
import { STYLE } from "./theme.js";

const KEEP = 1200; // samples drawn; older ones scroll off to the left

export class DepthChart {
  constructor(canvas) {
    this.canvas = canvas;
    this.ctx = canvas.getContext("2d");
    this.clear(1);
    new ResizeObserver(() => this.fit()).observe(canvas);
  }

  /** Forget the samples; depths will range up to maxDepth. */
  clear(maxDepth) {
    this.maxDepth = Math.max(1, maxDepth);
    this.events = [];
    this.depths = [];
    this.dirty = true;
  }

  /** Record the depth after an event. */
  sample(event, depth) {
    this.events.push(event);
    this.depths.push(depth);
    if (this.events.length > 2 * KEEP) {
      this.events.splice(0, KEEP);
      this.depths.splice(0, KEEP);
    }
    this.dirty = true;
  }

  /** Drop the samples after an event (the view stepped back). */
  rewind(event) {
    while (this.events.length && this.events[this.events.length - 1] > event) {
      this.events.pop();
      this.depths.pop();
    }
    this.dirty = true;
  }

  fit() {
    const dpr = window.devicePixelRatio || 1;
    const { width, height } = this.canvas.getBoundingClientRect();
    this.canvas.width = Math.round(width * dpr);
    this.canvas.height = Math.round(height * dpr);
    this.ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    this.dirty = true;
    this.draw();
  }

  draw() {
    if (!this.dirty) return;
    this.dirty = false;
    const ctx = this.ctx;
    const { width, height } = this.canvas.getBoundingClientRect();
    ctx.clearRect(0, 0, width, height);
    ctx.strokeStyle = STYLE.grid;
    ctx.strokeRect(0.5, 0.5, width - 1, height - 1);
    const n = Math.min(KEEP, this.events.length);
    if (n < 2) return;
    const from = this.events.length - n;
    const x0 = this.events[from], x1 = this.events[this.events.length - 1];
    const span = Math.max(1, x1 - x0);
    ctx.strokeStyle = STYLE.path;
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    for (let i = from; i < this.events.length; i++) {
      const x = 2 + ((this.events[i] - x0) / span) * (width - 4);
      const y = height - 2 - (this.depths[i] / this.maxDepth) * (height - 4);
      if (i === from) ctx.moveTo(x, y); else ctx.lineTo(x, y);
    }
    ctx.stroke();
  }
}
