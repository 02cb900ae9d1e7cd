// What the canvas views share: sharp canvases at any pixel density, redrawing at most once a
// frame, and the mark on a square the search has just backed out of.
import { STYLE } from "./theme.js";

/**
 * Give canvas a backing store of width x height CSS pixels at ratio device pixels each; return
 * its 2D context, set to draw in CSS pixels.
 */
export function scaleCanvas(canvas, width, height, ratio = window.devicePixelRatio || 1) {
  canvas.width = Math.max(1, Math.round(width * ratio));
  canvas.height = Math.max(1, Math.round(height * ratio));
  const ctx = canvas.getContext("2d");
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  return ctx;
}

/**
 * Size canvas to width x height CSS pixels, backed at the screen's pixel density; return its
 * context. A canvas already of that size keeps its picture (sizing a canvas erases it).
 */
export function fitCanvas(canvas, width, height, ratio = window.devicePixelRatio || 1) {
  const same = canvas.width === Math.max(1, Math.round(width * ratio))
    && canvas.height === Math.max(1, Math.round(height * ratio))
    && canvas.style.width === `${width}px` && canvas.style.height === `${height}px`;
  canvas.style.width = `${width}px`;
  canvas.style.height = `${height}px`;
  if (!same) return scaleCanvas(canvas, width, height, ratio);
  const ctx = canvas.getContext("2d");
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  return ctx;
}

/** Return the time of the frame being made, on the clock of requestAnimationFrame. */
export function frameTime() {
  return document.timeline?.currentTime ?? performance.now();
}

/**
 * Call callback when element resizes and when the pixel density changes (a window moved screens).
 * It runs after the frame's animation callbacks and before its paint: a canvas it re-sizes must
 * be painted again then, or the frame shows it empty.
 */
export function watchSize(element, callback) {
  new ResizeObserver(() => callback()).observe(element);
  // A media query matches one density only, so each change arms a query for the new one.
  const watchDensity = () => {
    matchMedia(`(resolution: ${window.devicePixelRatio || 1}dppx)`).addEventListener("change", () => {
      watchDensity();
      callback();
    }, { once: true });
  };
  watchDensity();
}

/** Return a function that has draw(now) called on the next animation frame, once per frame at most. */
export function frameRequester(draw) {
  let requested = false;
  return () => {
    if (requested) return;
    requested = true;
    requestAnimationFrame((now) => {
      requested = false;
      draw(now);
    });
  };
}

/**
 * A picture drawn into a canvas whose size the page's CSS sets: sized to it at the screen's pixel
 * density, drawn again when either changes and at most once a frame when asked (invalidate).
 * A subclass draws this.data into this.ctx, this.size CSS pixels, in draw().
 */
export class CanvasView {
  constructor(canvas) {
    this.canvas = canvas;
    this.ctx = canvas.getContext("2d");
    this.data = null;
    this.size = [0, 0];
    this.invalidate = frameRequester(() => this.draw());
    watchSize(canvas, () => this.fit());
  }

  fit() {
    // Only the backing store is sized: the CSS keeps the canvas's box, so it can shrink again.
    const { width, height } = this.canvas.getBoundingClientRect();
    this.ctx = scaleCanvas(this.canvas, width, height);
    this.size = [width, height];
    this.invalidate();
  }

  /** Clear the picture, leaving its frame. */
  clear() {
    const ctx = this.ctx, [width, height] = this.size;
    ctx.clearRect(0, 0, width, height);
    ctx.strokeStyle = STYLE.grid;
    ctx.lineWidth = 1;
    ctx.strokeRect(0.5, 0.5, width - 1, height - 1);
  }
}

/**
 * The red mark on squares the search backed out of. Held (paused, stepping, or less motion asked
 * for), the latest mark stays at full strength until the path changes; otherwise marks fade over
 * ms milliseconds.
 */
export class BacktrackMarks {
  constructor(ms) {
    this.ms = ms;
    this.model = null;
    this.seen = 0;          // the model's backtracks when last looked at
    this.marks = new Map(); // square -> { since, path }: when it was marked, and the path then
  }

  /** Note the model as it stands at time now; return whether a mark is fading (frames must follow). */
  update(model, now, held) {
    if (model !== this.model) {
      this.model = model;
      this.seen = model.backtracks;
      this.marks.clear();
    }
    const path = pathKey(model);
    if (model.backtracks > this.seen) this.marks.set(model.lastBacktrack, { since: now, path });
    this.seen = model.backtracks;
    for (const [square, mark] of this.marks) {
      const gone = held ? mark.path !== path : now - mark.since >= this.ms;
      if (gone || model.numbers[square]) this.marks.delete(square);
      else if (held) mark.since = now; // so that, played on, it fades from full strength
    }
    return !held && this.marks.size > 0;
  }

  /** Return the marked squares as [square, strength from 0 to 1] at time now. */
  shown(now, held) {
    const path = this.model ? pathKey(this.model) : -1;
    const shown = [];
    for (const [square, mark] of this.marks) {
      if (held) {
        if (mark.path === path) shown.push([square, 1]);
      } else {
        shown.push([square, Math.max(0, 1 - (now - mark.since) / this.ms)]);
      }
    }
    return shown;
  }
}

/** Return a number that changes whenever the model's path does (a "found" leaves it). */
function pathKey(model) {
  return model.visits + model.backtracks;
}
