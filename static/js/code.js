// The code panel's program, and which of its lines run between two of the search's events, so
// that the panel can step through every line the search runs, worked out from the model alone.
// Each line run is {line, square, depth, note, params}: line is 1-based in CODE; square is the
// square concerned (the move considered, or the square of the call); depth is the call's place
// on the call stack (0 for the first call, like callStack's levels); note is a message id whose
// placeholders params fills with square numbers (the page names them) and counts.
import { orderMoves, parseOrder } from "./orderings/orderings.js";

/** The search as the page shows it: the textbook's recursion, with translatable comments. */
export const CODE = [
  { text: "def tour(path, square, limit):", comment: null },
  { text: "    path.append(square)", comment: "code.gray" },
  { text: "    if len(path) == limit:", comment: null },
  { text: "        return True", comment: "code.tour" },
  { text: "    for move in ordered(square):", comment: null },
  { text: "        if move not in path:", comment: null },
  { text: "            if tour(path, move, limit):", comment: null },
  { text: "                return True", comment: null },
  { text: "    path.pop()", comment: "code.white" },
  { text: "    return False", comment: null },
];

/** Return the line of CODE (1-based) that produces an event, 0 for none. */
export function eventLine(code) {
  if (code === null || code === undefined) return 0;
  if (code === "found") return 4;
  return code >= 0 ? 2 : 9;
}

function step(line, depth, square, note, params) {
  return { line, square, depth, note, params };
}

// Push the lines of the loop in the knight's call, from the move after `after` (-1: from the
// first) to the call for the first move off the path, or to the loop's end. The order is the
// one the search computed on entering the square: the path up to it is the same again.
function loop(lines, model, moves, run, after) {
  const depth = model.path.length - 1;
  const square = model.path[depth];
  const order = orderMoves(run.order, moves, model.numbers, square, run);
  for (const move of order.slice(order.indexOf(after) + 1)) {
    lines.push(step(5, depth, move, "line.try", { square, move }));
    const visit = model.numbers[move];
    if (visit) {
      lines.push(step(6, depth, move, "line.onPath", { square, move, visit }));
      continue;
    }
    lines.push(step(6, depth, move, "line.free", { square, move }),
                step(7, depth, move, "line.recurse", { square, move }));
    return;
  }
  lines.push(step(5, depth, square, "line.done", { square }));
}

/**
 * Return the lines that run after event last up to and including event code's own line.
 * model is the run before code is applied; last is the event before code (null for the
 * first); moves is each square's moves; run is {order, seed, rows, cols} for orderMoves.
 */
export function linesRun(model, moves, run, last, code) {
  const lines = [];
  const length = model.path.length, limit = model.squares;
  const depth = length - 1;
  const square = model.path[depth];
  if (typeof last === "number" && last >= 0) {
    // The call for last has just appended its square; the limit test comes next.
    if (length < limit) {
      lines.push(step(3, depth, square, "line.notTour", { square, length, limit }));
      loop(lines, model, moves, run, -1);
    } else if (code === "found") {
      lines.push(step(3, depth, square, "line.full", { square, length, limit }));
    } else {
      // Only a closed tour was wanted and the last square is no move from the first.
      lines.push(step(3, depth, square, "line.notClosed", { square, start: model.path[0], length, limit }));
    }
  } else if (typeof last === "number") {
    // The call for move has returned False into the call for square, whose loop goes on.
    const move = -last - 1;
    lines.push(step(10, depth + 1, move, "line.returnFalse", { square: move }),
               step(7, depth, move, "line.failed", { square, move }));
    loop(lines, model, moves, run, move);
  }
  if (code === "found") {
    lines.push(step(4, depth, square, "line.tour", { square, length }));
  } else if (code >= 0) {
    lines.push(step(1, depth + 1, code, "line.call", { square: code }),
               step(2, depth + 1, code, "line.append", { square: code, visit: length + 1 }));
  } else {
    const popped = -code - 1;
    const note = last === "found" ? "line.popAfterTour" : "line.pop";
    lines.push(step(9, depth, popped, note, { square: popped }));
  }
  return lines;
}

/**
 * Return the lines that run after an ended search's last event until its first call returns:
 * the tour handed back up the calls, or the first call's return False. model is the run after
 * its last event, last. Only for a search that ended: one stopped early runs no more lines.
 */
export function endLines(model, last) {
  if (last === "found") {
    const lines = [];
    for (let depth = model.path.length - 2; depth >= 0; depth--) {
      const square = model.path[depth], move = model.path[depth + 1];
      lines.push(step(7, depth, move, "line.succeeded", { square, move }),
                 step(8, depth, square, "line.returnTrue", { square }));
    }
    return lines;
  }
  if (typeof last === "number" && last < 0 && model.path.length === 0) {
    return [step(10, 0, -last - 1, "line.returnFalse", { square: -last - 1 })];
  }
  return [];
}

// Each key of an ordering as Python, of a move m from square; a key sorted the other way is negated.
const KEY_CODE = {
  index: "m",
  moves: "moves_of(square).index(m)",
  random: "shuffled(square, seed).index(m)",
  centre: "from_centre(m)",
  start: "from_start(m)",
  edge: "to_edge(m)",
  corner: "to_corner(m)",
  onward: "onward(m)",
  pohl: "onward_twice(m)",
};

/**
 * Return the function ordered() of CODE for an ordering (its name or written form) as lines:
 * {text, comment}, comment a message id (each key's explanation) or null.
 */
export function orderingCode(order) {
  const keys = parseOrder(order);
  const path = keys.some(({ name }) => name === "onward" || name === "pohl");
  // Ties after the last key keep the move order, which sorted() keeps by itself.
  const sorting = keys.filter(({ name, descending }, i) => !(name === "moves" && !descending && i === keys.length - 1));
  const values = sorting.map(({ name, descending }) => (descending ? `-${KEY_CODE[name]}` : KEY_CODE[name]));
  // Each line fits the lesson's column (40 characters) where it can: the squares on the path left
  // out on a line of their own, a key of one function named rather than wrapped in a lambda.
  const text = ["def ordered(square):"];
  if (values.length === 0) {
    text.push("    return moves_of(square)");
  } else if (values.length === 1 && sorting[0].name === "index") {
    text.push(`    return sorted(moves_of(square)${sorting[0].descending ? ", reverse=True" : ""})`);
  } else {
    if (path) text.push("    moves = [m for m in moves_of(square)", "             if m not in path]");
    else text.push("    moves = moves_of(square)");
    const named = values.length === 1 && /^\w+\(m\)$/.test(values[0]);
    const key = named ? values[0].slice(0, -"(m)".length)
      : `lambda m: ${values.length === 1 ? values[0] : `(${values.join(", ")})`}`;
    text.push(`    return sorted(moves, key=${key})`);
  }
  const lines = text.map((each) => ({ text: each, comment: null }));
  for (const { name } of sorting) {
    if (name !== "index") lines.push({ text: `    # ${KEY_CODE[name].replace(/\(.*/, "")}:`, comment: `orderKey.${name}.code` });
  }
  return lines;
}
