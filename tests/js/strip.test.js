// The strip's state on the page: each board's end kept in its place, boards that come before the
// server's answer kept for the strip asked for, an old strip's boards never mixed in, and the rows
// and tallies the view shows worked out from it.
import assert from "node:assert/strict";
import { test } from "node:test";

import { Store } from "../../static/js/store.js";
import { NO_STRIP, createStrip, stripBoards } from "../../static/js/lab/strip.js";
import { stripRows } from "../../static/js/lab/strip-facts.js";

globalThis.requestAnimationFrame ??= () => {};
globalThis.performance ??= { now: () => 0 };

const SETTINGS = { order: "warnsdorff", rows: 5, cols: 5, seed: 7 };

/** Return a strip on a store, over a server whose answers the test gives by hand. */
function setUp(setup = {}) {
  const store = new Store({ settings: SETTINGS, strip: { ...NO_STRIP, setup: { ...NO_STRIP.setup, ...setup } } });
  const asked = [];
  const server = {
    request(event, payload) {
      return new Promise((resolve) => asked.push({ event, payload, resolve }));
    },
  };
  return { store, asked, strip: createStrip(store, server) };
}

const board = (strip, index, outcome = "clean") => ({ strip, index, order: "warnsdorff", rows: 5, cols: 5,
  start: 0, outcome, backtracks: outcome === "clean" ? 0 : 12, events: 25 });

test("a strip asks for the page's ordering first, then those compared, on the setup's boards", () => {
  const { asked, strip } = setUp({ from: 5, to: 7, budget: 300, compared: ["naive", "warnsdorff", "pohl"] });
  strip.run();
  assert.deepEqual(asked[0].event, "strip");
  assert.deepEqual(asked[0].payload, { orders: ["warnsdorff", "naive", "pohl"], budget: 300, seed: 7, sides: [5, 7] });
  const every = setUp({ every: true });
  every.strip.run();
  assert.deepEqual(every.asked[0].payload.rows, 5);
  assert.equal(stripBoards({ every: true }, SETTINGS).length, 25);
});

test("boards that come before the answer are kept for the strip it names; an old strip's never", async () => {
  const { store, asked, strip } = setUp({ from: 5, to: 6 });
  strip.run();
  strip.news.strip_board(board(3, 1, "backtracked"));
  strip.news.strip_board(board(3, 0));
  strip.news.strip_done({ strip: 3 });
  asked[0].resolve({ ok: true, strip: 3, boards: 2 });
  await Promise.resolve();
  await Promise.resolve();
  const state = store.state.strip;
  assert.equal(state.id, 3);
  assert.equal(state.running, false, "its end came before the answer too");
  assert.deepEqual(Object.keys(state.cells), ["0", "1"]);
  // A new strip: a late board of strip 3 is not one of its boards.
  strip.run();
  strip.news.strip_board(board(3, 0, "stopped"));
  strip.news.strip_board(board(4, 1));
  asked[1].resolve({ ok: true, strip: 4, boards: 2 });
  await Promise.resolve();
  await Promise.resolve();
  assert.deepEqual(store.state.strip.cells, { 1: { outcome: "clean", backtracks: 0, events: 25 } });
  assert.equal(store.state.strip.running, true);
  strip.news.strip_board({ ...board(4, 0), outcome: "<img>" });
  assert.deepEqual(Object.keys(store.state.strip.cells), ["1"], "an outcome the page does not know is dropped");
});

test("a refused or unanswered strip says so and stops; a lost connection ends the strip under way", async () => {
  const { store, asked, strip } = setUp();
  strip.run();
  asked[0].resolve({ ok: false, error: "orders names an ordering twice" });
  await Promise.resolve();
  await Promise.resolve();
  assert.deepEqual(store.state.strip.note, { id: "strip.refused", params: { why: "orders names an ordering twice" } });
  // A refusal whose code the page has words for is said in them, with the values it names.
  strip.run();
  const values = { most: 4000000, asked: 38400000 };
  asked[1].resolve({ ok: false, code: "strip.too_large_here", error: "this server searches strips itself…", values });
  await Promise.resolve();
  await Promise.resolve();
  assert.deepEqual(store.state.strip.note, { id: "refusal.strip.too_large_here", params: values });
  strip.run();
  strip.lost();
  assert.deepEqual([store.state.strip.running, store.state.strip.note], [false, { id: "strip.lost" }]);
});

test("each ordering's row lists its boards in order, with its tally", () => {
  const strip = { orders: ["a", "b"], boards: [{ rows: 5 }, { rows: 6 }, { rows: 7 }],
    cells: { 0: { outcome: "clean" }, 1: { outcome: "stopped" }, 3: { outcome: "clean" }, 4: { outcome: "backtracked" } } };
  const [a, b] = stripRows(strip);
  assert.deepEqual(a.cells.map((each) => each.index), [0, 2, 4]);
  assert.deepEqual(b.cells.map((each) => each.index), [1, 3, 5]);
  assert.deepEqual([a.tally.clean, a.tally.backtracked, a.tally.waiting, a.tally.boards], [1, 1, 1, 3]);
  assert.deepEqual([b.tally.clean, b.tally.stopped, b.tally.waiting], [1, 1, 1]);
});

test("a strip stopped before the server's answer stays stopped when the answer comes", async () => {
  const { store, asked, strip } = setUp();
  strip.run();
  strip.stop();
  asked[0].resolve({ ok: true, strip: 5, boards: 46 });
  await settled();
  assert.deepEqual([store.state.strip.running, store.state.strip.note], [false, { id: "strip.stopped" }]);
  // Asked again before the first answer: the first answer does not name the second strip.
  strip.run();
  strip.run();
  assert.deepEqual(asked.map(({ event }) => event), ["strip", "strip_stop", "strip", "strip"]);
  asked[2].resolve({ ok: true, strip: 6, boards: 46 });
  await settled();
  assert.equal(store.state.strip.id, null);
  asked[3].resolve({ ok: true, strip: 7, boards: 46 });
  await settled();
  assert.deepEqual([store.state.strip.id, store.state.strip.running], [7, true]);
});

/** Wait until the answers given so far have been taken. */
const settled = () => new Promise((resolve) => setImmediate(resolve));
