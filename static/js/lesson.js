// What a lesson shows beside the board, worked out from the model alone: the search's call
// stack, the onward moves Warnsdorff counts, and the textbook's estimate of the work.
import { freeMoves, orderMoves } from "./orderings.js";

/**
 * Return the search's call stack: for each square on the path, the order in which its moves
 * are tried and those still to try. last is the wire code of the last event applied.
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
    stack.push({ depth, square, order, tried });
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

/** Return the textbook's estimate of the search tree: (average moves) ^ squares. */
export function treeEstimate(moves) {
  const edges = moves.reduce((sum, m) => sum + m.length, 0);
  const branching = edges / moves.length;
  return { branching, nodes: branching ** moves.length };
}
