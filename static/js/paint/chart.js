// A chart of the search's depth over the events so far: the sawtooth of backtracking. Each
// bucket of events shows as a band from its lowest to its highest depth.
import { STYLE } from "./theme.js";
import { CanvasView } from "./canvas.js";

const PAD = 2; // px kept clear inside the frame, so the lines at 0 and the top are not cut

/** Return buckets in stretches with no event missing: apart where a jump (a skip) passed over some. */
export function stretchesOf(buckets) {
  const stretches = [];
  for (const b of buckets) {
    const stretch = stretches.at(-1);
    if (stretch && b.from <= stretch.at(-1).to + 1) stretch.push(b);
    else stretches.push([b]);
  }
  return stretches;
}

export class DepthChart extends CanvasView {
  /**
   * Show the stretches (stretchesOf) of buckets {from, to, low, high, last} of the depth from
   * the run's start up to event number at, on a scale up to maxDepth (a tour's depth): drawn at
   * once, as the page renders in an animation frame, so that the chart changes in the same frame
   * as the rest of the page.
   */
  render(data) {
    this.data = data;
    this.draw();
  }

  draw() {
    const ctx = this.ctx, [width, height] = this.size;
    this.clear();
    if (!this.data || width <= 2 * PAD || height <= 2 * PAD) return;
    const { stretches, at } = this.data;
    const maxDepth = Math.max(1, this.data.maxDepth);
    const y = (depth) => height - PAD - (depth / maxDepth) * (height - 2 * PAD);
    const goal = Math.round(y(maxDepth)) + 0.5;
    ctx.strokeStyle = STYLE.depthGoal;
    ctx.setLineDash([4, 3]);
    ctx.beginPath();
    ctx.moveTo(1, goal);
    ctx.lineTo(width - 1, goal);
    ctx.stroke();
    ctx.setLineDash([]);
    if (!stretches.length) return;
    const first = stretches[0][0].from, span = Math.max(1, at - first);
    const x = (n) => PAD + ((n - first) / span) * (width - 2 * PAD);
    // What a skip passed over was never sent: it is greyed, not drawn.
    ctx.fillStyle = STYLE.depthSkipped;
    for (let i = 1; i < stretches.length; i++) {
      const left = x(stretches[i - 1].at(-1).to), right = x(stretches[i][0].from);
      ctx.fillRect(left, PAD, right - left, height - 2 * PAD);
    }
    for (const stretch of stretches) this.drawStretch(stretch, x, y);
  }

  /** Draw one stretch of buckets with no events missing: its band, and its line of depths. */
  drawStretch(buckets, x, y) {
    const ctx = this.ctx;
    if (buckets.length === 1 && buckets[0].to === buckets[0].from) {
      // One point: a dot, as a line needs two.
      ctx.fillStyle = STYLE.path;
      ctx.beginPath();
      ctx.arc(x(buckets[0].from), y(buckets[0].last), 2, 0, 2 * Math.PI);
      ctx.fill();
      return;
    }
    // The band, from the deepest point of each stretch of events to the shallowest; its top
    // edge is the line of depths itself while every bucket holds one event.
    const top = new Path2D();
    for (const b of buckets) {
      top.lineTo(x(b.from), y(b.high));
      top.lineTo(x(b.to), y(b.high));
    }
    const band = new Path2D(top);
    for (let i = buckets.length - 1; i >= 0; i--) {
      band.lineTo(x(buckets[i].to), y(buckets[i].low));
      band.lineTo(x(buckets[i].from), y(buckets[i].low));
    }
    ctx.fillStyle = STYLE.depthBand;
    ctx.fill(band);
    ctx.strokeStyle = STYLE.path;
    ctx.lineWidth = 1.5;
    ctx.lineJoin = "round";
    ctx.stroke(top);
  }
}
