// The store's rendering: at most once a frame, and at most once in the gap the state asks for,
// without asking the browser for frames it has nothing to show in.
import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";

import { Store } from "../../static/js/store.js";

const FRAME = 1000 / 60;

// A browser's clock, timers and animation frames, run by hand: run(ms) lets ms pass.
let now, timers, frames, framesMade, frameCount; // frameCount: frames of the screen so far
Object.defineProperty(globalThis, "performance", { value: { now: () => now }, configurable: true });
globalThis.setTimeout = (fn, ms) => { const timer = { at: now + ms, fn }; timers.push(timer); return timer; };
globalThis.clearTimeout = (timer) => { timers = timers.filter((each) => each !== timer); };
globalThis.requestAnimationFrame = (fn) => frames.push(fn);

function run(ms) {
  const end = now + ms;
  while (true) {
    const nextFrame = (frameCount + 1) * FRAME;
    const timer = timers.reduce((first, each) => (first && first.at <= each.at ? first : each), null);
    const at = Math.min(nextFrame, timer ? timer.at : Infinity);
    if (at > end) break;
    now = at;
    if (timer && timer.at === at) {
      timers = timers.filter((each) => each !== timer);
      timer.fn();
    } else {
      frameCount += 1;
      if (!frames.length) continue;
      framesMade += 1; // the browser makes a frame only when one was asked for
      const due = frames;
      frames = [];
      for (const fn of due) fn(now);
    }
  }
  now = end;
}

beforeEach(() => {
  now = 1000 * FRAME; // (frame 1000 of the screen)
  frameCount = 1000;
  timers = [];
  frames = [];
  framesMade = 0;
});

/** Return a store whose gap is gapMs while state.fast, and the times it rendered at. */
function watched(gapMs) {
  const store = new Store({ fast: true, n: 0 }, (state) => (state.fast ? gapMs : 0));
  const renders = [];
  store.subscribe(() => renders.push(now));
  return { store, renders };
}

test("changes within a frame render once, on the next frame", () => {
  const { store, renders } = watched(0);
  for (let n = 1; n <= 5; n += 1) store.update({ n });
  run(FRAME);
  assert.equal(renders.length, 1);
  assert.equal(store.state.n, 5);
});

test("a state that keeps changing renders once a gap, asking for no frames in between", () => {
  const { store, renders } = watched(50);
  store.subscribe(() => store.touch()); // a clock that ticks on every render
  store.touch();
  run(1000);
  const gaps = renders.slice(1).map((at, i) => at - renders[i]);
  assert.ok(gaps.every((gap) => gap >= 50 && gap < 50 + FRAME + 1e-9), `gaps ${gaps}`);
  assert.ok(renders.length >= 15 && renders.length <= 20, `${renders.length} renders in a second`);
  assert.equal(framesMade, renders.length, "the browser made frames with nothing new to show");
});

test("a gap that closes while waited out renders on the next frame", () => {
  const { store, renders } = watched(50);
  store.touch();
  run(FRAME);
  assert.equal(renders.length, 1);
  store.touch(); // too soon: waits out the gap
  run(5);
  store.update({ fast: false }); // paused, say: shown at once
  run(FRAME);
  assert.equal(renders.length, 2);
  assert.ok(renders[1] - renders[0] < 2 * FRAME + 5, "the pause waited out the old gap");
  run(200);
  assert.equal(renders.length, 2, "the gap's timer rendered again with nothing new");
});
