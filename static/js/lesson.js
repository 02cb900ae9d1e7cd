// What a lesson shows beside the board, worked out from the model alone: the search's call
// stack, the onward moves Warnsdorff counts, the textbook's estimate of the work, why the
// search backed up, and the position in words for a screen reader.
import { freeMoves, orderMoves } from "./orderings/orderings.js";

/**
 * Return the search's call stack: for each square on the path, its visit number, the order in
 * which its moves are tried and those still to try. last is the wire code of the last event
 * applied.
 */
export function callStack(model, moves, run, last) {
  const onPath = new Uint8Array(model.squares);
  const stack = [];
  const top = model.path.length - 1;
  model.path.forEach((square, depth) => {
    onPath[square] = 1;
    const order = orderMoves(run.order, moves, onPath, square, run);
    let tried; // how many of order have been tried
    if (depth < top) tried = order.indexOf(model.path[depth + 1]) + 1;
    else if (typeof last === "number" && last < 0) tried = order.indexOf(-last - 1) + 1;
    else tried = 0;
    stack.push({ depth, visit: depth + 1, square, order, tried });
  });
  for (const level of stack) {
    level.toTry = level.order.slice(level.tried).filter((w) => !model.numbers[w]);
  }
  return stack;
}

/** Return the moves still to try from the knight's square, with their onward-move counts. */
export function nextMoves(stack, model, moves) {
  const top = stack[stack.length - 1];
  if (!top) return [];
  return top.toTry.map((square, i) => ({
    square, rank: i + 1, onward: freeMoves(moves, model.numbers, square),
  }));
}

// The average number of moves from a square (the search tree's branching factor), times
// scale: one quotient, so that halves such as 52.5 for 8x8 come out exact, to round alike.
function averageMoves(moves, scale = 1) {
  const edges = moves.reduce((sum, m) => sum + m.length, 0);
  return moves.length ? (edges * scale) / moves.length : 0;
}

// log10 of k ** n, the leaves of a tree n levels deep with k branches at each node. Counted
// as one node (the start) when k <= 1, where k ** n would be less: the search visits at
// least its start. Computed in log space, so it stays finite for any board.
function powerLog10(k, n) {
  return k > 1 ? n * Math.log10(k) : 0;
}

/**
 * Return the textbook's estimate of the search tree, k ** squares nodes for the average
 * number of moves k, as {branching: k, log10: log10 of the node count}.
 */
export function treeEstimate(moves) {
  const branching = averageMoves(moves);
  return { branching, log10: powerLog10(branching, moves.length) };
}

/**
 * Return the estimate as the textbook works it, with k rounded to one decimal: {k, log10}.
 *
 * The book gives 3.8 ** 25 = 3.12 × 10^14 nodes for 5x5 (exact k 96/25 = 3.84, which gives
 * 4.1 × 10^14) and 4.4 ** 36 = 1.5 × 10^23 for 6x6 (exact k 160/36 = 4.44, which gives 2.1 × 10^23):
 * both are k rounded to one decimal, and this reproduces them. For 8x8 the book keeps the
 * exact k = 5.25 and gives 1.3 × 10^46, though 5.25 ** 64 is 1.23 × 10^46; this rounds 5.25
 * half up to 5.3, which gives 2.3 × 10^46, so no rounding of k reproduces the book's 8x8
 * figure. The book's k ** (N + 1) - 1 drops the - 1 here: it is lost in the rounding.
 */
export function bookEstimate(moves) {
  const k = Math.round(averageMoves(moves, 10)) / 10;
  return { k, log10: powerLog10(k, moves.length) };
}

const SUPERSCRIPT_DIGITS = "⁰¹²³⁴⁵⁶⁷⁸⁹";

/**
 * Return 10 ** log10 in scientific notation, such as "4.1 × 10¹⁴", with digits decimals in
 * the mantissa; always in this form, small numbers too ("1.0 × 10⁰"), so that estimates read
 * alike. Never throws: "∞" for Infinity, "0" for -Infinity, "?" for NaN or a non-number.
 */
export function scientific(log10, digits = 1) {
  if (typeof log10 !== "number" || Number.isNaN(log10)) return "?";
  if (log10 === Infinity) return "∞";
  if (log10 === -Infinity) return "0";
  const places = Math.min(Math.max(Math.trunc(digits) || 0, 0), 20); // what toFixed accepts
  let exponent = Math.floor(log10);
  let mantissa = 10 ** (log10 - exponent);
  if (Number(mantissa.toFixed(places)) >= 10) { // 9.96 would show as 10.0 × 10⁰
    mantissa = 1;
    exponent += 1;
  }
  // BigInt writes every digit of the exponent, where String would switch to 1e+21.
  const power = [...BigInt(exponent).toString()].map((c) => (c === "-" ? "⁻" : SUPERSCRIPT_DIGITS[c])).join("");
  return `${mantissa.toFixed(places)} × 10${power}`;
}

/**
 * Return why the search backed up from square: {square, moves: [{square, visit}], blocked,
 * complete}. model is the run just after the backtrack; each move's visit is the visit
 * number of the square it lands on, 0 if that is off the path. blocked: every move lands on
 * the path, so there was nowhere to go; otherwise every free move was tried and led to a
 * dead end further on. complete: the path covered the board (a tour, or a path not closing).
 */
export function deadEnd(model, moves, square) {
  const to = moves[square].map((w) => ({ square: w, visit: model.numbers[w] }));
  return {
    square, moves: to,
    blocked: to.every((move) => move.visit > 0),
    complete: model.path.length + 1 === model.squares,
  };
}

/**
 * Return the position for a text view: {path: squares in visit order, current: the knight's
 * square or -1, free: its moves to squares off the path, in move order}.
 */
export function position(model, moves) {
  const current = model.path.length ? model.path[model.path.length - 1] : -1;
  const free = current < 0 ? [] : moves[current].filter((w) => !model.numbers[w]);
  return { path: model.path.slice(), current, free };
}
