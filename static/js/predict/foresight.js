// What the search does next and why, worked out from the model alone: the page's twin of the
// engine's lookahead (server/engine/lookahead.py), with the reasons a learner weighs.
import { callStack, deadEnd } from "../lesson.js";
import { fewestOnwardFirst, freeMoves } from "../orderings/orderings.js";

/**
 * Return the square a wire code leads to from model: a visit's square, the square a backtrack
 * backs up to (-1 from the start), -1 for "found".
 */
export function answerOf(code, model) {
  if (typeof code !== "number") return -1;
  if (code >= 0) return code;
  return model.path.length >= 2 ? model.path[model.path.length - 2] : -1;
}

// The knight's moves as its ordering lists them, then those it leaves out (Warnsdorff lists
// only the squares free when the knight arrived), each with its onward moves and visit number.
function candidatesOf(model, moves, knight, order) {
  const listed = [...order, ...moves[knight].filter((w) => !order.includes(w))];
  return listed.map((square) => ({
    square, onward: freeMoves(moves, model.numbers, square), blocked: model.numbers[square],
  }));
}

/**
 * Return the event the search makes after last (a wire code, null before any), and why.
 *
 * model is the run's state, moves the graph's move lists, run {order, seed, rows, cols, closed,
 * all_tours}. The result: {kind: "visit"|"back"|"found"|"end", square (visit: where the knight
 * goes; back: the square it backs up to, -1 from the start; found, end: the knight's square or
 * -1), from (the knight's square or -1), code (the next wire code, null at the end), order
 * (the knight's moves as its ordering tries them), tried (those of order the search went to and
 * came back from), candidates ([{square, onward, blocked}]: every move of the knight, in order,
 * with its free onward moves and the visit number of a square on the path, 0 if free), tie (for
 * orderings led by Warnsdorff's rule, the untried moves with the chosen move's onward count, in order, when
 * there are two or more; else []), deadEnd (for "back": every move lands on the path)}.
 */
export function foresee(model, moves, run, last) {
  const path = model.path;
  const knight = path.length ? path[path.length - 1] : -1;
  const stack = knight < 0 ? [] : callStack(model, moves, run, last);
  const top = stack[stack.length - 1] ?? { order: [], tried: 0, toTry: [] };
  const tried = top.order.slice(0, top.tried).filter((w) => !model.numbers[w]);
  const seen = {
    from: knight, order: top.order, tried,
    candidates: knight < 0 ? [] : candidatesOf(model, moves, knight, top.order),
    tie: [], deadEnd: false,
  };
  const event = (kind, square, code) => ({ kind, square, ...seen, code });
  if (last == null && knight < 0) return event("visit", model.start, model.start);
  if (knight < 0 || (last === "found" && !run.all_tours)) return event("end", knight, null);
  const back = () => ({
    ...event("back", answerOf(-knight - 1, model), -knight - 1),
    deadEnd: deadEnd(model, moves, knight).blocked,
  });
  if (path.length === moves.length && last !== "found") {
    // A full path is reported only if it closes, when it must; either way it is backed out of.
    const closes = !run.closed || moves[path[0]].includes(knight);
    return closes ? event("found", knight, "found") : back();
  }
  const [chosen] = top.toTry;
  if (chosen === undefined) return back();
  const next = event("visit", chosen, chosen);
  // An ordering that ranks moves by their onward-move counts first: equal counts are ties.
  if (fewestOnwardFirst(run.order)) {
    const onward = freeMoves(moves, model.numbers, chosen);
    const tie = top.toTry.filter((w) => freeMoves(moves, model.numbers, w) === onward);
    if (tie.length > 1) next.tie = tie;
  }
  return next;
}
