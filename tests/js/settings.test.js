// The settings a link carries: written and read back unchanged, the page's own kept where a link says
// nothing, every bad value set aside (and named) in favour of the usual one, and keys not ours passed over.
import assert from "node:assert/strict";
import { test } from "node:test";

import { defaultSettings, fromLink, raceOrder, readLimits, squares, toLink } from "../../static/js/settings.js";

// The limits the server puts in the page (server/pages/__init__.py, server/wire.py).
const LIMITS = {
  maxSide: 32, maxSeed: 2 ** 32 - 1, maxBudget: 10 ** 9,
  speeds: [1, 2, 5, 10, 15, 30, 60, 120, 250, 500, 1000, 2500, 5000, 10000, 25000, 100000, 0], defaultSpeed: 30,
  orders: ["naive", "warnsdorff", "warnsdorff-roth", "random"],
  example: { names: ["A", "B", "C", "D", "E", "F"], moves: [[1, 3], [2, 3], [], [4], [5], [2]] },
  maxKeys: 8, maxOrderName: 24,
  maxMarks: 30, maxLabel: 60, maxSeries: 20, classCode: { alphabet: "ABCDEFGHJKMNPQRSTUVWXYZ23456789", length: 5 },
};
// The page's settings before it reads its address (defaultSettings, with its seed fixed).
// A ticket as the server signs them: an 8-character nonce, a dot, a 32-character signature.
const TICKET = "Ab3_x-Yz.abcdefghijklmnopqrstuvwxyz012345";
const PAGE = { mode: "board", rows: 5, cols: 5, start: 0, order: "naive", versus: "warnsdorff", closed: false,
  allTours: false, budget: null, speed: 30, seed: 4242 };

const read = (search, settings = PAGE) => fromLink(search, settings, LIMITS);

test("the limits are read from the page's JSON", () => {
  const doc = { getElementById: (id) => (id === "limits" ? { textContent: JSON.stringify(LIMITS) } : null) };
  assert.deepEqual(readLimits(doc), LIMITS);
});

test("a page starts on a 5x5 board from its first square, with the first ordering, the usual speed, a new seed", () => {
  const random = Math.random;
  try {
    Math.random = () => 0.123456789;
    assert.deepEqual(defaultSettings(LIMITS), { ...PAGE, seed: 123456 });
    Math.random = () => 0.9999999999;
    assert.equal(defaultSettings(LIMITS).seed, 999999);
    assert.equal(defaultSettings({ ...LIMITS, orders: ["warnsdorff"], defaultSpeed: 60 }).order, "warnsdorff");
    assert.equal(defaultSettings({ ...LIMITS, defaultSpeed: 60 }).speed, 60);
  } finally {
    Math.random = random;
  }
  for (let i = 0; i < 20; i += 1) {
    const { seed } = defaultSettings(LIMITS);
    assert.ok(Number.isInteger(seed) && seed >= 0 && seed < 1e6, String(seed));
  }
});

test("a board has rows x cols squares, the example graph a vertex for each name", () => {
  assert.equal(squares({ ...PAGE, rows: 3, cols: 4 }, LIMITS.example), 12);
  assert.equal(squares({ ...PAGE, mode: "race", rows: 6, cols: 6 }, LIMITS.example), 36);
  assert.equal(squares({ ...PAGE, mode: "example", rows: 3, cols: 4 }, LIMITS.example), 6);
});

test("a race runs the settings' ordering on its first board and the one it races against on its second", () => {
  assert.equal(raceOrder(PAGE, true), "naive");
  assert.equal(raceOrder(PAGE, false), "warnsdorff");
  assert.equal(raceOrder({ ...PAGE, order: "onward,-centre", versus: "pohl" }, false), "pohl");
});

test("an ordering in a link is a name or a written form, tidied; anything else is named and the page's kept", () => {
  const order = (search) => read(search).settings.order;
  assert.equal(order("?order=onward,-centre,index"), "onward,-centre,index");
  assert.equal(order("?order=onward%2C-edge"), "onward,-edge", "commas escaped or not");
  assert.equal(order("?order=onward"), "warnsdorff", "a form the page names is its name");
  assert.equal(order("?order=onward,-centre,moves"), "warnsdorff-roth", "a plain moves last changes nothing");
  for (const bad of ["onward,onward", "onward,", ",onward", "Onward", "onward;-centre", "-", "--onward",
    "index,moves,random,centre,start,edge,corner,onward,pohl", "constructor", "naive,onward", "onward, -centre"]) {
    const { settings, ignored } = read(`?order=${encodeURIComponent(bad)}`);
    assert.equal(settings.order, PAGE.order, bad);
    assert.deepEqual(ignored, [`order=${bad}`], bad);
  }
});

test("a race's link names both orderings; one from before races of any two races naive against Warnsdorff", () => {
  const race = { ...PAGE, mode: "race", order: "onward,-corner", versus: "pohl,centre" };
  const link = toLink(race, null);
  assert.equal(link, "?mode=race&rows=5&cols=5&start=0&order=onward,-corner&versus=pohl,centre&seed=4242&speed=30");
  assert.deepEqual(read(link).settings, race);
  assert.equal(toLink({ ...race, mode: "board" }, null).includes("versus"), false, "only a race has a second");
  const former = read("?mode=race&order=random", { ...PAGE, order: "random", versus: "random" }).settings;
  assert.deepEqual([former.order, former.versus], ["naive", "warnsdorff"]);
});

test("a link writes every setting it sets, in a fixed order, and leaves out what is off or unset", () => {
  assert.equal(toLink(PAGE, null), "?mode=board&rows=5&cols=5&start=0&order=naive&seed=4242&speed=30");
  const all = { mode: "race", rows: 8, cols: 6, start: 47, order: "warnsdorff-roth", versus: "random", closed: true,
    allTours: true, budget: 5000, speed: 0, seed: 0 };
  assert.equal(toLink(all, { code: "AB23C", ticket: null }),
    "?class=AB23C&mode=race&rows=8&cols=6&start=47&order=warnsdorff-roth&versus=random&seed=0&closed=true&all=true"
    + "&budget=5000&speed=0");
  // Only the settings the link knows: no other property of the object comes along.
  assert.equal(toLink({ ...PAGE, extra: "x", pending: true }, null), toLink(PAGE, null));
});

test("the settings a link writes are the settings it reads back, with its class", () => {
  const cases = [
    [PAGE, null],
    [{ ...PAGE, rows: 1, cols: 1 }, null],
    [{ mode: "board", rows: 32, cols: 32, start: 1023, order: "random", versus: "warnsdorff", closed: true,
      allTours: true, budget: 10 ** 9, speed: 100000, seed: 2 ** 32 - 1 }, { code: "ZZ999", ticket: null }],
    [{ mode: "race", rows: 6, cols: 7, start: 41, order: "warnsdorff", versus: "-edge,pohl,random", closed: false,
      allTours: true, budget: 1, speed: 0, seed: 0 }, { code: "ABCDE", ticket: TICKET }],
    [{ mode: "example", rows: 5, cols: 5, start: 5, order: "naive", versus: "warnsdorff", closed: true,
      allTours: false, budget: null, speed: 1, seed: 17 }, null],
    [{ ...PAGE, order: "corner,-start,onward" }, null],
  ];
  for (const [settings, klass] of cases) {
    const link = toLink(settings, klass);
    // Read on a page whose own settings differ in every field, so nothing comes back by chance.
    const other = { mode: "board", rows: 9, cols: 9, start: 3, order: "warnsdorff", versus: "pohl", closed: true,
      allTours: true, budget: 77, speed: 2, seed: 99 };
    // Only a race's link names a second ordering: another mode keeps the page's own.
    const expected = settings.mode === "race" ? settings : { ...settings, versus: other.versus };
    assert.deepEqual(read(link, other), { settings: expected, klass, name: null, lab: null, ignored: [] }, link);
  }
  // The code lab's exercise comes back as it was written.
  assert.equal(read(toLink(PAGE, null, [], "warnsdorff")).lab, "warnsdorff");
});

test("a link without values: the page's board, ordering, seed and speed; no class or options; the first square", () => {
  const own = { ...PAGE, mode: "race", rows: 7, cols: 8, start: 20, closed: true, allTours: true, budget: 100,
    order: "random", speed: 500, seed: 31 };
  const expected = { ...own, start: 0, closed: false, allTours: false, budget: null };
  for (const search of ["", "?", "&&"]) {
    assert.deepEqual(read(search, own), { settings: expected, klass: null, name: null, lab: null, ignored: [] }, search);
  }
  assert.deepEqual(read("?rows", own), { settings: expected, klass: null, name: null, lab: null, ignored: ["rows="] },
    "a key without a value is a bad value");
});

test("board sides are whole numbers from 1 to the server's largest; any other is named and the page's kept", () => {
  assert.equal(read("?rows=1&cols=32").settings.rows, 1);
  assert.equal(read("?rows=1&cols=32").settings.cols, 32);
  assert.equal(read("?rows=007").settings.rows, 7, "leading zeros are still a number");
  for (const bad of ["0", "33", "-1", "+6", "6.0", "6.5", " 6", "6 ", "1e1", "0x10", "six", "", "12345678901",
    "99999999999999999999", "Infinity", "NaN"]) {
    const { settings, ignored } = read(`?rows=${encodeURIComponent(bad)}&cols=${encodeURIComponent(bad)}`);
    assert.equal(settings.rows, PAGE.rows, `rows=${bad}`);
    assert.equal(settings.cols, PAGE.cols, `cols=${bad}`);
    assert.deepEqual(ignored, [`rows=${bad}`, `cols=${bad}`]);
  }
});

test("the start: a square's name or number on the link's own board, a vertex's letter or number on the graph", () => {
  const start = (search) => read(search).settings.start;
  assert.equal(start("?start=a5"), 0, "the top left of 5x5");
  assert.equal(start("?start=e1"), 24, "the bottom right");
  assert.equal(start("?start=c3"), 12);
  assert.equal(start("?start=C3"), 12, "in either case");
  assert.equal(start("?rows=8&cols=8&start=h1"), 63, "on the link's board, not the page's");
  assert.equal(start("?rows=8&cols=8&start=63"), 63);
  assert.equal(start("?rows=30&cols=30&start=ad1"), 899, "files past z: aa, ab, ...");
  assert.equal(start("?start=24"), 24);
  assert.equal(start("?mode=example&start=b"), 1);
  assert.equal(start("?mode=example&start=F"), 5);
  assert.equal(start("?mode=example&start=5"), 5);
  assert.equal(start("?mode=race&rows=4&cols=6&start=23"), 23);
  // Off the board, or no square of it: named, and the start is the first square.
  for (const [search, value] of [["?start=25", "25"], ["?start=f1", "f1"], ["?start=a6", "a6"], ["?start=-1", "-1"],
    ["?start=c", "c"], ["?start=", ""], ["?rows=3&cols=3&start=9", "9"], ["?mode=example&start=6", "6"],
    ["?mode=example&start=G", "G"], ["?mode=example&start=c3", "c3"], ["?start=1.5", "1.5"]]) {
    const { settings, ignored } = read(search, { ...PAGE, start: 7 });
    assert.equal(settings.start, 0, search);
    assert.deepEqual(ignored, [`start=${value}`], search);
  }
});

test("modes and orderings are only the page's own names: no name every object has, no other case", () => {
  assert.equal(read("?mode=race").settings.mode, "race");
  assert.equal(read("?mode=example").settings.mode, "example");
  for (const order of LIMITS.orders) assert.equal(read(`?order=${order}`).settings.order, order);
  for (const bad of ["constructor", "__proto__", "toString", "hasOwnProperty", "length", "0", "Board", "WARNSDORFF",
    "", "board "]) {
    const { settings, ignored } = read(`?mode=${encodeURIComponent(bad)}&order=${encodeURIComponent(bad)}`);
    assert.equal(settings.mode, PAGE.mode, bad);
    assert.equal(settings.order, PAGE.order, bad);
    assert.deepEqual(ignored, [`mode=${bad}`, `order=${bad}`]);
  }
});

test("the seed is a whole number up to the server's largest, 0 included", () => {
  assert.equal(read("?seed=0").settings.seed, 0);
  assert.equal(read("?seed=4294967295").settings.seed, 2 ** 32 - 1);
  for (const bad of ["4294967296", "-5", "1.5", "abc", "", "1e3"]) {
    const { settings, ignored } = read(`?seed=${bad}`);
    assert.equal(settings.seed, PAGE.seed, bad);
    assert.deepEqual(ignored, [`seed=${bad}`]);
  }
});

test("closed and all tours are true or false, written just so; anything else is off", () => {
  assert.equal(read("?closed=true").settings.closed, true);
  assert.equal(read("?all=true").settings.allTours, true);
  assert.deepEqual(read("?closed=false&all=false"), { ...read(""), ignored: [] }, "false is a value, and off");
  for (const bad of ["1", "yes", "TRUE", "True", "on", ""]) {
    const { settings, ignored } = read(`?closed=${bad}&all=${bad}`, { ...PAGE, closed: true, allTours: true });
    assert.equal(settings.closed, false, bad);
    assert.equal(settings.allTours, false, bad);
    assert.deepEqual(ignored, [`closed=${bad}`, `all=${bad}`]);
  }
});

test("the budget is from 1 to the server's largest; without a good one there is none", () => {
  assert.equal(read("?budget=1").settings.budget, 1);
  assert.equal(read("?budget=1000000000").settings.budget, 10 ** 9);
  for (const bad of ["0", "1000000001", "-1", "100k", ""]) {
    const { settings, ignored } = read(`?budget=${bad}`, { ...PAGE, budget: 500 });
    assert.equal(settings.budget, null, bad);
    assert.deepEqual(ignored, [`budget=${bad}`]);
  }
});

test("the speed is one of the slider's, written as the page writes it; 0 is the fastest", () => {
  for (const speed of LIMITS.speeds) assert.equal(read(`?speed=${speed}`).settings.speed, speed);
  for (const bad of ["7", "3e1", "30.0", " 30", "0x1e", "", "-0", "Infinity", "valueOf", "constructor"]) {
    const { settings, ignored } = read(`?speed=${encodeURIComponent(bad)}`, { ...PAGE, speed: 250 });
    assert.equal(settings.speed, 250, `speed=${bad}`);
    assert.deepEqual(ignored, [`speed=${bad}`]);
  }
});

test("a class code is the server's length of its letters and digits, read in capitals", () => {
  assert.deepEqual(read("?class=AB23C").klass, { code: "AB23C", ticket: null });
  assert.equal(read("?class=ab23c").klass.code, "AB23C");
  assert.equal(fromLink("?class=AB2", PAGE, { ...LIMITS, classCode: { alphabet: "AB2", length: 3 } }).klass.code, "AB2");
  // No code has a letter or digit that reads like another (0/O, 1/I/L).
  for (const bad of ["ABCD", "ABCDEF", "AB-23", "AB 23", "", "ÄBCDE", "AB0CD", "ABOCD", "AB1CD", "ABICD", "ABLCD"]) {
    const { klass, ignored } = read(`?class=${encodeURIComponent(bad)}`);
    assert.equal(klass, null, bad);
    assert.deepEqual(ignored, [`class=${bad}`]);
  }
});

test("a class link's ticket is taken only as the server writes them, and only with a class", () => {
  assert.deepEqual(read(`?class=AB23C&ticket=${TICKET}`).klass, { code: "AB23C", ticket: TICKET });
  for (const bad of ["", "x.y", TICKET.slice(1), `${TICKET}A`, TICKET.replace(".", "-"), TICKET.replace("a", "=")]) {
    const { klass, ignored } = read(`?class=AB23C&ticket=${encodeURIComponent(bad)}`);
    assert.deepEqual(klass, { code: "AB23C", ticket: null }, bad);
    assert.deepEqual(ignored, [`ticket=${bad}`]);
  }
  assert.deepEqual(read(`?ticket=${TICKET}`), { ...read(""), ignored: [`ticket=${TICKET}`] });
});

test("a link shared when the race was called \"compare\" still sets up the race", () => {
  assert.deepEqual(read("?mode=compare&rows=6&cols=7"), read("?mode=race&rows=6&cols=7"));
  assert.deepEqual(read("?mode=compare").ignored, []);
  assert.equal(toLink(read("?mode=compare").settings, null), toLink({ ...PAGE, mode: "race" }, null));
});

test("keys a link may carry that are not settings are passed over, unnamed; a repeated key counts once", () => {
  const { settings, klass, ignored } = read("?utm_source=mail&controls=none&rows=6&ROWS=9&foo&rows=8");
  assert.deepEqual(settings, { ...PAGE, rows: 6 });
  assert.equal(klass, null);
  assert.deepEqual(ignored, []);
  // Several bad values are each named, in the order the page reads them.
  assert.deepEqual(read("?speed=3&rows=0&mode=x").ignored, ["rows=0", "mode=x", "speed=3"]);
});

test("a composed ordering's name goes with it in the link, and comes back with it; no other name does", () => {
  const settings = { ...PAGE, order: "index,-onward,start" };
  const link = toLink(settings, null, [{ form: "index,-onward,start", name: "Away from start" }]);
  assert.match(link, /order=index,-onward,start&name=Away\+from\+start/);
  assert.equal(read(link).name, "Away from start");
  assert.equal(toLink(settings, null, []).includes("name="), false, "no name kept: none in the link");
  assert.deepEqual(read("?order=warnsdorff&name=Mine").ignored, ["name=Mine"], "a page's own ordering keeps its name");
  assert.deepEqual(read("?order=onward,edge&name=<b>").ignored, ["name=<b>"], "a name is letters, digits and a few marks");
  assert.equal(read("?order=onward,edge&name=" + "x".repeat(25)).name, null, "at most 24 letters");
});
