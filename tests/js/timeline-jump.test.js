// The depth history of the events a lane keeps from before a skip's jump, still shown after it.
import assert from "node:assert/strict";
import { test } from "node:test";

import { stretchesOf } from "../../static/js/paint/chart.js";
import { Timeline } from "../../static/js/timeline.js";

test("after a jump forward, the history before it is still given up to an event before the jump", () => {
  const timeline = new Timeline();
  const codes = [];
  let depth = 0;
  const after = [0];
  for (let i = 0; i < 3000; i++) {
    const code = depth > 0 && i % 3 === 2 ? -1 : 5; // two visits, one backtrack
    codes.push(code);
    depth += code >= 0 ? 1 : -1;
    after.push(depth);
  }
  timeline.push(codes);
  timeline.jump(90_000, 7);
  for (const upTo of [0, 1, 700, 1500, 2999]) {
    const buckets = timeline.depths(upTo);
    assert.ok(buckets.every((b) => b.to <= upTo), `a bucket past event ${upTo}`);
    for (const b of buckets) {
      const seen = after.slice(b.from, b.to + 1);
      assert.deepEqual([b.low, b.high, b.last], [Math.min(...seen), Math.max(...seen), after[b.to]]);
    }
    // Whole buckets only: at most one bucket's events short of upTo.
    const last = buckets.at(-1)?.to ?? 0;
    assert.ok(upTo - last <= 2 * Math.ceil(3000 / 1024), `history ends at ${last}, far before ${upTo}`);
  }
  assert.equal(timeline.depths().at(-1).last, 7);
});

test("the depth chart's stretches part where a jump passed over events, and nowhere else", () => {
  const timeline = new Timeline();
  const codes = Array.from({ length: 3000 }, (_, i) => (i % 3 === 2 ? -1 : 5));
  timeline.push(codes);
  assert.equal(stretchesOf(timeline.depths()).length, 1);
  timeline.jump(90_000, 7);
  timeline.push([5, -1, 5]);
  const stretches = stretchesOf(timeline.depths());
  assert.equal(stretches.length, 2);
  assert.ok(stretches[0].at(-1).to < 3001 && stretches[1][0].from >= 90_000, JSON.stringify(stretches.map((s) => [s[0].from, s.at(-1).to])));
});
