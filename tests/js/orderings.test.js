// The page's twin of the engine's orderings, checked against golden vectors made by the engine
// (tests/fixtures/orderings.json, written by `python -m tests.support.golden`).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { KEYS, OrderError, knightMoves, orderMoves, parseOrder } from "../../static/js/orderings/orderings.js";

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

const cases = JSON.parse(readFileSync(new URL("../fixtures/ordering_cases.json", import.meta.url), "utf8"));

test("each key and composed ordering tries the hand-worked positions' moves in their order", () => {
  for (const { board: [rows, cols], path, moves: listed, orders } of cases.positions) {
    const moves = knightMoves(rows, cols);
    const square = path.at(-1);
    assert.deepEqual(moves[square], listed, `the moves from ${square} on ${rows}x${cols}`);
    const onPath = new Uint8Array(rows * cols);
    for (const on of path) onPath[on] = 1;
    for (const [order, tries] of Object.entries(orders)) {
      const got = orderMoves(order, moves, onPath, square, { rows, cols, seed: 0, start: path[0] });
      assert.deepEqual(got, tries, `${order} from ${square} on ${rows}x${cols} after ${path.join(" ")}`);
    }
  }
});

test("a written form with an unknown, repeated or surplus key is refused, never run", () => {
  for (const written of cases.refused) assert.throws(() => parseOrder(written, golden.limits.maxKeys), OrderError, JSON.stringify(written));
  assert.throws(() => parseOrder(["onward"]), { id: "order.notText" });
  // Each refusal names what is wrong, in the page's words.
  assert.throws(() => parseOrder("onward,,x"), { id: "order.emptyKey" });
  assert.throws(() => parseOrder("onward,x"), { id: "order.unknownKey", params: { key: "x", keys: KEYS.join(", ") } });
  assert.throws(() => parseOrder("pohl,-pohl"), { id: "order.twice", params: { key: "pohl" } });
  const { maxKeys } = golden.limits;
  assert.throws(() => parseOrder("index,".repeat(maxKeys) + "index", maxKeys), { id: "order.tooMany", params: { n: maxKeys, count: maxKeys + 1 } });
  const surplus = KEYS.slice(0, maxKeys + 1).join(",");
  assert.equal(parseOrder(surplus).length, maxKeys + 1, "no limit but the one given");
  assert.deepEqual(parseOrder("warnsdorff-roth"), [
    { name: "onward", descending: false }, { name: "centre", descending: true },
  ]);
});

test("the random key shuffles each square's moves by the seed", () => {
  const moves = knightMoves(6, 6);
  const onPath = new Uint8Array(36);
  const orders = [0, 1, 2, 3].map((seed) => orderMoves("random", moves, onPath, 14, { rows: 6, cols: 6, seed }));
  for (const order of orders) assert.deepEqual([...order].sort((a, b) => a - b), [...moves[14]].sort((a, b) => a - b));
  assert.ok(new Set(orders.map(String)).size > 1, "every seed gave the same order");
  assert.deepEqual(orderMoves("-random", moves, onPath, 14, { rows: 6, cols: 6, seed: 2 }), [...orders[2]].reverse());
});
