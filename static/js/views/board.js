// The board, drawn from a scene on a canvas: squares white or gray, numbered in visit order, the
// path, the knight, what the search will try next, why it backed out, and the coordinates in a
// margin. The page's view draws only on animation frames after a change; its drawing core
// paints any canvas, at any size, by any clock (a clip's frames).
import { STYLE } from "../theme.js";
import { knightSquare } from "../model.js";
import { fileName, rankName } from "../notation.js";
import { BacktrackMarks, fitCanvas, frameRequester, frameTime, scaleCanvas, watchSize } from "./canvas.js";

// A knight's head facing left, in a 100 x 100 box.
const KNIGHT = new Path2D(
  "M20 92 L80 92 L80 84 L74 81 C77 60 76 36 62 17 L58 6 L50 16 C40 18 30 26 24 36 " +
  "L14 48 C13 55 18 59 24 57 L36 51 C40 49 44 49 47 51 C40 59 32 69 30 81 L20 84 Z"
);

const LABEL_STEPS = [1, 2, 5, 10]; // label every file (rank), or every 2nd, 5th or 10th
const EDGE = 2;                    // room above and right of the board for its outer lines

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
   * Show scene on the next frame: {model, hints, degrees, deadEnd, answers, hold, speed, reducedMotion}
   * (see paint); null stops drawing, for another view to use the canvas.
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
 * Return where a rows x cols board goes in a width x height box: square cells of cell px, the
 * board's top-left corner at (left, top), file letters below it and rank numbers left of it in
 * type of font px, every fileStep-th file and rankStep-th rank labelled so that none overlap.
 */
function layout(ctx, rows, cols, width, height) {
  // The type is sized from a first guess at the cells, leaving about a cell for the margin.
  const guess = Math.min(width / (cols + 1), height / (rows + 1));
  const font = Math.max(STYLE.coordinateMin, Math.min(STYLE.coordinateMax, Math.round(guess * 0.3)));
  const gap = Math.max(3, Math.round(font * 0.4));
  ctx.font = labelFont(font);
  const rankWidth = ctx.measureText(rankName(0, rows)).width; // the most digits
  let fileWidth = 0;
  for (let col = 0; col < cols; col++) fileWidth = Math.max(fileWidth, ctx.measureText(fileName(col)).width);
  const left = Math.ceil(rankWidth + 2 * gap), below = Math.ceil(font + 2 * gap);
  const fits = Math.min((width - left - EDGE) / cols, (height - below - EDGE) / rows);
  const cell = Math.max(2, Math.floor(fits));
  const step = (needed) => LABEL_STEPS.find((s) => s * cell >= needed) ?? LABEL_STEPS.at(-1);
  const fileSpace = fileWidth + gap, rankSpace = font * 1.2;
  return {
    rows, cols, cell, left, top: EDGE, font, gap,
    fileStep: step(fileSpace), rankStep: step(rankSpace), fileSpace, rankSpace,
    width: left + cols * cell + EDGE, height: EDGE + rows * cell + below,
  };
}

/** Return the centre of a square, relative to the board's top-left corner. */
function middle(g, square) {
  return [(square % g.cols + 0.5) * g.cell, (Math.floor(square / g.cols) + 0.5) * g.cell];
}

function labelFont(size) {
  return STYLE.quietFont.replace("{size}", size);
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

/** Return whether label number i (from 1) is shown, labels going every step-th. */
function labelled(i, step, cell, space) {
  if (step === 1) return true;
  // In twos from the corner (a, c, e; 1, 3, 5); in fives and tens at 5, 10, ..., and at 1 if it fits.
  if (step === 2) return i % 2 === 1;
  return i % step === 0 || (i === 1 && (step - 1) * cell >= space);
}

function drawCoordinates(ctx, g) {
  ctx.font = labelFont(g.font);
  ctx.fillStyle = STYLE.coordinate;
  ctx.textAlign = "center";
  ctx.textBaseline = "top";
  const below = g.top + g.rows * g.cell + g.gap;
  for (let col = 0; col < g.cols; col++) {
    if (labelled(col + 1, g.fileStep, g.cell, g.fileSpace)) {
      ctx.fillText(fileName(col), g.left + (col + 0.5) * g.cell, below);
    }
  }
  ctx.textAlign = "right";
  ctx.textBaseline = "middle";
  for (let row = 0; row < g.rows; row++) {
    if (labelled(g.rows - row, g.rankStep, g.cell, g.rankSpace)) {
      ctx.fillText(rankName(row, g.rows), g.left - g.gap, g.top + (row + 0.5) * g.cell);
    }
  }
}

function drawSquares(ctx, g, model) {
  const c = g.cell;
  ctx.fillStyle = STYLE.square;
  ctx.fillRect(0, 0, g.cols * c, g.rows * c);
  // One path per colour: a large board is a thousand squares every frame.
  const checker = new Path2D(), gray = new Path2D();
  for (let s = 0; s < model.squares; s++) {
    const row = Math.floor(s / g.cols), col = s % g.cols;
    if (model.numbers[s]) gray.rect(col * c, row * c, c, c);
    else if ((row + col) % 2) checker.rect(col * c, row * c, c, c);
  }
  ctx.fillStyle = STYLE.squareAlt;
  ctx.fill(checker);
  ctx.fillStyle = STYLE.gray;
  ctx.fill(gray);
  const here = knightSquare(model);
  if (here >= 0) {
    ctx.fillStyle = STYLE.current;
    ctx.fillRect((here % g.cols) * c, Math.floor(here / g.cols) * c, c, c);
  }
}

function drawMark(ctx, g, square, strength) {
  // Fades to white; the cross tells it apart from the current square by more than hue.
  const c = g.cell, x = (square % g.cols) * c, y = Math.floor(square / g.cols) * c;
  ctx.globalAlpha = strength;
  ctx.fillStyle = STYLE.backtrack;
  ctx.fillRect(x, y, c, c);
  ctx.strokeStyle = "#ffffff";
  ctx.lineWidth = Math.max(1.5, c * 0.07);
  const p = c * 0.28;
  ctx.beginPath();
  ctx.moveTo(x + p, y + p);
  ctx.lineTo(x + c - p, y + c - p);
  ctx.moveTo(x + c - p, y + p);
  ctx.lineTo(x + p, y + c - p);
  ctx.stroke();
  ctx.globalAlpha = 1;
}

function drawGrid(ctx, g) {
  const c = g.cell;
  ctx.strokeStyle = STYLE.grid;
  ctx.lineWidth = 1;
  ctx.beginPath();
  for (let r = 0; r <= g.rows; r++) {
    ctx.moveTo(0, r * c + 0.5);
    ctx.lineTo(g.cols * c, r * c + 0.5);
  }
  for (let k = 0; k <= g.cols; k++) {
    ctx.moveTo(k * c + 0.5, 0);
    ctx.lineTo(k * c + 0.5, g.rows * c);
  }
  ctx.stroke();
}

function drawStart(ctx, g, model) {
  const c = g.cell;
  const s = model.path.length ? model.path[0] : model.start;
  ctx.strokeStyle = STYLE.start;
  ctx.lineWidth = Math.max(2, c * 0.08);
  const inset = Math.min(ctx.lineWidth / 2 + 1, c / 4);
  ctx.strokeRect((s % g.cols) * c + inset, Math.floor(s / g.cols) * c + inset, c - 2 * inset, c - 2 * inset);
}

function drawPath(ctx, g, model, knight) {
  const path = model.path;
  if (path.length < 2) return;
  const last = path.length - 1;
  ctx.strokeStyle = STYLE.path;
  ctx.lineWidth = Math.max(1.5, g.cell * 0.06);
  ctx.lineJoin = "round";
  ctx.beginPath();
  for (let i = 0; i <= last; i++) {
    // The line reaches the knight where it is, so it grows with the glide.
    const [x, y] = i === last && knight ? knight : middle(g, path[i]);
    if (i) ctx.lineTo(x, y);
    else ctx.moveTo(x, y);
  }
  ctx.stroke();
  if (model.closed && model.justFound) {
    // The move from the last square back to the first closes the tour.
    const [x0, y0] = middle(g, path[0]);
    const [x1, y1] = middle(g, path[last]);
    ctx.setLineDash([g.cell * 0.15, g.cell * 0.1]);
    ctx.strokeStyle = STYLE.closing;
    ctx.beginPath();
    ctx.moveTo(x1, y1);
    ctx.lineTo(x0, y0);
    ctx.stroke();
    ctx.setLineDash([]);
  }
}

/** Show why the search backed out of a square: an arrow along each move, a ring where one lands on the path. */
function drawDeadEnd(ctx, g, { square, moves }) {
  const c = g.cell, [x0, y0] = middle(g, square);
  ctx.strokeStyle = ctx.fillStyle = STYLE.deadEnd;
  ctx.lineWidth = Math.max(1.25, c * 0.045);
  const head = Math.max(4, c * 0.16);
  for (const move of moves) {
    const [x1, y1] = middle(g, move.square);
    const length = Math.hypot(x1 - x0, y1 - y0), ux = (x1 - x0) / length, uy = (y1 - y0) / length;
    // From outside the dead end's cross to the edge of the ring, clear of both squares' numbers.
    const sx = x0 + ux * c * 0.3, sy = y0 + uy * c * 0.3;
    const ex = x1 - ux * c * 0.42, ey = y1 - uy * c * 0.42;
    ctx.beginPath();
    ctx.moveTo(sx, sy);
    ctx.lineTo(ex - ux * head * 0.6, ey - uy * head * 0.6);
    ctx.stroke();
    ctx.beginPath();
    ctx.moveTo(ex, ey);
    ctx.lineTo(ex - ux * head - uy * head * 0.45, ey - uy * head + ux * head * 0.45);
    ctx.lineTo(ex - ux * head + uy * head * 0.45, ey - uy * head - ux * head * 0.45);
    ctx.fill();
    if (move.visit) {
      ctx.beginPath();
      ctx.arc(x1, y1, c * 0.4, 0, 2 * Math.PI);
      ctx.stroke();
    }
  }
}

/** Number the path's squares in visit order (only square only, if given), in their top-left corners. */
function drawNumbers(ctx, g, model, only = -1) {
  const c = g.cell;
  const size = Math.floor(c * (model.squares > 99 ? 0.27 : 0.32));
  if (size < 7) return; // too small to read: the path line still shows the order
  ctx.font = STYLE.font.replace("{size}", size);
  ctx.fillStyle = STYLE.grayText;
  // A halo in the square's own colour keeps numbers readable where lines cross them.
  ctx.lineWidth = Math.max(2, size * 0.22);
  ctx.lineJoin = "round";
  ctx.textAlign = "left";
  ctx.textBaseline = "top";
  const pad = Math.max(2, c * 0.08);
  const knight = knightSquare(model);
  for (let s = only < 0 ? 0 : only; s < (only < 0 ? model.squares : only + 1); s++) {
    if (!model.numbers[s]) continue;
    ctx.strokeStyle = s === knight ? STYLE.current : STYLE.gray;
    const x = (s % g.cols) * c + pad, y = Math.floor(s / g.cols) * c + pad, text = String(model.numbers[s]);
    ctx.strokeText(text, x, y);
    ctx.fillText(text, x, y);
  }
}

function drawDegrees(ctx, g, model, degrees) {
  const c = g.cell, size = Math.floor(c * 0.28);
  if (size < 7) return;
  ctx.font = STYLE.quietFont.replace("{size}", size);
  ctx.fillStyle = STYLE.degree;
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  for (let s = 0; s < model.squares; s++) {
    if (model.numbers[s]) continue;
    ctx.fillText(String(degrees[s]), (s % g.cols + 0.5) * c, (Math.floor(s / g.cols) + 0.55) * c);
  }
}

function drawHints(ctx, g, hints) {
  const c = g.cell, big = Math.floor(c * 0.32), small = Math.floor(c * 0.2);
  if (big < 7) return;
  for (const { square, rank, onward } of hints) {
    const x = (square % g.cols) * c, y = Math.floor(square / g.cols) * c;
    ctx.setLineDash([c * 0.1, c * 0.07]);
    ctx.strokeStyle = STYLE.hint;
    ctx.lineWidth = Math.max(1.5, c * 0.04);
    ctx.strokeRect(x + c * 0.1, y + c * 0.1, c * 0.8, c * 0.8);
    ctx.setLineDash([]);
    ctx.fillStyle = STYLE.square;
    ctx.fillRect(x + c * 0.3, y + c * 0.4, c * 0.4, c * 0.4);
    ctx.fillStyle = STYLE.hint;
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.font = STYLE.font.replace("{size}", big);
    ctx.fillText(String(onward), x + c * 0.5, y + c * 0.62);
    // Its turn in the box's top-right corner, clear of the dashed line and of the big number.
    ctx.textAlign = "right";
    ctx.textBaseline = "top";
    ctx.font = STYLE.font.replace("{size}", small);
    ctx.fillText(`#${rank}`, x + c * 0.83, y + c * 0.17);
  }
}

/** Shade each square the class answered ([square, count]) by its share of the answers. */
function drawHeat(ctx, g, heat) {
  const c = g.cell, most = Math.max(1, ...heat.map(([, n]) => n));
  for (const [square, n] of heat) {
    ctx.fillStyle = `rgba(${STYLE.heat}, ${0.2 + 0.55 * (n / most)})`;
    ctx.fillRect((square % g.cols) * c, Math.floor(square / g.cols) * c, c, c);
  }
}

/**
 * Draw the answers to a question over the board: heat's counts ([square, count]) in the
 * squares' corners; right, the square the knight went to, ringed (-1 before the reveal); chosen,
 * the user's own answer when it was another, ringed with a dashed line (before the reveal, in the
 * colour of an answer not yet judged).
 */
function drawAnswers(ctx, g, { heat, right, chosen }) {
  const c = g.cell;
  ctx.textAlign = "right";
  ctx.textBaseline = "bottom";
  ctx.font = STYLE.font.replace("{size}", Math.max(8, Math.floor(c * 0.3)));
  ctx.fillStyle = STYLE.heatText;
  for (const [square, n] of c >= 16 ? heat ?? [] : []) {
    ctx.fillText(String(n), (square % g.cols + 0.94) * c, (Math.floor(square / g.cols) + 0.98) * c);
  }
  const ring = (square, colour, dash) => {
    const x = (square % g.cols) * c, y = Math.floor(square / g.cols) * c;
    ctx.setLineDash(dash ? [c * 0.12, c * 0.08] : []);
    ctx.strokeStyle = colour;
    ctx.lineWidth = Math.max(2.5, c * 0.09);
    ctx.strokeRect(x + c * 0.06, y + c * 0.06, c * 0.88, c * 0.88);
    ctx.setLineDash([]);
  };
  if (chosen !== null && chosen !== right && chosen >= 0) {
    ring(chosen, right < 0 ? STYLE.myAnswer : STYLE.wrongAnswer, true);
  }
  if (right >= 0) ring(right, STYLE.rightAnswer, false);
}

function drawKnight(ctx, g, [x, y]) {
  // Below and right of the square's middle, clear of its number in the top-left corner.
  const size = g.cell * 0.56;
  ctx.save();
  ctx.translate(x + g.cell * 0.1, y + g.cell * 0.1);
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
