// The page's prediction of the search's next event, checked at every event of the engine's own
// traces (tests/fixtures/orderings.json, written by `python -m tests.support.golden`), and the
// reasons it gives on hand-made positions.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { answerOf, foresee } from "../../static/js/predict/foresight.js";
import { apply, createModel } from "../../static/js/model.js";
import { knightMoves } from "../../static/js/orderings/orderings.js";

const golden = JSON.parse(readFileSync(new URL("../fixtures/orderings.json", import.meta.url), "utf8"));
const EXAMPLE = [[1, 3], [2, 3], [], [4], [5], [2]]; // the textbook's graph, A to F
const KINDS = { visit: (code) => code >= 0, back: (code) => code < 0, found: (code) => code === "found" };

// Return the model after the events, on a rows x cols board from the first event's square.
function after(rows, cols, events, closed = false) {
  const model = createModel(rows, cols, events[0], closed);
  for (const code of events) apply(model, code);
  return model;
}

// Return the run settings foresee takes, as the page keeps them.
function runOf(order, rows, cols, { seed = 0, closed = false, all_tours = false } = {}) {
  return { order, seed, rows, cols, closed, all_tours };
}

// Check foresee at every event of a trace; return how many backtracks and ties it predicted.
function replay(trace) {
  const { rows, cols, start, order, closed, events } = trace;
  const moves = trace.moves ?? knightMoves(rows, cols);
  const run = runOf(order, rows, cols, trace);
  const model = createModel(rows, cols, start, closed);
  const name = `${order} (seed ${trace.seed}) from ${start} on ${trace.graph} ${rows}x${cols}`;
  let last = null;
  let backs = 0;
  let ties = 0;
  events.forEach((code, i) => {
    const seen = foresee(model, moves, run, last);
    const where = `${name}, event ${i}`;
    assert.equal(seen.code, code, where);
    assert.ok(KINDS[seen.kind](code), where);
    if (seen.kind !== "found") assert.equal(seen.square, answerOf(code, model), where);
    if (seen.kind === "back") {
      backs += 1;
      // Backing out of the square just reached (or just reported) is the one true dead end.
      assert.equal(seen.deadEnd, last === "found" || last === seen.from, where);
    }
    if (seen.from >= 0) {
      assert.deepEqual(seen.candidates.map((c) => c.square).sort((a, b) => a - b),
        [...moves[seen.from]].sort((a, b) => a - b), where);
      for (const c of seen.candidates) assert.equal(c.blocked, model.numbers[c.square], where);
      const back = typeof last === "number" && last < 0;
      assert.equal(seen.tried.at(-1), back ? -last - 1 : undefined, where);
    }
    if (seen.tie.length) {
      ties += 1;
      const onward = new Map(seen.candidates.map((c) => [c.square, c.onward]));
      assert.equal(seen.tie[0], seen.square, where);
      assert.ok(seen.tie.every((w) => onward.get(w) === onward.get(seen.square) && !seen.tried.includes(w)), where);
    }
    apply(model, code);
    last = code;
  });
  const end = foresee(model, moves, run, last);
  if (trace.ended) assert.deepEqual([end.kind, end.code], ["end", null], `${name}, at the end`);
  else assert.notEqual(end.kind, "end", `${name}, cut short`);
  return { backs, ties };
}

test("the page predicts every event of the engine's traces, for every ordering", () => {
  const seen = {};
  for (const trace of golden.traces) {
    const { backs, ties } = replay(trace);
    const sum = seen[trace.order] ?? { backs: 0, ties: 0 };
    seen[trace.order] = { backs: sum.backs + backs, ties: sum.ties + ties };
  }
  assert.deepEqual(Object.keys(seen).sort(), ["naive", "random", "warnsdorff", "warnsdorff-roth"]);
  for (const [order, { backs, ties }] of Object.entries(seen)) {
    assert.ok(backs > 100, `${order}: ${backs} backtracks`);
    assert.equal(ties > 0, order.startsWith("warnsdorff"), `${order}: ${ties} ties`);
  }
  assert.ok(golden.traces.some((t) => t.graph === "example" && t.ended));
  assert.ok(golden.traces.some((t) => t.all_tours && t.events.filter((c) => c === "found").length > 1));
});

test("before any event the knight is placed on the start", () => {
  const seen = foresee(createModel(5, 5, 12), knightMoves(5, 5), runOf("naive", 5, 5), null);
  assert.deepEqual(seen, {
    kind: "visit", square: 12, from: -1, order: [], tried: [], candidates: [], tie: [], deadEnd: false, code: 12,
  });
});

test("Warnsdorff's tie lists the untried moves sharing the chosen one's onward count", () => {
  const moves = knightMoves(5, 5);
  const model = after(5, 5, [0]);
  for (const order of ["warnsdorff", "warnsdorff-roth"]) {
    const seen = foresee(model, moves, runOf(order, 5, 5), 0);
    // From a5 both moves have five onward moves and lie as far from the centre.
    assert.deepEqual([seen.kind, seen.square, seen.order, seen.tie], ["visit", 7, [7, 11], [7, 11]], order);
    assert.deepEqual(seen.candidates, [{ square: 7, onward: 5, blocked: 0 }, { square: 11, onward: 5, blocked: 0 }]);
  }
  assert.deepEqual(foresee(model, moves, runOf("naive", 5, 5), 0).tie, []);
  // Once 7 has been tried and backed out of, 11 is tried alone: no tie is left.
  const later = after(5, 5, [0, 7, -8]);
  const seen = foresee(later, moves, runOf("warnsdorff", 5, 5), -8);
  assert.deepEqual([seen.square, seen.tried, seen.tie], [11, [7], []]);
});

test("Warnsdorff's candidates cover the moves it left out, and a tie forms once the lone best fails", () => {
  const moves = knightMoves(5, 5);
  const run = runOf("warnsdorff", 5, 5);
  const model = after(5, 5, [0, 7]); // from c4 every move but the one back to a5 is free
  const first = foresee(model, moves, run, 7);
  assert.deepEqual([first.square, first.order, first.tried, first.tie], [4, [4, 10, 14, 16, 18], [], []]);
  assert.deepEqual(first.candidates, [
    { square: 4, onward: 1, blocked: 0 }, { square: 10, onward: 3, blocked: 0 },
    { square: 14, onward: 3, blocked: 0 }, { square: 16, onward: 3, blocked: 0 },
    { square: 18, onward: 3, blocked: 0 }, { square: 0, onward: 1, blocked: 1 },
  ]);
  apply(model, 4);
  apply(model, -5);
  const second = foresee(model, moves, run, -5);
  assert.deepEqual([second.square, second.tried, second.tie], [10, [4], [10, 14, 16, 18]]);
});

test("a square whose every move is on the path is backed out of as a true dead end", () => {
  // The naive 5x5 search from a5 meets its first dead end at e4 (9).
  const model = after(5, 5, [0, 7, 4, 13, 2, 5, 12, 1, 8, 11, 18, 9]);
  const seen = foresee(model, knightMoves(5, 5), runOf("naive", 5, 5), 9);
  assert.deepEqual(seen, {
    kind: "back", square: 18, from: 9, order: [2, 12, 18], tried: [],
    candidates: [{ square: 2, onward: 0, blocked: 5 }, { square: 12, onward: 5, blocked: 7 },
      { square: 18, onward: 1, blocked: 11 }],
    tie: [], deadEnd: true, code: -10,
  });
  assert.equal(answerOf(seen.code, model), 18);
});

test("a square whose free moves all failed further on is no true dead end", () => {
  // Closed tours of the example graph: F's one move, to C, was tried and backed out of.
  const model = after(1, 6, [0, 1, 2, -3, 3, 4, 5, 2, -3], true);
  const seen = foresee(model, EXAMPLE, runOf("naive", 1, 6, { closed: true }), -3);
  assert.deepEqual(seen, {
    kind: "back", square: 4, from: 5, order: [2], tried: [2],
    candidates: [{ square: 2, onward: 0, blocked: 0 }], tie: [], deadEnd: false, code: -6,
  });
});

// Return the parts of a prediction that say what happens: kind, square and code.
function what({ kind, square, code }) {
  return [kind, square, code];
}

test("a full path is a tour unless it must close and does not", () => {
  const full = after(1, 6, [0, 1, 2, -3, 3, 4, 5, 2]); // A B D E F C
  assert.deepEqual(what(foresee(full, EXAMPLE, runOf("naive", 1, 6), 2)), ["found", 2, "found"]);
  const closed = foresee(full, EXAMPLE, runOf("naive", 1, 6, { closed: true }), 2);
  assert.deepEqual([...what(closed), closed.deadEnd], ["back", 5, -3, true]);
  const one = after(1, 1, [0]);
  assert.deepEqual(what(foresee(one, [[]], runOf("naive", 1, 1), 0)), ["found", 0, "found"]);
  assert.deepEqual(what(foresee(one, [[]], runOf("naive", 1, 1, { closed: true }), 0)), ["back", -1, -1]);
});

test("after a tour the search ends, or backs out of it for the next when it wants all tours", () => {
  const tour = after(1, 1, [0, "found"]);
  assert.deepEqual(what(foresee(tour, [[]], runOf("naive", 1, 1), "found")), ["end", 0, null]);
  const more = foresee(tour, [[]], runOf("naive", 1, 1, { all_tours: true }), "found");
  assert.deepEqual([...what(more), more.deadEnd], ["back", -1, -1, true]);
  const gone = foresee(after(1, 1, [0, "found", -1]), [[]], runOf("naive", 1, 1, { all_tours: true }), -1);
  assert.deepEqual([...what(gone), gone.from], ["end", -1, null, -1]);
});

test("a wire code's answer is the square it leads to", () => {
  const model = after(5, 5, [0, 7, 4]);
  assert.equal(answerOf(10, model), 10);
  assert.equal(answerOf(-5, model), 7);
  assert.equal(answerOf("found", model), -1);
  assert.equal(answerOf(-1, after(5, 5, [0])), -1);
});
