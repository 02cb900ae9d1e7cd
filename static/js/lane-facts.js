// What the views show about a run besides its model, worked out once a frame at most: the
// search's call stack, the dead end just left, and each square's name.
import { linesRun } from "./code.js";
import { callStack, deadEnd } from "./lesson.js";
import { copyModel, fromSnapshot, undo } from "./model.js";
import { squareName } from "./notation.js";
import { predictable } from "./controls.js";
import { orderLabel } from "./orderings/words.js";
import { raceOrder } from "./settings.js";

const MIN_TREE_SPAN = 8; // the fewest nodes across the tree picture, zoomed in all the way
const PARTING_SPAN = 12, PARTING_BEFORE = 4; // nodes shown zoomed to where a race's trees part, and before it
const memo = new WeakMap(); // lane -> {key, stack}

/** Return a square's (or the example graph's vertex's) name, as the whole page writes it. */
export function nameOf(lane, square) {
  return lane.graph ? lane.graph.names[square] : squareName(square, lane.model.rows, lane.model.cols);
}

/** Return the run settings that decide a lane's move order (the settings', before any run). */
export function orderOf(lane, state, runs) {
  if (lane.run) return lane.run;
  const s = state.settings;
  const order = s.mode === "race" ? raceOrder(s, lane === runs.main) : s.mode === "example" ? "naive" : s.order;
  return { order, seed: s.seed, rows: lane.model.rows, cols: lane.model.cols };
}

/** Return the search's call stack as the lane's view stands (see lesson.callStack). */
export function stackOf(lane, state, runs) {
  const m = lane.model;
  const run = orderOf(lane, state, runs);
  const key = `${lane.run?.run}:${m.events}:${m.path.length}:${m.rows}x${m.cols}:${run.order}:${run.seed}`;
  const cached = memo.get(lane);
  if (cached?.key === key && cached.model === m) return cached.stack;
  const stack = m.path.length ? callStack(m, lane.moves(), run, lane.lastShown()) : [];
  memo.set(lane, { key, model: m, stack });
  return stack;
}

/** Return the dead end the knight just backtracked from, with its moves, or null. */
export function deadEndOf(lane) {
  const last = lane.lastShown();
  return typeof last === "number" && last < 0 ? deadEnd(lane.model, lane.moves(), -last - 1) : null;
}

/** Return the name of the ordering a lane runs (its run's, else the settings'). */
export function raceName(lane, state, runs) {
  return orderLabel(orderOf(lane, state, runs).order, state.orderings.library);
}

/** Tell whether the board holds still: marks stay until the next move, as nothing plays. */
export function held(state) {
  return !state.run.replaying && state.run.status !== "playing" && state.run.status !== "skipping";
}

/** Return the lane the lesson panels describe (in a race, the side the user chose). */
export function lessonLane(state, runs) {
  return state.settings.mode === "race" && state.view.side === "second" ? runs.second : runs.main;
}

const traces = new WeakMap(); // lane -> {key, trace}

/** Return the lines of the code that ran for the last event the lane's view shows, or []. */
export function lastTrace(lane) {
  const m = lane.model, last = lane.lastShown();
  if (last === null) return [];
  const key = `${lane.run?.run}:${m.events}`;
  const cached = traces.get(lane);
  if (cached?.key === key && cached.model === m) return cached.trace;
  // The lines are worked out from the state before the event: undo it on a copy.
  const before = undo(copyModel(m), last);
  const at = m.events - 1;
  if (at > 0 && at - 1 < lane.timeline.first) return []; // the event before it was never received
  const previous = at > lane.timeline.first ? lane.timeline.at(at - 1) : null;
  const trace = linesRun(before, lane.moves(), lane.run, previous, last);
  traces.set(lane, { key, model: m, trace });
  return trace;
}

/**
 * Tell whether the moves still to try are kept from the view: they would answer the question
 * open (the class's), or the next one (in predict mode).
 */
export function asking(state) {
  return Boolean((state.predict.on && predictable(state)) || state.poll.open);
}

/** Return the question asked again turned that the lane's board shows instead of its run's
 * position: while it is open, and after its reveal until the run moves on; else null. */
export function turnedOf(lane, state) {
  const { open, result } = state.poll;
  const asked = open?.transfer ? open : !open && result?.transfer ? result : null;
  return asked && asked.run === lane.run?.run && asked.at === lane.model.events ? asked : null;
}

// The last turned board made, once a question: {id, source (the lane it turns), lane (its own)}.
let turnedShown = null;

/** Return what the lane's board shows: the lane itself, or the turned position of a question
 * asked again turned (its model holds the turned path, the knight on its last square). */
export function shownLane(lane, state) {
  const asked = turnedOf(lane, state);
  if (!asked) return lane;
  if (turnedShown?.id !== asked.id || turnedShown.source !== lane) {
    const { rows, cols, closed } = lane.model, { path } = asked.transfer;
    const snapshot = { path, visits: path.length, backtracks: 0, tours: 0, events: path.length };
    const model = fromSnapshot(rows, cols, path[0], snapshot, closed);
    turnedShown = { id: asked.id, source: lane, lane: { model, run: lane.run, graph: null, turned: asked.transfer.turn,
      moves: () => lane.moves() } };
  }
  return turnedShown.lane;
}

/**
 * Return the answers to show on the lane's board: a student's own to the question open, while the
 * board shows its position (right: -1, not known yet); the class's to the question just revealed,
 * while the board shows its position or the move after; else the user's own, just judged.
 */
export function answersOf(lane, state) {
  const at = lane.model.events, run = lane.run?.run;
  const { open, result } = state.poll;
  // In the discussion, the answer given in the first round.
  const mine = open?.stage === "discuss" ? state.poll.first : state.poll.mine;
  if (open && mine !== null && open.run === run && open.at === at) {
    return { heat: null, right: -1, chosen: mine };
  }
  // A question asked again turned is about no move: its answers stay on its turned board.
  if (result && result.run === run && (at === result.at || (at === result.at + 1 && !result.transfer))) {
    return { heat: result.counts, right: result.answer, chosen: result.mine ?? null };
  }
  const judged = state.predict.feedback;
  if (judged && state.predict.on && judged.run === run && at === judged.at + 1) {
    return { heat: null, right: judged.real, chosen: judged.chose };
  }
  return null;
}

/**
 * Return the class's code exercise over the instructor's board, while it is open on a board of
 * the lane's size: heat's counts ([square, count]) of the squares where students' searches went
 * when they first parted from the textbook's.
 */
export function exerciseAnswers(lane, state) {
  const { open, tally } = state.exercise;
  if (state.klass.role !== "instructor" || !open || !tally?.heat.length || tally.id !== open.id) return null;
  if (lane.model.rows !== open.rows || lane.model.cols !== open.cols) return null;
  return { heat: tally.heat, right: -1, chosen: null };
}

/** Return the lanes whose trees the tree panel draws: both of a race's, on one scale; else the main. */
export function treeLanes(state, runs) {
  return state.settings.mode === "race" ? [runs.main, runs.second] : [runs.main];
}

/**
 * Return what the tree picture shows of a lane's tree: every node received, all of them or the
 * stretch the user zoomed to (view.treeSpan, of this run), those after the moment shown (visits)
 * drawn as still to come. Beside other lanes (a race's), every picture has one scale: nodes
 * across its width, as many as the largest tree's.
 */
export function treeShown(state, lane, lanes = [lane]) {
  const { tree, model } = lane, span = state.view.treeSpan;
  const total = Math.max(...lanes.map((each) => each.tree.size));
  const zoomed = span && span.run === lanes[0].run?.run && span.from < total;
  // Zoomed in at the newest nodes, the picture keeps up with the search as it grows.
  const from = !zoomed ? 0 : span.live ? Math.max(0, total - (span.to - span.from)) : span.from;
  const to = zoomed ? Math.min(span.live ? total : span.to, total) : total;
  return { tree, visits: model.visits, known: tree.size, total, squares: model.squares, from, to: Math.max(to, from + 1) };
}

/**
 * Return the stretch of nodes to show after zooming shown (treeShown's) by factor (below 1: in)
 * about node at; null for the whole tree. A stretch that reaches the newest node is live: it
 * moves on with the nodes that come.
 */
export function zoomedSpan(shown, at, factor) {
  const { from, to, total } = shown;
  const width = Math.max(MIN_TREE_SPAN, Math.round((to - from) * factor));
  if (width >= total) return null;
  const start = Math.round(at - ((at - from) / (to - from)) * width);
  const clamped = Math.max(0, Math.min(total - width, start));
  return { from: clamped, to: clamped + width, live: clamped + width >= total };
}

const partings = new WeakMap(); // a race's first tree -> how far it is known to be like the second

/**
 * Return the first node at which a race's two trees part (the searches' first paths part just
 * above it: another square, or a backtrack in one of them); -1 while they are alike as far as
 * both go; null if they cannot be compared (a tree not whole, or trees alike as far as a skip's
 * outline, which cannot tell).
 */
export function partingNode(first, second) {
  const a = first.tree, b = second.tree;
  if (!a.whole || !b.whole) return null;
  let known = partings.get(a);
  if (!known || known.other !== b) partings.set(a, known = { other: b, alike: 0, parted: false });
  // Trees only grow, so nodes found alike stay so: each node is compared once.
  for (const end = Math.min(a.exact, b.exact); !known.parted && known.alike < end;) {
    const k = known.alike;
    if (a.depthOf(k) !== b.depthOf(k) || a.squareOf(k) !== b.squareOf(k)) known.parted = true;
    else known.alike += 1;
  }
  if (known.parted) return known.alike;
  // Alike as far as both are held node by node: past that, a skip's outline cannot tell.
  return Math.min(a.exact, b.exact) < Math.min(a.size, b.size) ? null : -1;
}

/** Return the stretch of nodes to show zoomed to where a race's trees part, at node parting. */
export function partingSpan(parting) {
  const from = Math.max(0, parting - PARTING_BEFORE);
  return { from, to: from + PARTING_SPAN };
}

/** Return the tree's node the user points at or chose by the keys, or -1 (none, or another run's). */
export function pointedNode(state, lane) {
  const chosen = state.view.treeNode;
  if (!chosen || chosen.run !== lane.run?.run || !lane.tree.whole) return -1;
  return chosen.node < lane.tree.size ? chosen.node : -1;
}
