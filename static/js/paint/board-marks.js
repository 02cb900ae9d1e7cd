// What is marked over the board's squares: a backtrack's fading cross, the dead end the search
// backed out of, each square's moves, the moves still to try, and a question's answers.
import { STYLE } from "./theme.js";
import { middle } from "./board-layout.js";

export function drawMark(ctx, g, square, strength) {
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

/** Show why the search backed out of a square: an arrow along each move, a ring where one lands on the path. */
export function drawDeadEnd(ctx, g, { square, moves }) {
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

export function drawDegrees(ctx, g, model, degrees) {
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

export function drawHints(ctx, g, hints) {
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
export function drawHeat(ctx, g, heat) {
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
export function drawAnswers(ctx, g, { heat, right, chosen }) {
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
