// The code lab's run source: a run left while it searches is told to stop and its worker ended
// if it does not; a run started meanwhile waits for the worker to be free, and one left before it
// was ever sent is never sent; batches are acknowledged once shown whole, two at most waiting.
import assert from "node:assert/strict";
import { mock, test } from "node:test";

import { batchFor, createLabRun } from "../../static/js/codelab/lab-run.js";

/** Return a run source over a sandbox that records what it is sent, and that record. */
function source() {
  const sent = [];
  const lab = { loaded() {}, lines() {}, done() {}, problem() {} };
  // Runs are numbered across the page's life: each test names them by the order they began in.
  const ids = [];
  const name = (id) => `#${ids.indexOf(id) + 1}`;
  const run = createLabRun({ post: (message) => sent.push(message.type === "run" ? `run ${name(message.id)}` : message.type),
    restart: () => sent.push("restart") }, lab);
  const news = [];
  run.listen({ started: (r) => ids.push(r.run), events: (b) => news.push(b.events), finished: () => news.push("finished") });
  return { run, sent, news, ids };
}

const START = { code: "def main(rows, cols, start): pass", rows: 5, cols: 5, start: 0, order: "moves", speed: 0 };

test("a run left before it was sent, while another stops, is never sent; the next is, once the worker is free", () => {
  mock.timers.enable({ apis: ["setTimeout"] });
  try {
    const { run, sent } = source();
    run.request("start", START); // #1: its code loops, with no event
    run.request("stop"); // told to stop; it does not, being in a loop of its own
    run.request("start", START); // #2 waits for the worker
    run.request("stop"); // left before it was sent
    run.request("start", START); // #3 waits for the worker
    assert.deepEqual(sent, ["run #1", "abandon"]);
    mock.timers.tick(100);
    assert.deepEqual(sent, ["run #1", "abandon", "restart", "run #3"]);
  } finally {
    mock.timers.reset();
  }
});

test("a run left that stops by itself frees the worker with Python still loaded", () => {
  mock.timers.enable({ apis: ["setTimeout"] });
  try {
    const { run, sent, ids } = source();
    run.request("start", START);
    run.request("stop");
    run.request("start", START);
    run.heard({ type: "done", id: ids[0], result: {}, output: [] }); // it stopped: no restart
    assert.deepEqual(sent, ["run #1", "abandon", "run #2"]);
    mock.timers.tick(1000);
    assert.ok(!sent.includes("restart"));
  } finally {
    mock.timers.reset();
  }
});

test("each batch is acknowledged once shown whole: paused, two batches wait and nothing more is asked", () => {
  mock.timers.enable({ apis: ["setTimeout"] });
  try {
    const { run, sent, news, ids } = source();
    run.request("start", { ...START, speed: 5, paused: true });
    assert.equal(batchFor(5), 1);
    const [id] = ids;
    run.heard({ type: "events", id, events: [0], lines: { visit: 3 } });
    run.heard({ type: "events", id, events: [7], lines: { visit: 3 } });
    assert.equal(run.waiting(), 2);
    assert.ok(!sent.includes("ack"), "nothing shown, nothing acknowledged");
    run.request("step");
    assert.deepEqual(news, [[0]]);
    assert.deepEqual(sent.filter((type) => type === "ack"), ["ack"]);
    // A message that does not fit the board (square 99 of 25) is dropped.
    run.heard({ type: "events", id, events: [99], lines: {} });
    assert.equal(run.waiting(), 1);
  } finally {
    mock.timers.reset();
  }
});
