// The board itself, layer by layer: its coordinates, its squares (white, gray where visited,
// the knight's), its grid, the start, the path and its numbers, and the knight.
import { STYLE } from "./theme.js";
import { knightSquare } from "../model.js";
import { fileName, rankName } from "../notation.js";
import { labelFont, middle } from "./board-layout.js";

// A knight's head facing left, in a 100 x 100 box.
const KNIGHT = new Path2D(
  "M20 92 L80 92 L80 84 L74 81 C77 60 76 36 62 17 L58 6 L50 16 C40 18 30 26 24 36 " +
  "L14 48 C13 55 18 59 24 57 L36 51 C40 49 44 49 47 51 C40 59 32 69 30 81 L20 84 Z"
);

/** Return whether label number i (from 1) is shown, labels going every step-th. */
function labelled(i, step, cell, space) {
  if (step === 1) return true;
  // In twos from the corner (a, c, e; 1, 3, 5); in fives and tens at 5, 10, ..., and at 1 if it fits.
  if (step === 2) return i % 2 === 1;
  return i % step === 0 || (i === 1 && (step - 1) * cell >= space);
}

export function drawCoordinates(ctx, g) {
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

export function drawSquares(ctx, g, model) {
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

export function drawGrid(ctx, g) {
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

/** Return the width of the ring around the start square, on cells of c pixels. */
const ringWidth = (c) => Math.max(2, c * 0.08);

/** Return the start square: the path's first, or the one chosen. */
const startOf = (model) => (model.path.length ? model.path[0] : model.start);

export function drawStart(ctx, g, model) {
  const c = g.cell;
  const s = startOf(model);
  ctx.strokeStyle = STYLE.start;
  ctx.lineWidth = ringWidth(c);
  const inset = Math.min(ctx.lineWidth / 2 + 1, c / 4);
  ctx.strokeRect((s % g.cols) * c + inset, Math.floor(s / g.cols) * c + inset, c - 2 * inset, c - 2 * inset);
}

export function drawPath(ctx, g, model, knight) {
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

/** Number the path's squares in visit order (only square only, if given), in their top-left corners. */
export function drawNumbers(ctx, g, model, only = -1) {
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
  const knight = knightSquare(model), start = startOf(model);
  for (let s = only < 0 ? 0 : only; s < (only < 0 ? model.squares : only + 1); s++) {
    if (!model.numbers[s]) continue;
    ctx.strokeStyle = s === knight ? STYLE.current : STYLE.gray;
    // Inside the start's ring: the halo, in the square's colour, would cover the ring's corner.
    const at = s === start ? pad + ringWidth(c) : pad;
    const x = (s % g.cols) * c + at, y = Math.floor(s / g.cols) * c + at, text = String(model.numbers[s]);
    ctx.strokeText(text, x, y);
    ctx.fillText(text, x, y);
  }
}

export function drawKnight(ctx, g, [x, y]) {
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
