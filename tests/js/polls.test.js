// Class questions on the page: two rounds (Peer Instruction) as a student's page lives them, the
// share right in each round, the moves between rounds, and the CSV of one- and two-round results.
import assert from "node:assert/strict";
import { test } from "node:test";

import { Store } from "../../static/js/store.js";
import { answersOf, shownLane, turnedOf } from "../../static/js/lane-facts.js";
import { NO_POLL, accuracy, createPolls, lastSeries, moves, resultsCsv, seriesGoesOn } from "../../static/js/class/polls.js";

globalThis.requestAnimationFrame ??= () => {};
globalThis.performance ??= { now: () => 0 };

const round = (answered, right, counts, sure) => ({ answered, late: 0, counts, right, ...(sure ? { sure } : {}) });
const said = (yes, no, unsaid) => ({ sure: yes, unsure: no, unsaid });

// Question 1: one round. Question 2: two rounds, 4 then 5 students, square 7 right.
const ONE = { id: 1, series: 1, index: 1, of: 1, at: 3, square: 2, answer: 7, kind: "visit", present: 5, answered: 4,
  right: 1, late: 1, counts: [[3, 3], [7, 1]], rounds: [round(4, 1, [[3, 3], [7, 1]])] };
const TWO = { id: 2, series: 2, index: 1, of: 1, at: 4, square: 7, answer: 9, kind: "visit", present: 5, answered: 5,
  right: 4, late: 0, seated: 3, counts: [[1, 1], [9, 4]],
  rounds: [round(4, 1, [[1, 2], [3, 1], [9, 1]], said(1, 0, 0)), round(5, 4, [[1, 1], [9, 4]],
    { right: said(3, 1, 0), wrong: said(0, 1, 0) })],
  shift: [[1, 1, 1], [1, 9, 1], [3, 9, 1], [9, 9, 1]],
  moved: { right_right: 1, wrong_right: 2, right_wrong: 0, wrong_wrong: 1 } };

test("the share right is the last round's, or the first's when asked", () => {
  assert.equal(accuracy([ONE, TWO]), 5 / 9);
  assert.equal(accuracy([ONE, TWO], 0), 2 / 8, "a one-round question's first round is its last");
  assert.equal(accuracy([]), null);
});

test("the moves between rounds leave out those who kept their square, most students first", () => {
  const result = { ...TWO, shift: [[1, 9, 1], [3, 9, 4], [9, 9, 6], [9, 1, 2]] };
  assert.deepEqual(moves(result), [[3, 9, 4], [9, 1, 2], [1, 9, 1]]);
  assert.deepEqual(moves(ONE), []);
});

test("the CSV has a row a question, with both rounds, the moves and how sure for two rounds", () => {
  const lines = resultsCsv([ONE, TWO], (square) => `s${square}`).trim().split("\r\n").map((line) => line.split(","));
  const [head, one, two] = lines;
  const row = (values) => Object.fromEntries(head.map((name, i) => [name, values[i]]));
  assert.deepEqual([head.length, one.length, two.length], [head.length, head.length, head.length]);
  assert.deepEqual(
    ["rounds", "answered", "right", "share_right", "round1_answered", "round1_right", "round1_share_right", "moved"]
      .map((name) => row(one)[name]), ["1", "4", "1", "0.250", "", "", "", ""]);
  const second = row(two);
  assert.deepEqual([second.rounds, second.answered, second.right, second.share_right], ["2", "5", "4", "0.800"]);
  assert.deepEqual([row(one).seated, second.seated], ["0", "3"], "answers from students' seats");
  assert.deepEqual([second.round1_answered, second.round1_right, second.round1_share_right], ["4", "1", "0.250"]);
  assert.deepEqual([second.wrong_to_right, second.right_to_wrong, second.right_to_right, second.wrong_to_wrong],
    ["2", "0", "1", "1"]);
  assert.deepEqual([second.sure_right, second.unsure_right, second.sure_wrong, second.unsure_wrong], ["3", "1", "0", "1"]);
  assert.equal(second.moved, "s1>s9:1 s3>s9:1");
  assert.equal(second.answers, "s1:1 s9:4");
});

/** Return a student's questions on a store, over a server whose answers the test gives by hand. */
function student() {
  const store = new Store({ klass: { role: "student", code: "ABCDEFG" }, poll: NO_POLL });
  const asked = [];
  const server = { request: (event, payload) => new Promise((resolve) => asked.push({ event, payload, resolve })) };
  const runs = { main: { server, seek() {}, timeline: { head: 0 } } };
  return { store, asked, polls: createPolls(store, runs, () => {}) };
}

const QUESTION = { id: 3, run: 1, at: 5, square: 2, index: 1, of: 1, series: 1, asked: 1, peer: true,
  confidence: true, stage: "first", round: 1 };

test("a student answers alone, sees its first answer while discussing, then answers again", async () => {
  const { store, asked, polls } = student();
  polls.news.poll_opened(QUESTION);
  polls.choose(true);
  polls.answer(7);
  assert.deepEqual(asked[0].payload, { id: 3, square: 7, round: 1, sure: true });
  asked[0].resolve({ ok: true, id: 3, square: 7, late: false, round: 1 });
  await Promise.resolve();
  assert.equal(store.state.poll.mine, 7);

  polls.news.poll_stage({ id: 3, stage: "discuss", round: 1 });
  assert.deepEqual([store.state.poll.mine, store.state.poll.first], [null, 7]);
  polls.answer(9);
  assert.equal(asked.length, 1, "no answer while the class discusses");

  polls.news.poll_stage({ id: 3, stage: "second", round: 2 });
  assert.deepEqual([store.state.poll.mine, store.state.poll.first, store.state.poll.sure], [null, 7, null]);
  polls.answer(9);
  assert.deepEqual(asked[1].payload, { id: 3, square: 9, round: 2 }, "how sure is asked again: not said this time");
  asked[1].resolve({ ok: true, id: 3, square: 9, late: false, round: 2 });
  await Promise.resolve();

  polls.news.poll_revealed({ ...TWO, id: 3 });
  const kept = store.state.poll.history.at(-1);
  assert.deepEqual([kept.first, kept.mine, store.state.poll.open], [7, 9, null]);
});

test("a round-1 answer refused once the round closed is no first answer, and leaves round 2 unanswered", async () => {
  const { store, asked, polls } = student();
  polls.news.poll_opened(QUESTION);
  polls.answer(7);
  polls.news.poll_stage({ id: 3, stage: "discuss", round: 1 });
  polls.news.poll_stage({ id: 3, stage: "second", round: 2 });
  asked[0].resolve({ ok: false, code: "question.round_closed", error: "that round is closed" });
  await Promise.resolve();
  assert.deepEqual([store.state.poll.mine, store.state.poll.first], [null, null]);
  assert.equal(store.state.poll.note.id, "refusal.question.round_closed");
});

// A question asked again mirrored on a 5x5 board: the original (1) asked at event 3, the run now at 4.
const MIRRORED = { ...ONE, id: 4, at: 4, run: 1, square: 4, transfer: { of: 1, turn: "mirror", path: [4, 7, 0] },
  answer: 11, counts: [[11, 2]], answered: 2, right: 2, rounds: [round(2, 2, [[11, 2]])] };
const laneAt = (events, run = 1) => ({ run: { run }, graph: null, moves: () => [],
  model: { rows: 5, cols: 5, closed: false, events } });
const pollState = (poll) => ({ poll: { ...NO_POLL, ...poll }, predict: { on: false } });

test("a question asked again turned shows its turned board while the run stands where it was asked", () => {
  const lane = laneAt(4);
  const open = pollState({ open: MIRRORED });
  assert.equal(turnedOf(lane, open), MIRRORED);
  const shown = shownLane(lane, open);
  assert.deepEqual([shown.model.path, shown.model.numbers[0], shown.model.numbers[4], shown.turned], [[4, 7, 0], 3, 1, "mirror"]);
  assert.equal(shownLane(lane, open), shown, "made once a question");
  const revealed = pollState({ result: MIRRORED, history: [ONE, MIRRORED] });
  assert.deepEqual(answersOf(lane, revealed), { heat: [[11, 2]], right: 11, chosen: null });
  // The run moves on: its own board again, without the turned question's answers.
  const moved = laneAt(5);
  assert.equal(shownLane(moved, revealed), moved);
  assert.equal(turnedOf(laneAt(5), revealed), null);
  assert.equal(answersOf(laneAt(5), revealed), null);
  assert.equal(turnedOf(laneAt(4, 2), open), null, "another run");
});

test("a series goes on past a question asked again turned, and the CSV names what it turned", () => {
  const series = { ...ONE, of: 3, index: 1 };
  assert.deepEqual(lastSeries([series, MIRRORED]), [series]);
  assert.equal(seriesGoesOn([series, MIRRORED]), true);
  const [head, , row] = resultsCsv([ONE, MIRRORED], String).trim().split("\r\n").map((line) => line.split(","));
  const named = Object.fromEntries(head.map((name, i) => [name, row[i]]));
  assert.deepEqual([named.turned_from, named.turn, named.answers], ["1", "mirror", "11:2"]);
});
