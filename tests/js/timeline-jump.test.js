// The depth history of the events a lane keeps from before a skip's jump, still shown after it.
import assert from "node:assert/strict";
import { test } from "node:test";

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
