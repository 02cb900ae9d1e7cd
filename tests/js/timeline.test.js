// The timeline's kept events and its depth history, checked against a naive recomputation that
// keeps the depth after every event.
import assert from "node:assert/strict";
import { test } from "node:test";

import { Timeline } from "../../static/js/timeline.js";
import { random } from "./support/random.js";

const BUCKETS = 1024;

/** Return n wire codes of a search's walk from depth: visits, backtracks and a few "found". */
function walk(rand, n, depth) {
  const codes = [];
  for (let i = 0; i < n; i++) {
    const r = rand();
    if (r < 0.01) {
      codes.push("found");
    } else if (depth > 0 && r < 0.48) {
      codes.push(-1 - Math.floor(rand() * 64));
      depth -= 1;
    } else {
      codes.push(Math.floor(rand() * 64));
      depth += 1;
    }
  }
  return codes;
}

// The depth after every event of the history, and the buckets a forward run shows.
class Naive {
  constructor(first = 0, depth = 0) {
    this.reset(first, depth);
  }

  reset(first, depth = 0) {
    this.events = [first];
    this.depths = [depth];
    this.depth = depth;
  }

  push(codes) {
    let n = this.events[this.events.length - 1];
    for (const code of codes) {
      if (code !== "found") this.depth += code >= 0 ? 1 : -1;
      this.events.push(++n);
      this.depths.push(this.depth);
    }
  }

  jump(first, depth) {
    const kept = this.events.findIndex((n) => n >= first);
    if (kept >= 0) {
      this.events.length = kept;
      this.depths.length = kept;
    }
    this.events.push(first);
    this.depths.push(depth);
    this.depth = depth;
  }

  depthAt(upTo) {
    return this.depths[this.events.findLastIndex((n) => n <= upTo)];
  }

  buckets(upTo) {
    const origin = this.events[0];
    let stride = 1;
    while (upTo - origin >= BUCKETS * stride) stride *= 2;
    const buckets = [];
    let k = -1;
    for (let i = 0; i < this.events.length && this.events[i] <= upTo; i++) {
      const n = this.events[i], depth = this.depths[i], b = buckets[buckets.length - 1];
      if (Math.floor((n - origin) / stride) !== k) {
        k = Math.floor((n - origin) / stride);
        buckets.push({ from: n, to: n, low: depth, high: depth, last: depth });
      } else {
        b.to = n;
        b.low = Math.min(b.low, depth);
        b.high = Math.max(b.high, depth);
        b.last = depth;
      }
    }
    return buckets;
  }
}

/** Check the timeline's history at its head and at a few points it can step back to. */
function check(timeline, naive, rand, what) {
  assert.deepEqual(timeline.depths(), naive.buckets(timeline.head), `${what}: at the head ${timeline.head}`);
  assert.equal(timeline.depthAt(timeline.head), naive.depth, `${what}: depth at the head`);
  const span = timeline.head - timeline.first;
  for (const upTo of [timeline.first, timeline.first + Math.floor(rand() * (span + 1)), timeline.head - 1]) {
    if (upTo < timeline.first) continue;
    assert.deepEqual(timeline.depths(upTo), naive.buckets(upTo), `${what}: stepped back to ${upTo}`);
    assert.equal(timeline.depthAt(upTo), naive.depthAt(upTo), `${what}: depth at ${upTo}`);
  }
}

test("the depth history is exact at the head and wherever the view steps back to", () => {
  const rand = random(1);
  const timeline = new Timeline(), naive = new Naive();
  while (timeline.head < 200_000) {
    const codes = walk(rand, 1 + Math.floor(rand() ** 3 * 5000), naive.depth);
    timeline.push(codes);
    naive.push(codes);
    check(timeline, naive, rand, `after ${timeline.head} events`);
  }
  assert.ok(timeline.depths().length <= BUCKETS);
});

test("the depth history is exact across snapshots, dropped events and new runs", () => {
  for (const seed of [2, 3, 4, 5]) {
    const rand = random(seed);
    const timeline = new Timeline(3000), naive = new Naive();
    for (let round = 0; round < 300; round++) {
      const r = rand();
      const what = `seed ${seed}, round ${round}`;
      if (r < 0.08) {
        // A snapshot further on: the events in between were not received.
        const first = timeline.head + Math.floor(rand() ** 2 * 20_000), depth = Math.floor(rand() * 40);
        timeline.jump(first, depth);
        naive.jump(first, depth);
      } else if (r < 0.12) {
        // A snapshot of an event already received, or the head shown with another path.
        const first = timeline.first + Math.floor(rand() * (timeline.head - timeline.first + 1));
        const depth = Math.floor(rand() * 40);
        timeline.jump(first, depth);
        naive.jump(first, depth);
      } else if (r < 0.13) {
        const first = Math.floor(rand() * 1000), depth = Math.floor(rand() * 10);
        timeline.reset(first, depth);
        naive.reset(first, depth);
      } else {
        const codes = walk(rand, 1 + Math.floor(rand() ** 3 * 4000), naive.depth);
        timeline.push(codes);
        naive.push(codes);
      }
      assert.ok(timeline.head - timeline.first <= 3000, `${what}: at most the limit kept`);
      check(timeline, naive, rand, what);
    }
  }
});

test("a run of millions of events is summed up in a bounded number of buckets", () => {
  const timeline = new Timeline();
  const codes = [];
  for (let i = 0; i < 1 << 16; i++) {
    // A sawtooth: 30 squares deep and back, again and again.
    const down = Math.floor(i / 30) % 2 === 1;
    codes.push(down ? -1 - (i % 64) : i % 64);
  }
  for (let pushed = 0; pushed < 3_000_000; pushed += codes.length) timeline.push(codes);
  const buckets = timeline.depths();
  assert.ok(buckets.length <= BUCKETS && buckets.length > BUCKETS / 4, `${buckets.length} buckets`);
  assert.equal(buckets[0].from, 0);
  assert.equal(buckets[buckets.length - 1].to, timeline.head);
  // The sawtooth shows as a band between its lowest and highest depth in each bucket.
  assert.ok(buckets.slice(0, -1).every((b) => b.high - b.low >= 30), "each bucket spans a tooth");
  assert.ok(timeline.levels.length <= 13, `${timeline.levels.length} levels`);
});

test("a snapshot keeps the depth history and lets the kept events go", () => {
  const timeline = new Timeline();
  timeline.push([0, 10, 20, -21]);
  timeline.jump(100, 7);
  assert.equal(timeline.first, 100);
  assert.equal(timeline.head, 100);
  const point = (n, depth) => ({ from: n, to: n, low: depth, high: depth, last: depth });
  assert.deepEqual(timeline.depths(), [
    point(0, 0), point(1, 1), point(2, 2), point(3, 3), point(4, 2), point(100, 7),
  ]);
  timeline.push([5, "found"]);
  assert.equal(timeline.at(101), "found");
  assert.equal(timeline.depthAt(102), 8);
  assert.deepEqual(timeline.depths().slice(-3), [point(100, 7), point(101, 8), point(102, 8)]);
});

test("a new run forgets the depth history", () => {
  const timeline = new Timeline();
  timeline.push([0, 10, 20]);
  timeline.reset(50, 4);
  assert.deepEqual(timeline.depths(), [{ from: 50, to: 50, low: 4, high: 4, last: 4 }]);
  timeline.reset(0);
  assert.deepEqual(timeline.depths(), [{ from: 0, to: 0, low: 0, high: 0, last: 0 }]);
});

test("past the limit the older half of the events is let go", () => {
  const timeline = new Timeline(8);
  const codes = [0, 1, -2, 3, "found", 4, -5, -4, 6];
  for (const code of codes) timeline.push([code]);
  assert.equal(timeline.head, 9);
  assert.equal(timeline.first, 4);
  for (let n = timeline.first; n < timeline.head; n++) assert.equal(timeline.at(n), codes[n]);
  // The history before the oldest kept event stays.
  const naive = new Naive();
  naive.push(codes);
  assert.deepEqual(timeline.depths(), naive.buckets(9));
  // Before the oldest kept event (a view of events a lane kept from before a skip's jump), the
  // history's whole buckets up to the view, none past it.
  const before = timeline.depths(timeline.first - 1);
  assert.ok(before.length > 0 && before.every((b) => b.to <= timeline.first - 1), "none past the view");
  // Whole buckets: the one the view is in may be left out (see timeline-jump.test.js).
  assert.deepEqual(before, naive.buckets(9).filter((b) => b.to < timeline.first - 1));
  timeline.push(Array.from({ length: 20 }, (_, i) => i));
  assert.equal(timeline.head, 29);
  assert.ok(timeline.head - timeline.first <= 8);
  assert.equal(timeline.at(28), 19);
});
