// The run states' table and the controls it enables: Play, Step, Step back, Skip and Reset when idle,
// playing, paused, skipping, finished and replaying, on one's own page, following a class and leading one.
import assert from "node:assert/strict";
import { test } from "node:test";

import { NO_LAB } from "../../static/js/codelab/lab.js";
import { controls, next, underWay } from "../../static/js/controls.js";
import { IDLE_RUN } from "../../static/js/playback.js";
import { NO_POLL } from "../../static/js/class/polls.js";
import { PREDICT } from "../../static/js/predict/predict.js";

const STATUSES = ["idle", "playing", "paused", "skipping", "finished"];
const ACTIONS = ["play", "pause", "step", "skip", "finish", "reset"];

/**
 * Return a main board: events received (head) from the first kept (first), the view at shown
 * (by default all received), and the events kept before a skip's jump from earliest on.
 */
function board({ head = 0, shown = head, first = 0, earliest = first, result = null } = {}) {
  return {
    model: { events: shown },
    timeline: { first, head },
    run: head > 0 ? { run: 1 } : null,
    result,
    atHead: () => shown === head,
    earliest: () => earliest,
  };
}

/** Return the page's state as app.js starts it, connected, with the changes given. */
function page({ run = {}, klass = {}, settings = {}, poll = {}, ...rest } = {}) {
  return {
    settings: { mode: "board", rows: 5, cols: 5, start: 0, order: "naive", closed: false, allTours: false,
      budget: null, speed: 30, seed: 1, ...settings },
    pending: null,
    run: { ...IDLE_RUN, ...run },
    connection: "up",
    klass: { role: "none", code: null, reviewing: false, led: false, ...klass },
    embedded: null,
    limits: { maxMarks: 30 },
    marks: [],
    predict: PREDICT,
    poll: { ...NO_POLL, ...poll },
    clip: { busy: false, from: "start" },
    lab: NO_LAB,
    ...rest,
  };
}

/** Return the run buttons' states: {play, step, back, skip, reset} as enabled, Play's label and pressed. */
function buttons(state, main) {
  const c = controls(state, { main });
  return {
    play: c.play.enabled, step: c.step.enabled, back: c.back.enabled, skip: c.skip.enabled, reset: c.reset.enabled,
    label: c.play.label, pressed: c.play.pressed, skipLabel: c.skip.label,
  };
}

test("each action leads from each status where the table says, and the others leave it as it is", () => {
  assert.equal(next("idle", "play"), "playing");
  assert.equal(next("idle", "step"), "paused");
  assert.equal(next("idle", "skip"), "skipping");
  assert.equal(next("playing", "pause"), "paused");
  assert.equal(next("playing", "step"), "paused");
  assert.equal(next("paused", "play"), "playing");
  assert.equal(next("paused", "step"), "paused");
  assert.equal(next("skipping", "pause"), "paused", "a cancelled skip stops paused");
  assert.equal(next("finished", "play"), "playing", "played again");
  assert.equal(next("finished", "step"), "paused");
  for (const status of ["playing", "paused", "skipping"]) {
    assert.equal(next(status, "finish"), "finished", status);
    assert.equal(next(status, "skip"), "skipping", status);
  }
  for (const status of STATUSES) assert.equal(next(status, "reset"), "idle", status);
  // What does not apply changes nothing: nothing to pause or finish before a run, no step mid-skip.
  assert.equal(next("idle", "pause"), "idle");
  assert.equal(next("idle", "finish"), "idle");
  assert.equal(next("paused", "pause"), "paused");
  assert.equal(next("skipping", "play"), "skipping");
  assert.equal(next("skipping", "step"), "skipping");
  assert.equal(next("finished", "pause"), "finished");
  assert.equal(next("finished", "finish"), "finished");
  for (const status of STATUSES) {
    for (const action of ACTIONS) assert.ok(STATUSES.includes(next(status, action)), `${status} + ${action}`);
  }
});

test("a run is under way while playing, paused or skipping; not before it starts nor once it is finished", () => {
  assert.deepEqual(STATUSES.filter(underWay), ["playing", "paused", "skipping"]);
});

test("idle: Play, Step and Skip start a run; nothing to step back to or reset", () => {
  assert.deepEqual(buttons(page(), board()), { play: true, step: true, back: false, skip: true, reset: false,
    label: "control.play", pressed: false, skipLabel: "control.skip" });
  const c = controls(page(), { main: board() });
  assert.equal(c.timeline.enabled, false, "no event to scrub to");
  assert.equal(c.setup.enabled, true);
  assert.equal(c.speed.enabled, true);
});

test("playing: Play is Pause, pressed; Step, Step back, Skip and Reset are there", () => {
  assert.deepEqual(buttons(page({ run: { status: "playing" } }), board({ head: 40 })), { play: true, step: true,
    back: true, skip: true, reset: true, label: "control.pause", pressed: true, skipLabel: "control.skip" });
  assert.equal(controls(page({ run: { status: "playing" } }), { main: board({ head: 40 }) }).timeline.enabled, true);
});

test("paused: Play plays on, and every other run button works", () => {
  assert.deepEqual(buttons(page({ run: { status: "paused" } }), board({ head: 40, shown: 12 })), { play: true,
    step: true, back: true, skip: true, reset: true, label: "control.play", pressed: false,
    skipLabel: "control.skip" });
});

test("skipping: only cancelling the skip and Reset; no Play, Step, Step back or scrubbing", () => {
  const state = page({ run: { status: "skipping" } }), main = board({ head: 40 });
  assert.deepEqual(buttons(state, main), { play: false, step: false, back: false, skip: true, reset: true,
    label: "control.play", pressed: false, skipLabel: "control.cancelSkip" });
  assert.equal(controls(state, { main }).timeline.enabled, false);
});

test("finished, at the end: Play plays again; no Step or Skip past the end; Step back and Reset work", () => {
  assert.deepEqual(buttons(page({ run: { status: "finished" } }), board({ head: 40 })), { play: true, step: false,
    back: true, skip: false, reset: true, label: "control.again", pressed: false, skipLabel: "control.skip" });
});

test("finished, stepped back: Play and Step go on through what was received", () => {
  const state = page({ run: { status: "finished" } });
  assert.deepEqual(buttons(state, board({ head: 40, shown: 30 })), { play: true, step: true, back: true, skip: false,
    reset: true, label: "control.play", pressed: false, skipLabel: "control.skip" });
  // At the end of the events but partway through the code lines of the last one: Step goes on too.
  const midLine = page({ run: { status: "finished", line: { index: 1, trace: [{}, {}, {}] } } });
  assert.deepEqual(buttons(midLine, board({ head: 40 })).step, true);
  assert.deepEqual(buttons(midLine, board({ head: 40 })).label, "control.play");
  const lastLine = page({ run: { status: "finished", line: { index: 2, trace: [{}, {}, {}] } } });
  assert.deepEqual(buttons(lastLine, board({ head: 40 })).step, false);
});

test("replaying what was received: Play is Pause, pressed, whatever the run's status", () => {
  for (const status of ["paused", "finished"]) {
    const b = buttons(page({ run: { status, replaying: true } }), board({ head: 40, shown: 20 }));
    assert.equal(b.label, "control.pause", status);
    assert.equal(b.pressed, true, status);
    assert.equal(b.play, true, status);
    assert.equal(b.step, true, status);
  }
});

test("Step back needs an event before the view, or an earlier code line of the event shown", () => {
  const state = page({ run: { status: "paused" } });
  assert.equal(buttons(state, board({ head: 40, shown: 0 })).back, false, "at the first event");
  assert.equal(buttons(state, board({ head: 40, shown: 10, first: 10 })).back, false, "at the first event kept");
  assert.equal(buttons(state, board({ head: 40, shown: 10, first: 10, earliest: 4 })).back, true,
    "the events kept before a skip's jump");
  const line = (index) => page({ run: { status: "paused", line: { index, trace: [{}, {}, {}] } } });
  assert.equal(buttons(line(1), board({ head: 40, shown: 0 })).back, true, "a line back");
  assert.equal(buttons(line(0), board({ head: 40, shown: 0 })).back, false);
});

test("without a connection the page cannot drive a run, but it can still step back through what it has", () => {
  for (const connection of ["connecting", "down"]) {
    const b = buttons(page({ connection, run: { status: "paused" } }), board({ head: 40 }));
    assert.deepEqual([b.play, b.step, b.skip], [false, false, false], connection);
    assert.equal(b.back, true, connection);
    assert.equal(b.reset, true, connection);
  }
});

test("the code lab's own runs need no connection: Play and Step drive them offline, on the page's board alone", () => {
  const open = { ...NO_LAB, open: true };
  const offline = (changes) => buttons(page({ connection: "down", lab: open, run: { status: "paused" }, ...changes }),
    board({ head: 40 }));
  const b = offline({});
  assert.deepEqual([b.play, b.step, b.skip, b.back], [true, true, true, true]);
  // In a race, on the example graph or in a class the runs are the server's: offline, none can be driven.
  for (const changes of [{ settings: { mode: "race" } }, { settings: { mode: "example" } }, { klass: { role: "instructor" } }]) {
    const c = offline(changes);
    assert.deepEqual([c.play, c.skip], [false, false], JSON.stringify(changes));
  }
});

test("racing two orderings: the boards run together, with no stepping back or scrubbing one of them", () => {
  const state = page({ settings: { mode: "race" }, run: { status: "paused" } });
  const c = controls(state, { main: board({ head: 40 }) });
  assert.deepEqual([c.play.enabled, c.step.enabled, c.skip.enabled, c.reset.enabled], [true, true, true, true]);
  assert.equal(c.back.enabled, false);
  assert.equal(c.timeline.enabled, false);
  assert.equal(c.predict.enabled, false, "predict mode is for one's own board");
});

test("following a class: the instructor drives; the student steps only through their own copy", () => {
  for (const status of STATUSES) {
    const state = page({ klass: { role: "student" }, run: { status } });
    const c = controls(state, { main: board({ head: 40 }) });
    for (const name of ["play", "skip", "reset", "speed", "setup", "chooseStart", "predict", "mark", "ask"]) {
      assert.equal(c[name].enabled, false, `${status}: ${name}`);
    }
    assert.equal(c.step.enabled, false, `${status}: at the class's event, nothing to step to`);
    const back = controls(state, { main: board({ head: 40, shown: 25 }) });
    assert.equal(back.step.enabled, status !== "skipping", `${status}: stepping through their copy`);
    assert.equal(back.back.enabled, status !== "skipping", status);
  }
  const following = page({ klass: { role: "student" }, run: { status: "playing" } });
  assert.equal(controls(following, { main: board({ head: 40 }) }).live.enabled, false, "already live");
  const reviewing = page({ klass: { role: "student", reviewing: true }, run: { status: "playing" } });
  assert.equal(controls(reviewing, { main: board({ head: 40, shown: 25 }) }).live.enabled, true, "back to live");
});

test("leading a class: while the class answers a question the run waits where it was asked", () => {
  const main = board({ head: 40 });
  const asking = { run: { status: "paused" }, klass: { role: "instructor", led: true }, poll: { open: { at: 40 } } };
  const c = controls(page(asking), { main });
  // A tap on the board chooses no start either: the settings wait, as the form does.
  for (const name of ["play", "step", "skip", "reset", "setup", "chooseStart", "ask"]) {
    assert.equal(c[name].enabled, false, name);
  }
  assert.equal(c.reveal.enabled, true);
  assert.equal(c.back.enabled, true, "the instructor may still look back");
  const between = controls(page({ ...asking, poll: {} }), { main });
  for (const name of ["play", "step", "skip", "reset", "setup", "chooseStart", "ask", "mark"]) {
    assert.equal(between[name].enabled, true, name);
  }
  assert.equal(between.reveal.enabled, false, "no question to reveal");
  // A page that has not been taken as the class's leader since its connection came up asks nothing.
  const notLed = controls(page({ ...asking, klass: { role: "instructor", led: false }, poll: {} }), { main });
  assert.equal(notLed.ask.enabled, false);
});

test("a question asks of a run under way, on squares: not before it, after its result, mid-skip, on the graph", () => {
  const leading = { run: { status: "paused" }, klass: { role: "instructor", led: true } };
  const ask = (changes, main) => controls(page({ ...leading, ...changes }), { main }).ask.enabled;
  assert.equal(ask({}, board({ head: 40 })), true);
  assert.equal(ask({}, board()), false, "no run");
  assert.equal(ask({}, board({ head: 40, result: { tours: 1 } })), false, "the run has its result");
  assert.equal(ask({ run: { status: "skipping" } }, board({ head: 40 })), false);
  assert.equal(ask({ settings: { mode: "example" } }, board({ head: 40 })), false);
  assert.equal(ask({ connection: "down" }, board({ head: 40 })), false);
});

test("bookmarks: the instructor's, once there are events, at most 30", () => {
  const leading = { run: { status: "paused" }, klass: { role: "instructor", led: true } };
  const mark = (changes, main) => controls(page({ ...leading, ...changes }), { main }).mark.enabled;
  assert.equal(mark({}, board({ head: 40 })), true);
  assert.equal(mark({}, board()), false);
  assert.equal(mark({ marks: Array.from({ length: 29 }, (_, at) => ({ at })) }, board({ head: 40 })), true);
  assert.equal(mark({ marks: Array.from({ length: 30 }, (_, at) => ({ at })) }, board({ head: 40 })), false);
  assert.equal(mark({ klass: { role: "none" } }, board({ head: 40 })), false);
});

test("the board chooses the start only on a knight's board of a full page, and not while a question is open", () => {
  const choose = (changes) => controls(page(changes), { main: board() }).chooseStart.enabled;
  assert.equal(choose({}), true);
  assert.equal(choose({ settings: { mode: "example" } }), false);
  assert.equal(choose({ pending: { settings: { mode: "example" } } }), false, "the change waiting decides");
  assert.equal(choose({ settings: { mode: "example" }, pending: { settings: { mode: "board" } } }), true);
  assert.equal(choose({ predict: { ...PREDICT, asking: { at: 3 } } }), false);
  assert.equal(choose({ embedded: { controls: "minimal" } }), false);
  assert.equal(choose({ embedded: { controls: "full" } }), true);
});

test("a tap answers the class's question once, or the page's own question", () => {
  const student = { klass: { role: "student" }, run: { status: "paused" } };
  const answer = (changes) => controls(page(changes), { main: board({ head: 40 }) }).answer.enabled;
  assert.equal(answer({ ...student, poll: { open: { at: 40 } } }), true);
  assert.equal(answer({ ...student, poll: { open: { at: 40 }, mine: 7 } }), false, "answered already");
  assert.equal(answer(student), false, "no question");
  assert.equal(answer({}), false);
  assert.equal(answer({ predict: { ...PREDICT, asking: { at: 3 } } }), true);
});

test("a clip needs events after its start, a board of squares, and no clip being made", () => {
  const clip = (changes, main) => controls(page(changes), { main }).clip.enabled;
  assert.equal(clip({}, board({ head: 40 })), true);
  assert.equal(clip({}, board()), false, "nothing received");
  assert.equal(clip({ clip: { busy: true, from: "start" } }, board({ head: 40 })), false);
  assert.equal(clip({ settings: { mode: "example" } }, board({ head: 40 })), false);
  assert.equal(clip({ clip: { busy: false, from: "here" } }, board({ head: 40, shown: 39 })), true);
  assert.equal(clip({ clip: { busy: false, from: "here" } }, board({ head: 40 })), false, "nothing after the view");
});

test("the picture, help and results", () => {
  const c = controls(page(), { main: board() });
  assert.equal(c.help.enabled, true);
  assert.equal(c.png.enabled, true);
  assert.equal(c.results.enabled, false);
  assert.equal(controls(page({ settings: { mode: "example" } }), { main: board() }).png.enabled, false);
  assert.equal(controls(page({ poll: { history: [{}] } }), { main: board() }).results.enabled, true);
});
