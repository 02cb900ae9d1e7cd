// The board, drawn from a scene on a canvas: squares white or gray, numbered in visit order, the
// path, the knight, what the search will try next, why it backed out, and the coordinates in a
// margin. Its drawing core paints any canvas, at any size, by any clock (the page's frames, a
// clip's): the page's view (views/board.js) and a clip's film both draw with it.
import { STYLE } from "./theme.js";
import { knightSquare } from "../model.js";
import { layout, middle } from "./board-layout.js";
import { drawAnswers, drawDeadEnd, drawDegrees, drawHeat, drawHints, drawMark } from "./board-marks.js";
import { drawCoordinates, drawGrid, drawKnight, drawNumbers, drawPath, drawSquares, drawStart } from "./board-squares.js";
import { BacktrackMarks } from "./canvas.js";

/**
 * The board's drawing core: where the squares go, the picture, the fading marks of backtracks
 * and the knight's glide, on any canvas at any size, by a clock in milliseconds that the caller
 * gives (the page's frames, or a clip's simulated time). It knows nothing of the page.
 */
export class BoardPainter {
  /** Draw with ctx, a 2D context set to draw in CSS pixels (see scaleCanvas). */
  constructor(ctx) {
    this.ctx = ctx;
    this.geometry = null; // where the squares and labels go, for the board laid out last
    this.knight = null;   // { from: [x, y], to: square, t0, ms }
    this.marks = new BacktrackMarks(STYLE.backtrackMs);
  }

  /** Lay a rows x cols board out in a width x height box (CSS pixels); return where it goes. */
  fit(rows, cols, width, height) {
    this.geometry = layout(this.ctx, rows, cols, width, height);
    this.knight = null;
    return this.geometry;
  }

  /** Put the knight on its square at the next frame, without a glide (another model is shown). */
  land() {
    this.knight = null;
  }

  /**
   * Note scene's model as it stands at time now, between frames: a clip applies several events
   * a frame, and each backtrack among them gets its mark, and each move its glide, from its own
   * time.
   */
  note(scene, now) {
    this.marks.update(scene.model, now, false);
    this.moveKnight(scene, now);
  }

  /** Paint scene (see paint) as at time now; return whether frames must follow (a fade, a glide). */
  draw(scene, now) {
    const held = scene.hold || scene.reducedMotion;
    const fading = this.marks.update(scene.model, now, held);
    const gliding = this.moveKnight(scene, now);
    const at = this.knight ? this.knightAt(now) : null;
    paint(this.ctx, this.geometry, scene, this.marks.shown(now, held), at);
    return fading || gliding;
  }

  /** Paint scene at rest with ctx (this painter's own by default): marks held, knight on its square. */
  still(scene, ctx = this.ctx) {
    const knight = knightSquare(scene.model);
    paint(ctx, this.geometry, scene, this.marks.shown(0, true), knight < 0 ? null : middle(this.geometry, knight));
  }

  /** Aim the knight at its square, gliding at slow speeds; return whether it is moving. */
  moveKnight({ model, speed, reducedMotion }, now) {
    const target = knightSquare(model);
    if (target < 0) {
      this.knight = null;
      return false;
    }
    const k = this.knight;
    if (!k || k.to !== target) {
      const glides = speed > 0 && speed < STYLE.glideMinSpeed && k && !reducedMotion;
      const from = k ? this.knightAt(now) : middle(this.geometry, target);
      const ms = glides ? Math.min(STYLE.glideMaxMs, 700 / speed) : 0;
      this.knight = { from, to: target, t0: now, ms };
    }
    return now - this.knight.t0 < this.knight.ms;
  }

  knightAt(now) {
    const k = this.knight;
    const to = middle(this.geometry, k.to);
    if (!k.ms) return to;
    const t = Math.min(1, (now - k.t0) / k.ms);
    const ease = t * t * (3 - 2 * t);
    return [k.from[0] + (to[0] - k.from[0]) * ease, k.from[1] + (to[1] - k.from[1]) * ease];
  }
}

/**
 * Draw scene with geometry g: marks as [square, strength], the knight at point knight (from the
 * board's top-left corner; null for none). scene: model; hints, the moves still to try
 * ({square, rank, onward}); degrees, each square's moves on an empty board (or null); deadEnd,
 * the square just backed out of and its moves ({square, moves: [{square, visit}]}, or null);
 * answers, the answers to a question just judged ({heat, right, chosen}, see drawAnswers, or null).
 */
function paint(ctx, g, scene, marks, knight) {
  ctx.fillStyle = STYLE.paper;
  ctx.fillRect(0, 0, g.width, g.height);
  drawCoordinates(ctx, g);
  ctx.save();
  ctx.translate(g.left, g.top);
  const { model } = scene;
  drawSquares(ctx, g, model);
  for (const [square, strength] of marks) drawMark(ctx, g, square, strength);
  if (scene.answers) drawHeat(ctx, g, scene.answers.heat ?? []);
  drawGrid(ctx, g);
  drawStart(ctx, g, model);
  drawPath(ctx, g, model, knight);
  // A reveal reads first: the dead end its move backed out of waits until the reveal is gone.
  const revealed = scene.answers && scene.answers.right >= 0;
  if (scene.deadEnd && !revealed) drawDeadEnd(ctx, g, scene.deadEnd);
  drawNumbers(ctx, g, model);
  if (scene.degrees) drawDegrees(ctx, g, model, scene.degrees);
  drawHints(ctx, g, scene.hints || []);
  if (scene.answers) drawAnswers(ctx, g, scene.answers);
  if (knight) {
    drawKnight(ctx, g, knight);
    // Over the knight, wherever it glides, its square's number stays readable.
    const here = knightSquare(model);
    if (here >= 0) drawNumbers(ctx, g, model, here);
  }
  ctx.restore();
}
