// The code panel's lines, checked against an oracle: the textbook's recursion written out here
// on its own, which reports every line it runs and every event it makes, in order.
import assert from "node:assert/strict";
import { test } from "node:test";

import { CODE, endLines, eventLine, linesRun } from "../../static/js/code.js";
import { apply, createModel } from "../../static/js/model.js";
import { knightMoves, orderMoves } from "../../static/js/orderings/orderings.js";

const EXAMPLE = [[1, 3], [2, 3], [], [4], [5], [2]]; // the textbook's graph, A to F
const EVENTS = 20000;

const NOTES = {
  1: ["line.call"], 2: ["line.append"], 3: ["line.notTour", "line.full", "line.notClosed"],
  4: ["line.tour"], 5: ["line.try", "line.done"], 6: ["line.onPath", "line.free"],
  7: ["line.recurse", "line.failed", "line.succeeded"], 8: ["line.returnTrue"],
  9: ["line.pop", "line.popAfterTour"], 10: ["line.returnFalse"],
};

/**
 * Yield {line, square, depth} for every line the textbook's tour() runs, and {event} for each
 * event, as the engine makes them: the move order is computed on entering a square, with the
 * path up to it; a full path is a tour unless closed and the start has no move to its last
 * square; with all, the search goes on after a tour by taking its last square off the path.
 */
function* textbook(moves, start, run, { closed = false, all = false } = {}) {
  const onPath = new Uint8Array(moves.length);
  let length = 0;
  function* tour(square) {
    const depth = length;
    yield { line: 1, square, depth };
    onPath[square] = 1;
    length += 1;
    yield { line: 2, square, depth };
    yield { event: square };
    yield { line: 3, square, depth };
    if (length === moves.length) {
      if (!closed || moves[start].includes(square)) {
        yield { line: 4, square, depth };
        yield { event: "found" };
        if (!all) return true;
      }
    } else {
      for (const move of orderMoves(run.order, moves, onPath, square, run)) {
        yield { line: 5, square: move, depth };
        yield { line: 6, square: move, depth };
        if (onPath[move]) continue;
        yield { line: 7, square: move, depth };
        const found = yield* tour(move);
        yield { line: 7, square: move, depth }; // back in line 7 with what the call returned
        if (found) {
          yield { line: 8, square, depth };
          return true;
        }
      }
      yield { line: 5, square, depth };
    }
    yield { line: 9, square, depth };
    onPath[square] = 0;
    length -= 1;
    yield { event: -square - 1 };
    yield { line: 10, square, depth };
    return false;
  }
  yield* tour(start);
}

const seen = new Set(); // the notes the runs below have shown
const shown = ({ line, square, depth }) => `${line}:${square}@${depth}`;

// Check linesRun over each of the first EVENTS events against the oracle, and endLines after
// the last event of a search that ends sooner.
function check(name, moves, start, run, options = {}) {
  const model = createModel(run.rows, run.cols, start, options.closed);
  let last = null;
  let expected = [];
  for (const step of textbook(moves, start, run, options)) {
    if (!("event" in step)) {
      expected.push(step);
      continue;
    }
    const code = step.event;
    const got = linesRun(model, moves, run, last, code);
    if (got.map(shown).join() !== expected.map(shown).join()) {
      assert.deepEqual(got.map(shown), expected.map(shown), `${name}: lines before event ${model.events} (${code})`);
    }
    for (const { line, note, params } of got) {
      assert.ok(NOTES[line].includes(note), `${name}: note ${note} at line ${line}`);
      seen.add(note);
      // Warnsdorff's orders list only free moves, so none is ever found on the path.
      assert.ok(!(run.order.startsWith("warnsdorff") && note === "line.onPath"), `${name}: ${note}`);
      assert.ok(Object.values(params).every(Number.isInteger), `${name}: params of ${note}`);
    }
    assert.equal(got.at(-1).line, eventLine(code));
    apply(model, code);
    last = code;
    expected = [];
    if (model.events === EVENTS) return model.events;
  }
  const end = endLines(model, last);
  assert.deepEqual(end.map(shown), expected.map(shown), `${name}: lines after the end`);
  for (const { note } of end) seen.add(note);
  return model.events;
}

// Return [moves, start, run] for a run on a rows x cols board.
function board(order, rows, cols, start, seed = 0) {
  return [knightMoves(rows, cols), start, { order, seed, rows, cols }];
}

test("CODE is the textbook's ten lines, comments as message ids", () => {
  assert.equal(CODE.length, 10);
  assert.equal(CODE[4].text, "    for move in ordered(square):");
  assert.deepEqual(CODE.map((line) => line.comment).filter(Boolean), ["code.gray", "code.tour", "code.white"]);
  assert.ok(CODE.every(({ text }) => text === text.trimEnd() && !text.includes("#")));
});

test("each event comes from its line", () => {
  assert.equal(eventLine(null), 0);
  assert.equal(eventLine(undefined), 0);
  assert.equal(eventLine(0), 2);
  assert.equal(eventLine(7), 2);
  assert.equal(eventLine(-1), 9);
  assert.equal(eventLine("found"), 4);
});

test("the first event runs the call and the append", () => {
  const [moves, , run] = board("naive", 5, 5, 0);
  const model = createModel(5, 5, 12);
  assert.deepEqual(linesRun(model, moves, run, null, 12), [
    { line: 1, square: 12, depth: 0, note: "line.call", params: { square: 12 } },
    { line: 2, square: 12, depth: 0, note: "line.append", params: { square: 12, visit: 1 } },
  ]);
});

test("a visit after a visit skips the moves on the path and calls the first free one", () => {
  const [moves, , run] = board("naive", 5, 5, 0);
  const model = createModel(5, 5, 0);
  apply(model, 0);
  apply(model, 7); // naive order from 7: 0, 4, 10, 14, 16, 18
  assert.deepEqual(linesRun(model, moves, run, 7, 4).map(({ line, note, params }) => [line, note, params]), [
    [3, "line.notTour", { square: 7, length: 2, limit: 25 }],
    [5, "line.try", { square: 7, move: 0 }],
    [6, "line.onPath", { square: 7, move: 0, visit: 1 }],
    [5, "line.try", { square: 7, move: 4 }],
    [6, "line.free", { square: 7, move: 4 }],
    [7, "line.recurse", { square: 7, move: 4 }],
    [1, "line.call", { square: 4 }],
    [2, "line.append", { square: 4, visit: 3 }],
  ]);
});

test("a backtrack returns False into the caller, whose loop goes on", () => {
  const [moves, , run] = board("naive", 5, 5, 0);
  const model = createModel(5, 5, 0);
  for (const code of [0, 7, 4, -5]) apply(model, code); // 4 is backed out of, into 7
  assert.deepEqual(linesRun(model, moves, run, -5, 10).map(({ line, note }) => [line, note]), [
    [10, "line.returnFalse"], [7, "line.failed"], [5, "line.try"], [6, "line.free"], [7, "line.recurse"],
    [1, "line.call"], [2, "line.append"],
  ]);
});

test("a square with no moves ends its loop at once and pops", () => {
  // On the example graph C (2) has no moves: its loop ends at once.
  const run = { order: "naive", seed: 0, rows: 1, cols: 6 };
  const model = createModel(1, 6, 0);
  for (const code of [0, 1, 2]) apply(model, code);
  assert.deepEqual(linesRun(model, EXAMPLE, run, 2, -3).map(({ line, square, note }) => [line, square, note]), [
    [3, 2, "line.notTour"], [5, 2, "line.done"], [9, 2, "line.pop"],
  ]);
});

test("after a tour, an all-tours search pops its last square to look for more", () => {
  const run = { order: "naive", seed: 0, rows: 1, cols: 1 };
  const model = createModel(1, 1, 0);
  apply(model, 0);
  assert.deepEqual(linesRun(model, [[]], run, 0, "found").map(({ line, note }) => [line, note]),
                   [[3, "line.full"], [4, "line.tour"]]);
  apply(model, "found");
  assert.deepEqual(linesRun(model, [[]], run, "found", -1).map(({ line, note }) => [line, note]),
                   [[9, "line.popAfterTour"]]);
});

test("a search stopped early has no lines after its last event", () => {
  const model = createModel(5, 5, 0);
  apply(model, 0);
  assert.deepEqual(endLines(model, 0), []);
  assert.deepEqual(endLines(model, null), []);
});

const GRAPH = { order: "naive", seed: 0, rows: 1, cols: EXAMPLE.length }; // how the page models it

// [name, moves, start, run, options, events]: events is how many the check covers, EVENTS for
// a search longer than that.
const RUNS = [
  ["naive 5x5 from a corner", ...board("naive", 5, 5, 0), {}, 9996],
  ["naive 5x5, all tours", ...board("naive", 5, 5, 0), { all: true }, EVENTS],
  ["naive 6x6 from a corner", ...board("naive", 6, 6, 0), {}, EVENTS],
  ["warnsdorff 8x8 from a corner", ...board("warnsdorff", 8, 8, 0), {}, 65],
  ["warnsdorff 5x5 from b5, where no tour starts", ...board("warnsdorff", 5, 5, 1), {}, EVENTS],
  ["warnsdorff-roth 7x7 from the middle, all tours", ...board("warnsdorff-roth", 7, 7, 24), { all: true }, EVENTS],
  ["random 6x6, seed 2024", ...board("random", 6, 6, 0, 2024), {}, EVENTS],
  ["random 5x5, seed 7, all tours", ...board("random", 5, 5, 12, 7), { all: true }, EVENTS],
  ["naive 3x4, closed: full paths that do not close", ...board("naive", 3, 4, 0), { closed: true }, 134],
  ["naive 1x1", ...board("naive", 1, 1, 0), {}, 2],
  ["naive 1x1, all tours", ...board("naive", 1, 1, 0), { all: true }, 3],
  ["naive 1x1, closed", ...board("naive", 1, 1, 0), { closed: true }, 2],
  ["warnsdorff 2x3", ...board("warnsdorff", 2, 3, 0), {}, 4],
  ["the example graph from A", EXAMPLE, 0, GRAPH, {}, 9],
  ["the example graph from A, all tours", EXAMPLE, 0, GRAPH, { all: true }, 23],
  ["the example graph from A, closed", EXAMPLE, 0, GRAPH, { closed: true }, 22],
];

for (const [name, moves, start, run, options, events] of RUNS) {
  test(`${name}: each event's lines are the oracle's`, () => {
    assert.equal(check(name, moves, start, run, options), events);
  });
}

test("the runs above show every note", () => {
  assert.deepEqual([...seen].sort(), Object.values(NOTES).flat().sort());
});
