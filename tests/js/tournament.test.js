// The class tournament on the page: standings ranked (clean boards, then backtracks, then the
// earlier entry, level entries sharing a rank), news applied over the whole, the CSV, and what the
// instructor's page sends to bring the tournament back after a restart.
import assert from "node:assert/strict";
import { test } from "node:test";

import { Store } from "../../static/js/store.js";
import { NO_TOURNAMENT, applyNews, createTournament, entryOrder, standings, standingsCsv, tally }
  from "../../static/js/lab/tournament.js";

globalThis.requestAnimationFrame ??= () => {};
globalThis.performance ??= { now: () => 0 };

const entry = (id, outcomes, backtracks, submitted, extra = {}) =>
  ({ id, name: id.toUpperCase(), hidden: false, order: "warnsdorff", submitted, outcomes, backtracks, ...extra });

test("an entry's tally counts each outcome and the backtracks of the boards searched", () => {
  assert.deepEqual(tally(entry("a", "cbsn.l", [0, 21, 100, 9, 0, 0], 1)),
    { boards: 6, searched: 5, clean: 1, backtracked: 1, stopped: 1, none: 1, lost: 1, backtracks: 130 });
});

test("standings rank clean boards first, then fewer backtracks, then the earlier entry; level ones share a rank", () => {
  const rows = standings({
    late: entry("late", "cc", [0, 0], 30),
    slow: entry("slow", "cb", [0, 5], 10),
    early: entry("early", "cc", [0, 0], 20),
    twin: entry("twin", "cc", [0, 0], 20),
    none: entry("none", "ss", [9, 9], 1),
  });
  assert.deepEqual(rows.map((row) => [row.id, row.rank]),
    [["early", 1], ["twin", 1], ["late", 3], ["slow", 4], ["none", 5]]);
});

test("late entries are ranked apart, below the others, however well they did", () => {
  const rows = standings({
    script: entry("script", "cc", [0, 0], 5, { late: true }),
    other: entry("other", "sc", [9, 0], 6, { late: true }),
    there: entry("there", "ss", [9, 9], 30),
    first: entry("first", "cs", [0, 9], 40),
  });
  assert.deepEqual(rows.map((row) => [row.id, row.rank, Boolean(row.late)]),
    [["first", 1, false], ["there", 2, false], ["script", 1, true], ["other", 2, true]]);
});

test("news drops the entries the instructor removed, and the page keeps their ids for a restore", () => {
  const { store, tournament } = setUp({ role: "instructor", code: "ABCDEFG" });
  tournament.take({ ...STATE, entries: [entry("a", "..", [0, 0], 1), entry("b", "..", [0, 0], 2)] });
  tournament.news.tournament_news({ tournament: 2, open: false, entries: [], cells: [["a", 0, "c", 0]], removed: ["a"] });
  assert.deepEqual(Object.keys(store.state.tournament.entries), ["b"]);
  assert.deepEqual(store.state.tournament.removed, ["gone", "a"]);
});

test("news adds and replaces entries, then sets boards' ends in place", () => {
  const entries = { a: entry("a", "..", [0, 0], 1) };
  const next = applyNews(entries, { entries: [entry("b", "c.", [0, 0], 2)], cells: [["a", 1, "s", 50], ["x", 0, "c", 0]] });
  assert.equal(next.a.outcomes, ".s");
  assert.deepEqual(next.a.backtracks, [0, 50]);
  assert.equal(next.b.outcomes, "c.");
  assert.equal(entries.a.outcomes, "..", "the state before is left as it was");
  assert.equal(next.x, undefined, "a board of an entry the page does not know is let be");
});

test("the CSV has a row per entry, best first, names quoted where they must be and hidden ones left out", () => {
  const rows = standings({
    a: entry("a", "cc", [0, 0], Date.UTC(2026, 10, 27), { name: 'Ada "the" Knight' }),
    b: entry("b", "cs", [0, 9], Date.UTC(2026, 10, 27), { name: "Bo", hidden: true, order: "onward,-corner" }),
    c: entry("c", "sb", [9, 2], Date.UTC(2026, 10, 27), { name: null }),
  });
  const lines = standingsCsv(rows, "anonymous").trim().split("\r\n");
  assert.equal(lines[0],
    "rank,nickname,ordering,clean,backtracked,stopped,no_tour,backtracks,boards_searched,boards,entered,late");
  assert.equal(lines[1], '1,"Ada ""the"" Knight",warnsdorff,2,0,0,0,0,2,2,2026-11-27T00:00:00.000Z,no');
  assert.equal(lines[2], '2,,"onward,-corner",1,0,1,0,9,2,2,2026-11-27T00:00:00.000Z,no');
  assert.equal(lines[3], "3,anonymous,warnsdorff,0,1,1,0,11,2,2,2026-11-27T00:00:00.000Z,no");
});

test("the student enters the composer's ordering, tidily written, and none while it is half typed", () => {
  assert.equal(entryOrder({ draft: "onward,moves", typed: null }), "warnsdorff");
  assert.equal(entryOrder({ draft: "index", typed: null }), "naive");
  assert.equal(entryOrder({ draft: "", typed: null }), "moves", "no keys: the textbook's move order");
  assert.equal(entryOrder({ draft: "onward", typed: "onward,,x" }), null);
});

/** Return a tournament on a store, over a server whose answers the test gives by hand. */
function setUp(klass) {
  const store = new Store({ klass, tournament: NO_TOURNAMENT });
  const asked = [];
  const server = { request: (event, payload) => new Promise((resolve) => asked.push({ event, payload, resolve })) };
  return { store, asked, tournament: createTournament(store, server) };
}

const STATE = { tournament: 2, open: false, smallest: 5, largest: 6, budget: 100, start: "centre", opened: 3,
  present: 4, removed: ["gone"], entries: [entry("a", "cs", [0, 100], 7, { hidden: true, late: true })] };

test("a claim the server answers without the tournament brings back the one the page had", () => {
  const { asked, tournament } = setUp({ role: "instructor", code: "ABCDEFG" });
  tournament.take(STATE);
  tournament.claimed({ code: "ABCDEFG", tournament: null });
  assert.equal(asked[0].event, "tournament_open");
  assert.deepEqual(asked[0].payload, { smallest: 5, largest: 6, budget: 100, start: "centre", seats: false,
    restore: { tournament: 2, open: false, opened: 3, present: 4, removed: ["gone"], entries: [{ id: "a",
      order: "warnsdorff", name: "A", title: null, submitted: 7, hidden: true, late: true, seated: false }] } });
  const fresh = setUp({ role: "instructor", code: "ABCDEFG" });
  fresh.tournament.claimed({ code: "ABCDEFG", tournament: STATE });
  assert.equal(fresh.asked.length, 0, "a tournament the server kept is taken as it is");
  assert.equal(fresh.store.state.tournament.number, 2);
});

test("news of another tournament than the page's is let be", () => {
  const { store, tournament } = setUp({ role: "student", code: "ABCDEFG" });
  tournament.take(STATE);
  tournament.news.tournament_news({ tournament: 1, open: true, entries: [], cells: [["a", 0, "s", 1]] });
  assert.equal(store.state.tournament.entries.a.outcomes, "cs");
  assert.equal(store.state.tournament.open, false);
});
