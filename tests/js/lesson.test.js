// What a lesson shows beside the board: the call stack, the textbook's estimate of the search
// tree and its formatting, why the search backed up, and the position in words.
import assert from "node:assert/strict";
import { test } from "node:test";

import { bookEstimate, callStack, deadEnd, position, scientific, treeEstimate } from "../../static/js/lesson.js";
import { apply, createModel } from "../../static/js/model.js";
import { knightMoves } from "../../static/js/orderings/orderings.js";

const EXAMPLE = [[1, 3], [2, 3], [], [4], [5], [2]]; // the textbook's graph, A to F

// Return the model after the events, on a rows x cols board from the first event's square.
function after(rows, cols, events, closed = false) {
  const model = createModel(rows, cols, events[0], closed);
  for (const code of events) apply(model, code);
  return model;
}

// Return the first count events of a naive search (moves tried by ascending square), with a
// full path taken as a tour only if closing says so.
function naiveEvents(moves, start, count, closing = () => true) {
  const events = [];
  const onPath = new Uint8Array(moves.length);
  let length = 0;
  const tour = (square) => {
    if (events.length >= count) return true;
    onPath[square] = 1;
    length += 1;
    events.push(square);
    if (length === moves.length && closing(square)) {
      events.push("found");
      return true;
    }
    for (const move of [...moves[square]].sort((a, b) => a - b)) {
      if (!onPath[move] && tour(move)) return true;
    }
    onPath[square] = 0;
    length -= 1;
    events.push(-square - 1);
    return false;
  };
  tour(start);
  return events.slice(0, count);
}

test("each level of the call stack carries the visit number the board shows", () => {
  const model = after(5, 5, [0, 7, 4]);
  const stack = callStack(model, knightMoves(5, 5), { order: "naive", seed: 0, rows: 5, cols: 5 }, 4);
  assert.deepEqual(stack.map(({ square, depth, visit }) => [square, depth, visit]), [[0, 0, 1], [7, 1, 2], [4, 2, 3]]);
  for (const level of stack) assert.equal(level.visit, model.numbers[level.square]);
});

test("the tree estimate is k ** squares for the exact average k", () => {
  const five = treeEstimate(knightMoves(5, 5));
  assert.equal(five.branching, 96 / 25);
  assert.ok(Math.abs(five.log10 - 25 * Math.log10(3.84)) < 1e-12);
  assert.equal(scientific(five.log10), "4.1 × 10¹⁴");
  assert.equal(scientific(treeEstimate(knightMoves(6, 6)).log10), "2.1 × 10²³");
  assert.equal(scientific(treeEstimate(knightMoves(8, 8)).log10), "1.2 × 10⁴⁶");
});

test("the tree estimate is finite for every board up to 32x32, and at least the start", () => {
  for (let rows = 1; rows <= 32; rows++) {
    for (let cols = 1; cols <= 32; cols++) {
      const { branching, log10 } = treeEstimate(knightMoves(rows, cols));
      assert.ok(Number.isFinite(branching) && branching >= 0, `${rows}x${cols}`);
      assert.ok(Number.isFinite(log10) && log10 >= 0, `${rows}x${cols}: ${log10}`);
      const book = bookEstimate(knightMoves(rows, cols));
      assert.ok(Number.isFinite(book.k) && Number.isFinite(book.log10) && book.log10 >= 0, `${rows}x${cols}`);
    }
  }
  assert.deepEqual(treeEstimate(knightMoves(1, 1)), { branching: 0, log10: 0 });
  assert.deepEqual(treeEstimate(knightMoves(2, 3)), { branching: 4 / 6, log10: 0 }); // fewer than one move
  assert.deepEqual(treeEstimate([]), { branching: 0, log10: 0 });
  assert.deepEqual(bookEstimate([]), { k: 0, log10: 0 });
});

test("the book's estimate rounds k to one decimal, as the book does for 5x5 and 6x6", () => {
  const five = bookEstimate(knightMoves(5, 5));
  assert.equal(five.k, 3.8);
  assert.equal(scientific(five.log10, 2), "3.12 × 10¹⁴"); // the book: 3.12×10^14
  const six = bookEstimate(knightMoves(6, 6));
  assert.equal(six.k, 4.4);
  assert.equal(scientific(six.log10), "1.5 × 10²³"); // the book: 1.5×10^23
  // For 8x8 the book keeps k = 5.25 and says 1.3×10^46; rounded, k is 5.3.
  const eight = bookEstimate(knightMoves(8, 8));
  assert.equal(eight.k, 5.3);
  assert.equal(scientific(eight.log10), "2.3 × 10⁴⁶");
  assert.equal(treeEstimate(knightMoves(8, 8)).branching, 5.25);
});

test("scientific writes a mantissa and a superscript power of ten", () => {
  assert.equal(scientific(0), "1.0 × 10⁰");
  assert.equal(scientific(2), "1.0 × 10²");
  assert.equal(scientific(Math.log10(250)), "2.5 × 10²");
  assert.equal(scientific(-5), "1.0 × 10⁻⁵");
  assert.equal(scientific(Math.log10(0.042)), "4.2 × 10⁻²");
  assert.equal(scientific(Math.log10(9.96)), "1.0 × 10¹"); // rounds up into the next power
  assert.equal(scientific(Math.log10(9.96), 2), "9.96 × 10⁰");
  assert.equal(scientific(1234), "1.0 × 10¹²³⁴");
  assert.equal(scientific(1e21), "1.0 × 10¹⁰⁰⁰⁰⁰⁰⁰⁰⁰⁰⁰⁰⁰⁰⁰⁰⁰⁰⁰⁰⁰");
  assert.equal(scientific(3, 0), "1 × 10³");
});

test("scientific never throws, whatever it is given", () => {
  const form = /^\d+\.\d × 10⁻?[⁰¹²³⁴⁵⁶⁷⁸⁹]+$/;
  for (let i = -500; i <= 200000; i++) {
    const log10 = i / 100;
    assert.match(scientific(log10), form, String(log10));
  }
  assert.equal(scientific(NaN), "?");
  assert.equal(scientific(undefined), "?");
  assert.equal(scientific("14"), "?");
  assert.equal(scientific(Infinity), "∞");
  assert.equal(scientific(-Infinity), "0");
  assert.equal(scientific(Number.MAX_VALUE), "1.0 × 10" + [...BigInt(Number.MAX_VALUE).toString()]
    .map((c) => "⁰¹²³⁴⁵⁶⁷⁸⁹"[c]).join(""));
  assert.doesNotThrow(() => scientific(14, 500));
  assert.doesNotThrow(() => scientific(14, -3));
  assert.doesNotThrow(() => scientific(14, NaN));
});

test("a square whose every move is on the path is a true dead end", () => {
  // On the example graph C has no moves at all; F's one move is to C, on the path.
  const model = after(1, 6, [0, 1, 2, -3]);
  assert.deepEqual(deadEnd(model, EXAMPLE, 2), { square: 2, moves: [], blocked: true, complete: false });
  // The naive 5x5 search from a5 meets its first dead end at e4 (9).
  const board = after(5, 5, [0, 7, 4, 13, 2, 5, 12, 1, 8, 11, 18, 9, -10]);
  assert.deepEqual(deadEnd(board, knightMoves(5, 5), 9), {
    square: 9, moves: [{ square: 2, visit: 5 }, { square: 12, visit: 7 }, { square: 18, visit: 11 }],
    blocked: true, complete: false,
  });
});

test("a square whose free moves all failed further on is no true dead end", () => {
  // Closed tours of the example graph: F's move to C is free again once C is backed out of.
  const model = after(1, 6, [0, 1, 2, -3, 3, 4, 5, 2, -3, -6], true);
  assert.deepEqual(deadEnd(model, EXAMPLE, 5), {
    square: 5, moves: [{ square: 2, visit: 0 }], blocked: false, complete: false,
  });
});

test("a full path backed out of is complete, every move on it", () => {
  const model = after(1, 6, [0, 1, 2, -3, 3, 4, 5, 2, -3], true); // A B D E F C does not close
  assert.deepEqual(deadEnd(model, EXAMPLE, 2), { square: 2, moves: [], blocked: true, complete: true });
});

test("a backtrack is a true dead end exactly when it follows its own visit", () => {
  const moves = knightMoves(6, 6);
  const events = naiveEvents(moves, 0, 20000);
  const model = createModel(6, 6, 0);
  let blocked = 0;
  events.forEach((code, i) => {
    apply(model, code);
    if (typeof code !== "number" || code >= 0) return;
    const square = -code - 1;
    const found = deadEnd(model, moves, square);
    assert.equal(found.blocked, events[i - 1] === square, `event ${i}`);
    for (const { square: w, visit } of found.moves) assert.equal(visit, model.numbers[w]);
    blocked += found.blocked;
  });
  assert.ok(blocked > 0 && blocked < model.backtracks);
});

test("the position lists the path, the knight's square and its free moves", () => {
  const moves = knightMoves(5, 5);
  const empty = createModel(5, 5, 0);
  assert.deepEqual(position(empty, moves), { path: [], current: -1, free: [] });
  const model = after(5, 5, [0, 7]);
  const seen = position(model, moves);
  assert.deepEqual(seen, { path: [0, 7], current: 7, free: [4, 10, 14, 16, 18] });
  seen.path.push(99);
  assert.deepEqual(model.path, [0, 7]); // a copy, not the model's own
  assert.deepEqual(position(after(1, 6, [0, 1, 2]), EXAMPLE), { path: [0, 1, 2], current: 2, free: [] });
});
