// The page's twin of the engine's orderings, checked against golden vectors made by the engine
// (tests/fixtures/orderings.json, written by `python -m tests.support.golden`).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { knightMoves, orderMoves } from "../../static/js/orderings.js";

const golden = JSON.parse(readFileSync(new URL("../fixtures/orderings.json", import.meta.url), "utf8"));

test("every board's knight moves are the engine's, in the textbook's order", () => {
  for (const [board, moves] of Object.entries(golden.moves)) {
    const [rows, cols] = board.split("x").map(Number);
    assert.deepEqual(knightMoves(rows, cols), moves, board);
  }
});

test("every ordering tries the moves in the engine's order", () => {
  const orders = new Set();
  for (const { rows, cols, order, seed, path, square, tries } of golden.orderings) {
    const onPath = new Uint8Array(rows * cols);
    for (const on of path) onPath[on] = 1;
    const moves = knightMoves(rows, cols);
    const got = orderMoves(order, moves, onPath, square, { rows, cols, seed });
    assert.deepEqual(got, tries, `${order} (seed ${seed}) from ${square} on ${rows}x${cols} after ${path.length} squares`);
    orders.add(order);
  }
  assert.deepEqual([...orders].sort(), ["naive", "random", "warnsdorff", "warnsdorff-roth"]);
});
