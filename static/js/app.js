// Boot the page: wire the controls, the lanes (runs), the views and the lesson panels together.
import { next, view } from "./controls.js";
import { whyNoTour } from "./feasibility.js";
import { GraphView } from "./graphview.js";
import { currentLanguage, preferredLanguage, setLanguage, t } from "./i18n.js";
import { Lane } from "./lane.js";
import { callStack, nextMoves, treeEstimate } from "./lesson.js";
import { createModel, knightSquare } from "./model.js";
import { knightMoves } from "./orderings.js";
import { Renderer } from "./renderer.js";
import { DepthChart } from "./chart.js";
import { CODE, codeLine, exportTour, notation, readLink, writeLink } from "./share.js";
import { ORDERINGS } from "./theme.js";

const $ = (id) => document.getElementById(id);
const els = Object.fromEntries([
  "board-box", "board-box-second", "rows", "cols", "start", "order", "order-note", "seed", "seed-field", "closed", "all-tours", "budget",
  "speed", "speed-out", "timeline", "timeline-out", "play", "step", "back", "skip", "reset",
  "status", "announcer", "start-out", "feasibility", "visits", "backtracks", "depth", "elapsed",
  "tours", "events", "board", "board-second", "board-frame", "lane-second", "caption-main",
  "caption-second", "board-note", "mode", "hints", "degrees", "lesson", "code", "stack", "chart",
  "analysis", "language", "help", "help-dialog", "copy-link", "export-json", "export-notation",
  "export-png", "share-note", "class-none", "class-lead", "class-follow", "class-away",
  "class-open", "class-code", "class-join", "lead-code", "lead-link", "presenter", "class-end",
  "follow-code", "class-leave", "class-rejoin", "class-note", "presenter-bar", "presenter-link",
  "presenter-code", "presenter-exit", "board-setup", "search-setup",
].map((id) => [id.replace(/-(\w)/g, (_, c) => c.toUpperCase()), $(id)]));
const MAX_SIDE = Number(els.rows.max);
// The slider's speeds, in events a second (0: as fast as the page takes them), from the server.
const SPEEDS = els.speed.dataset.steps.split(",").map(Number);
const EXAMPLE = { names: ["A", "B", "C", "D", "E", "F"], moves: [[1, 3], [2, 3], [], [4], [5], [2]] };
const count = (n) => n.toLocaleString(currentLanguage() === "zh" ? "zh-CN" : "en");
const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");

const page = {
  mode: "board",
  state: "idle",
  start: 0,
  clock: { total: 0, since: null }, // elapsed search time, counted only while running
  replaying: false,                 // playing back events already received
  spoken: -Infinity,                // when the live region last spoke
  klass: { role: "none", code: null }, // none, instructor, student, or left (may rejoin)
};
const CLASS_KEY = "knights-tour-class"; // the instructor's code and token, in this browser only

function makeLane(name) {
  const lane = new Lane({
    connection: () => connection(),
    started: (run) => started(lane, run),
    changed: (news) => changed(lane, news),
    progress: (snapshot) => progressed(lane, snapshot),
    finished: (result) => finished(lane, result),
    error: (message) => say(message),
    classState: (state) => classState(state),
    classControl: (control) => classControl(control),
    classEnded: (ended) => classEnded(ended),
    lost: () => page.klass.role === "student" && joinClass(page.klass.code),
  });
  lane.name = name;
  return lane;
}

const main = makeLane("main");
const second = makeLane("second"); // the other ordering, side by side
const boardView = new Renderer(els.board, els.boardBox);
const graphView = new GraphView(els.board, els.boardBox);
const secondView = new Renderer(els.boardSecond, els.boardBoxSecond);
boardView.setOverlay(() => overlay(main));
secondView.setOverlay(() => overlay(second));
const chart = new DepthChart(els.chart);

function lanes() {
  return page.mode === "compare" ? [main, second] : [main];
}

function viewOf(lane) {
  if (lane === second) return secondView;
  return page.mode === "example" ? graphView : boardView;
}

function show(lane) {
  const v = viewOf(lane);
  if (v === graphView) v.show(lane.model, EXAMPLE.names, EXAMPLE.moves);
  else v.show(lane.model);
  refresh();
}

// Settings.

function speed() {
  return SPEEDS[Number(els.speed.value)];
}

function board() {
  return { rows: Number(els.rows.value), cols: Number(els.cols.value) };
}

/** Return the settings of a run as the server's 'start' takes them, for one lane. */
function settings(lane, paused) {
  const budget = els.budget.value === "" ? null : Number(els.budget.value);
  const common = {
    start: page.start, speed: speed(), paused, closed: els.closed.checked,
    all_tours: els.allTours.checked, seed: Number(els.seed.value), budget,
  };
  if (page.mode === "example") return { ...common, graph: "example", order: "naive", closed: false };
  const order = page.mode === "compare" ? (lane === main ? "naive" : "warnsdorff") : els.order.value;
  return { ...common, ...board(), order };
}

function moves(lane) {
  if (page.mode === "example") return EXAMPLE.moves;
  const m = lane.model;
  if (lane.moves?.rows !== m.rows || lane.moves?.cols !== m.cols) {
    lane.moves = Object.assign(knightMoves(m.rows, m.cols), { rows: m.rows, cols: m.cols });
  }
  return lane.moves;
}

function squareName(square) {
  if (page.mode === "example") return t("vertex {name}", { name: EXAMPLE.names[square] });
  const { cols } = main.model;
  return t("square {n} (row {row}, column {col})",
    { n: square, row: Math.floor(square / cols) + 1, col: (square % cols) + 1 });
}

function laneName(lane) {
  return lane === main ? t("Naive") : t("Warnsdorff");
}

// Showing things.

function say(message) {
  els.status.textContent = message;
}

function go(action) {
  page.state = next(page.state, action);
  const running = page.state === "playing" || page.state === "skipping";
  if (running && page.clock.since === null) page.clock.since = performance.now();
  if (!running && page.clock.since !== null) {
    page.clock.total += performance.now() - page.clock.since;
    page.clock.since = null;
  }
  showControls();
  refresh();
}

function connected() {
  return lanes().every((lane) => lane.server.connected());
}

const following = () => page.klass.role === "student";
// Stepping back and scrubbing work on one board's own events, not while skipping or following.
const reviewable = () => page.mode !== "compare" && page.state !== "skipping" && !following();

function showBack() {
  els.back.disabled = !reviewable() || main.model.events <= main.timeline.first;
}

function showControls() {
  const v = view(page.state, connected() && !following());
  els.play.textContent = t(page.replaying || page.state === "playing" ? "Pause" : "Play");
  els.play.disabled = !v.play.enabled;
  els.play.setAttribute("aria-pressed", String(page.state === "playing"));
  els.step.disabled = !v.step.enabled;
  showBack();
  els.skip.textContent = t(v.skip.label);
  els.skip.disabled = !v.skip.enabled;
  els.reset.disabled = !v.reset.enabled || following();
  els.timeline.disabled = !reviewable();
  for (const part of [els.boardSetup, els.searchSetup, els.mode, els.speed]) part.disabled = following();
  document.body.dataset.state = page.state;
  document.body.dataset.mode = page.mode;
  if (page.state !== "finished") delete document.body.dataset.result;
}

let refreshQueued = false;
/** Redraw the boards, counters and lesson panels on the next frame. */
function refresh() {
  if (refreshQueued) return;
  refreshQueued = true;
  requestAnimationFrame(() => {
    refreshQueued = false;
    showCounters();
    showLesson();
    for (const lane of lanes()) viewOf(lane).invalidate();
    chart.draw();
    if (page.clock.since !== null) refresh(); // keep the clock ticking
  });
}

function showCounters() {
  const m = main.model;
  els.visits.textContent = count(m.visits);
  els.backtracks.textContent = count(m.backtracks);
  els.depth.textContent = `${m.path.length} / ${m.squares}`;
  els.tours.textContent = count(m.tours);
  els.events.textContent = count(m.events);
  const { total, since } = page.clock;
  const seconds = (total + (since === null ? 0 : performance.now() - since)) / 1000;
  els.elapsed.textContent = `${seconds.toFixed(seconds < 10 ? 2 : 1)} s`;
  const { first, head } = main.timeline;
  els.timeline.min = String(first);
  els.timeline.max = String(head);
  els.timeline.value = String(m.events);
  els.timelineOut.textContent = t("event {at} of {head} received", { at: count(m.events), head: count(head) });
  showBack();
  for (const [lane, caption] of [[main, els.captionMain], [second, els.captionSecond]]) {
    caption.textContent = page.mode !== "compare" ? "" : t(
      "{name}: {visits} visits, {backtracks} backtracks, depth {depth} / {squares}",
      { name: laneName(lane), visits: count(lane.model.visits), backtracks: count(lane.model.backtracks),
        depth: lane.model.path.length, squares: lane.model.squares });
  }
}

function stackOf(lane) {
  const run = lane.run ?? { order: settings(lane).order, seed: Number(els.seed.value), ...board() };
  return lane.model.path.length ? callStack(lane.model, moves(lane), run, lane.lastShown()) : [];
}

/** Return what the board draws over its squares: Warnsdorff's counts, the empty board's moves. */
function overlay(lane) {
  const m = lane.model;
  const hints = els.hints.checked && page.mode !== "example" ? nextMoves(stackOf(lane), m, moves(lane)) : [];
  const degrees = els.degrees.checked && page.mode !== "example" ? moves(lane).map((list) => list.length) : null;
  return { hints, degrees };
}

/** Write a large number as mantissa × 10 to a power. */
function scientific(x) {
  const [mantissa, power] = x.toExponential(1).split("e");
  const sup = (s) => [...s.replace("+", "")].map((ch) => "⁰¹²³⁴⁵⁶⁷⁸⁹⁻"["0123456789-".indexOf(ch)]).join("");
  return `${mantissa} × 10${sup(power)}`;
}

function showLesson() {
  if (!els.lesson.checked) return;
  const m = main.model;
  const stack = stackOf(main);
  const line = codeLine(main.lastShown());
  els.code.querySelectorAll("span").forEach((span, i) => span.classList.toggle("now", i + 1 === line));
  const name = page.mode === "example" ? (v) => EXAMPLE.names[v] : (v) => String(v);
  const shown = stack.slice(-8).reverse();
  els.stack.replaceChildren(...shown.map((level) => {
    const li = document.createElement("li");
    li.value = level.depth;
    li.textContent = t("depth {depth}: {square}; to try: {rest}", {
      depth: level.depth, square: name(level.square),
      rest: level.toTry.length ? level.toTry.map(name).join(t(", ")) : t("none"),
    });
    return li;
  }));
  if (stack.length > shown.length) {
    const li = document.createElement("li");
    li.className = "more";
    li.textContent = t("… {n} more levels below", { n: stack.length - shown.length });
    els.stack.append(li);
  }
  const { branching, nodes } = treeEstimate(moves(main));
  els.analysis.textContent = t(
    "The textbook's estimate of the search tree: {k} moves a square on average, to the power of " +
    "{n} squares, is about {nodes} nodes. This search has explored {visits} of them so far.",
    { k: branching.toFixed(2), n: m.squares, nodes: scientific(nodes), visits: count(m.visits) });
}

/** Let a screen reader hear the latest move, at most about once a second. */
function announce(lane, always = false) {
  const now = performance.now();
  if (lane !== main || (!always && now - page.spoken < 1000)) return;
  const code = main.lastShown();
  if (code === null) return;
  page.spoken = now;
  const where = (v) => page.mode === "example" ? EXAMPLE.names[v] : notation(v, main.model.rows, main.model.cols);
  els.announcer.textContent = code === "found" ? t("Tour found.")
    : code >= 0 ? t("Knight to {square}.", { square: where(code) })
    : t("Back from {square}.", { square: where(-code - 1) });
}

function showOrdering() {
  els.orderNote.textContent = t(ORDERINGS[els.order.value]);
  els.seedField.hidden = els.order.value !== "random";
}

function showFeasibility() {
  const { rows, cols } = board();
  const why = page.mode === "example" ? "" : whyNoTour(rows, cols, page.start, els.closed.checked);
  els.feasibility.textContent = why ? t("{why} The search can still run, to show it.", { why: t(why.text, why) }) : "";
}

function showIdle() {
  const { rows, cols } = board();
  const squares = page.mode === "example" ? EXAMPLE.names.length : rows * cols;
  page.start = page.start < squares ? page.start : 0;
  page.clock = { total: 0, since: null };
  page.replaying = false;
  const across = page.mode === "compare" ? 2 * cols : cols;
  els.boardFrame.style.setProperty("--aspect", page.mode === "example" ? "1.6" : `${across} / ${rows}`);
  els.laneSecond.hidden = page.mode !== "compare";
  (page.mode === "example" ? boardView : graphView).hide();
  for (const lane of [main, second]) {
    lane.showEmpty(page.mode === "example" ? createModel(1, squares, page.start) : createModel(rows, cols, page.start));
  }
  for (const lane of lanes()) show(lane);
  chart.clear(squares);
  els.startOut.textContent = squareName(page.start);
  els.start.max = String(squares - 1);
  els.start.value = String(page.start);
  showFeasibility();
  writeLink(linkState());
  go("reset");
  say(t(connected() ? "Ready: click a square to choose where the knight starts, then press Play." : "Connecting…"));
}

// Lanes' news.

function connection() {
  if (connected() && page.klass.role === "instructor") claimClass(page.klass.code);
  else if (connected() && following()) joinClass(page.klass.code);
  if (!connected()) {
    if (page.state !== "idle" && page.state !== "finished") go("reset");
    say(t("Connection to the server lost; reconnecting…"));
  } else if (page.state === "idle") {
    say(t("Ready: click a square to choose where the knight starts, then press Play."));
  }
  showControls();
}

function started(lane, run) {
  if (following() && (run.graph === "example") !== (page.mode === "example")) {
    els.mode.value = page.mode = run.graph === "example" ? "example" : "board";
    (page.mode === "example" ? boardView : graphView).hide();
  }
  show(lane);
  if (lane !== main) return;
  page.clock = { total: 0, since: null };
  chart.clear(lane.model.squares);
  go(run.paused ? "step" : "play");
  if (following()) say(t("Following class {code}: searching…", { code: page.klass.code }));
  else say(t(run.paused ? "Paused: press Step to see the next move." : "Searching…"));
}

/** Note what a lane received (news: {first, depth, codes} when the view follows it). */
function changed(lane, news) {
  if (lane === main && news) {
    // Up to about 64 samples a batch: every event of a slow stream, a sketch of a fast one.
    const every = Math.max(1, Math.floor(news.codes.length / 64));
    let depth = news.depth;
    news.codes.forEach((code, i) => {
      if (code !== "found") depth += code >= 0 ? 1 : -1;
      if (i % every === every - 1 || i === news.codes.length - 1) chart.sample(news.first + i + 1, depth);
    });
  }
  announce(lane);
  refresh();
}

function progressed(lane, snapshot) {
  show(lane);
  if (lane !== main) return;
  chart.sample(snapshot.events, snapshot.path.length);
  if (snapshot.skipping) {
    say(t("Skipping to the end: {events} events so far, {rate} a second, depth {depth} of {squares}, {seconds} s.", {
      events: count(snapshot.events), rate: count(Math.round(snapshot.rate)),
      depth: snapshot.path.length, squares: lane.model.squares, seconds: snapshot.elapsed.toFixed(1) }));
  } else {
    go("pause");
    say(t("Skip cancelled: paused after {events} events. Play or Step to go on.", { events: count(snapshot.events) }));
  }
}

function finished(lane, result) {
  show(lane);
  if (!lanes().every((each) => each.result)) return;
  go("finish");
  document.body.dataset.result = result.stopped ? "stopped" : result.found ? "found" : "none";
  say(outcome());
  announce(main, true);
}

/** Say what the finished runs found: one sentence, or one for each side of a race. */
function outcome() {
  if (page.mode !== "compare") return describe(main);
  return lanes().map((each) => t("{name}: {outcome}", { name: laneName(each), outcome: describe(each) })).join(" ");
}

/** Say what a finished run found, in a sentence. */
function describe(lane) {
  const { result, run } = lane;
  const closed = run.closed;
  const where = squareName(run.start);
  const counts = { visits: count(result.visits), backtracks: count(result.backtracks),
    events: count(result.events), tours: count(result.tours), where, squares: lane.model.squares };
  if (result.stopped) {
    return t(result.tours ? "Stopped after {events} steps (the step budget): {tours} tours found so far."
      : "Stopped after {events} steps (the step budget): no tour found yet.", counts);
  }
  if (run.all_tours && result.tours) {
    return t(closed ? "Found {tours} closed tours from {where} after trying every path ({visits} visits and {backtracks} backtracks); the board shows the last one."
      : "Found {tours} tours from {where} after trying every path ({visits} visits and {backtracks} backtracks); the board shows the last one.", counts);
  }
  if (page.mode === "example" && result.found) {
    return t(result.backtracks === 1
      ? "Path found through all {squares} vertices, {names}, after {visits} visits and 1 backtrack."
      : "Path found through all {squares} vertices, {names}, after {visits} visits and {backtracks} backtracks.",
    { ...counts, names: result.path.map((v) => EXAMPLE.names[v]).join(t(", ")) });
  }
  if (result.found) {
    return t(closed ? "Closed tour found: the knight visited all {squares} squares, after {visits} visits and {backtracks} backtracks."
      : "Tour found: the knight visited all {squares} squares, after {visits} visits and {backtracks} backtracks.", counts);
  }
  return t(closed ? "No closed tour exists from {where}: the search tried every path ({visits} visits and {backtracks} backtracks)."
    : "No tour exists from {where}: the search tried every path ({visits} visits and {backtracks} backtracks).", counts);
}

// User actions.

const ready = () => page.state === "idle" || page.state === "finished";

async function startAll(paused) {
  const begun = await Promise.all(lanes().map((lane) => lane.start(settings(lane, paused))));
  return begun.every(Boolean);
}

async function sendAll(event, payload) {
  const answers = await Promise.all(lanes().map((lane) => lane.send(event, payload)));
  return answers.every(Boolean);
}

async function playOrPause() {
  if (!connected()) return;
  if (page.replaying) { stopReplay(); return; }
  if (!main.atHead() && page.mode !== "compare") { replay(); return; }
  if (ready()) {
    await startAll(false);
  } else if (page.state === "playing") {
    if (await sendAll("pause")) { go("pause"); say(t("Paused.")); }
  } else if (page.state === "paused" && (await sendAll("resume"))) {
    go("play");
    say(t("Searching…"));
  }
}

async function pauseRun() {
  if (page.replaying) stopReplay();
  if (page.state === "playing" && (await sendAll("pause"))) go("pause");
}

async function step() {
  if (!connected() || page.state === "skipping") return;
  if (page.mode !== "compare" && !main.atHead()) {
    await pauseRun();
    main.forward();
    return changed(main);
  }
  if (page.state === "finished" && main.atHead() && page.mode !== "compare") return;
  if (ready() && !(await startAll(true))) return;
  if ((await sendAll("step")) && page.state !== "finished") {
    go("step");
    say(t("Paused: press Step to see the next move."));
  }
}

async function stepBack() {
  if (!reviewable()) return;
  await pauseRun();
  if (main.back()) {
    chart.rewind(main.model.events);
    say(t("Stepped back to event {at}: Step or Play to go forward again.", { at: count(main.model.events) }));
    changed(main);
  }
}

async function seek(target) {
  if (!reviewable()) return;
  await pauseRun();
  main.seek(target);
  chart.rewind(main.model.events);
  show(main);
}

/** Play back the events already received, at the chosen speed, then go on live. */
function replay() {
  page.replaying = true;
  if (page.state === "playing") sendAll("pause");
  showControls();
  let last = performance.now(), credit = 0;
  const tick = (now) => {
    if (!page.replaying) return;
    const s = speed();
    credit += s ? ((now - last) / 1000) * s : Infinity;
    last = now;
    while (credit >= 1 && main.forward()) credit -= 1;
    changed(main);
    if (!main.atHead()) { requestAnimationFrame(tick); return; }
    stopReplay();
    if (page.state === "paused") playOrPause(); // caught up: the live search goes on
  };
  requestAnimationFrame(tick);
}

function stopReplay() {
  page.replaying = false;
  showControls();
}

async function skip() {
  if (!connected()) return;
  if (page.state === "skipping") {
    await sendAll("pause"); // the server answers with a last progress report
    return;
  }
  if (page.replaying) stopReplay();
  if (ready() && !(await startAll(true))) return;
  if ((await sendAll("skip")) && page.state !== "finished") {
    go("skip");
    say(t("Skipping to the end…"));
  }
}

function reset() {
  if (page.state !== "idle" && connected()) sendAll("stop");
  showIdle();
}

function changeBoard(input) {
  const value = Math.round(Number(input.value));
  const clamped = Math.min(MAX_SIDE, Math.max(1, Number.isFinite(value) ? value : 1));
  els.boardNote.textContent = clamped === value ? "" :
    t("Boards have 1 to {max} rows and columns; {typed} became {value}.",
      { max: MAX_SIDE, typed: input.value || "?", value: clamped });
  input.value = String(clamped);
  reset();
}

function changeSpeedLabel() {
  const s = speed();
  els.speedOut.textContent = s ? t("{n} moves/s", { n: count(s) }) : t("Fastest");
  for (const v of [boardView, secondView]) v.setSpeed(s);
}

function changeSpeed() {
  const s = speed();
  changeSpeedLabel();
  if (page.state === "playing" || page.state === "paused") sendAll("speed", { speed: s });
  writeLink(linkState());
}

function nudgeSpeed(by) {
  const value = Math.min(Number(els.speed.max), Math.max(0, Number(els.speed.value) + by));
  els.speed.value = String(value);
  changeSpeed();
}

function changeNumber(input, low, high) {
  if (input.value !== "" || input !== els.budget) {
    const value = Math.round(Number(input.value));
    input.value = String(Math.min(high, Math.max(low, Number.isFinite(value) ? value : low)));
  }
  reset();
}

function chooseStart(event) {
  if (page.mode === "example" || following()) return;
  const square = boardView.squareAt(event.clientX, event.clientY);
  if (square < 0) return;
  page.start = square;
  reset();
}

function typeStart() {
  const value = Math.round(Number(els.start.value));
  page.start = Number.isFinite(value) ? Math.min(Number(els.start.max), Math.max(0, value)) : 0;
  reset();
}

function changeMode() {
  page.mode = els.mode.value;
  if (page.mode === "example") page.start = 0;
  reset();
}

function linkState() {
  return {
    class: page.klass.role === "none" ? null : page.klass.code,
    mode: page.mode, ...board(), start: page.start, order: els.order.value, seed: els.seed.value,
    closed: els.closed.checked, all: els.allTours.checked, budget: els.budget.value,
    speed: speed(),
  };
}

/** Set the page up from its address; return the class code it invites to, if any. */
function applyLink() {
  const link = readLink();
  if (!link) return null;
  const pick = (value, low, high, fallback) =>
    Number.isInteger(value) && value >= low && value <= high ? value : fallback;
  els.rows.value = String(pick(link.rows, 1, MAX_SIDE, 5));
  els.cols.value = String(pick(link.cols, 1, MAX_SIDE, 5));
  page.start = pick(link.start, 0, Number(els.rows.value) * Number(els.cols.value) - 1, 0);
  // The server's orderings are the select's options; a link may name only one of them.
  if ([...els.order.options].some((option) => option.value === link.order)) els.order.value = link.order;
  if (["board", "compare", "example"].includes(link.mode)) els.mode.value = page.mode = link.mode;
  els.seed.value = String(pick(link.seed, 0, Number(els.seed.max), Number(els.seed.value)));
  els.closed.checked = link.closed === true;
  els.allTours.checked = link.all === true;
  els.budget.value = link.budget ? String(pick(link.budget, 1, Number(els.budget.max), "")) : "";
  const position = SPEEDS.indexOf(link.speed);
  if (position >= 0) els.speed.value = String(position);
  const code = String(link.class ?? "").toUpperCase();
  return /^[A-Z0-9]{5}$/.test(code) ? code : null;
}

// Class sessions.

function showClass() {
  const { role, code } = page.klass;
  const link = code ? `${location.origin}/?class=${code}` : "";
  els.classNone.hidden = role !== "none";
  els.classLead.hidden = role !== "instructor";
  els.classFollow.hidden = role !== "student";
  els.classAway.hidden = role !== "left";
  els.leadCode.textContent = els.followCode.textContent = els.presenterCode.textContent = code ?? "";
  els.leadLink.textContent = els.presenterLink.textContent = link;
  const presenting = role === "instructor" && els.presenter.getAttribute("aria-pressed") === "true";
  document.body.dataset.presenter = String(presenting);
  els.presenterBar.hidden = !presenting;
  writeLink(linkState());
  showControls();
}

async function openClass() {
  const answer = await main.server.request("class_open");
  if (!answer.ok) return;
  localStorage.setItem(CLASS_KEY, JSON.stringify({ code: answer.code, token: answer.token }));
  page.klass = { role: "instructor", code: answer.code };
  els.classNote.textContent = t("Your class is open: show the code or the link to the class. Your runs are theirs to watch.");
  showClass();
}

async function claimClass(code) {
  const stored = JSON.parse(localStorage.getItem(CLASS_KEY) || "null");
  if (stored?.code !== code) return false;
  const answer = await main.server.request("class_claim", stored);
  if (answer.ok) {
    page.klass = { role: "instructor", code };
    els.classNote.textContent = t("You lead class {code} again.", { code });
  } else {
    localStorage.removeItem(CLASS_KEY);
    page.klass = { role: "none", code: null };
  }
  showClass();
  return answer.ok;
}

async function joinClass(code) {
  const wanted = String(code ?? "").trim().toUpperCase();
  if (!wanted) return;
  if (page.state !== "idle" && !following()) sendAll("stop");
  const before = page.klass;
  // The class's state arrives before the answer, and is taken as a student's.
  page.klass = { role: "student", code: wanted };
  const answer = await main.server.request("class_join", { code: wanted });
  page.klass = answer.ok ? { role: "student", code: answer.code } : before;
  els.classNote.textContent = "";
  showClass();
}

async function leaveClass() {
  const code = page.klass.code;
  await main.server.request("class_leave");
  page.klass = { role: "left", code };
  els.classNote.textContent = t("You left class {code}: this board is yours to explore.", { code });
  showIdle();
  showClass();
}

async function endClass() {
  if ((await main.server.request("class_end")).ok) {
    localStorage.removeItem(CLASS_KEY);
    els.presenter.setAttribute("aria-pressed", "false");
    page.klass = { role: "none", code: null };
    els.classNote.textContent = t("The class has ended.");
    showClass();
  }
}

const CLASS_STATES = { playing: "playing", paused: "paused", skipping: "skipping", finished: "finished" };

function classState(state) {
  classControl(state);
  if (!state.run) say(t("Following class {code}: waiting for the instructor to start a search.", { code: state.code }));
  show(main);
}

function classControl(control) {
  if (!following()) return;
  page.state = CLASS_STATES[control.state] ?? page.state;
  showControls();
  if (control.speed !== null && control.speed !== undefined) {
    const position = SPEEDS.indexOf(control.speed);
    if (position >= 0) { els.speed.value = String(position); changeSpeedLabel(); }
  }
  if (control.state === "away") say(t("The instructor has disconnected; the class waits for them to come back."));
  else if (control.state === "paused") say(t("Following class {code}: the instructor has paused.", { code: control.code }));
  else if (control.state === "playing") say(t("Following class {code}: searching…", { code: control.code }));
  else if (control.state === "skipping") say(t("Following class {code}: skipping to the end…", { code: control.code }));
}

function classEnded(ended) {
  const was = page.klass.role;
  if (was === "instructor") localStorage.removeItem(CLASS_KEY);
  page.klass = { role: "none", code: null };
  els.presenter.setAttribute("aria-pressed", "false");
  showClass();
  if (was === "student") showIdle();
  const reasons = {
    "the instructor ended the class": t("the instructor ended the class"),
    "the instructor left": t("the instructor left"),
    "the class was idle": t("the class was idle"),
  };
  say(t("Class {code} has ended: {reason}.", { code: ended.code, reason: reasons[ended.reason] ?? ended.reason }));
}

function togglePresenter() {
  const on = els.presenter.getAttribute("aria-pressed") !== "true";
  els.presenter.setAttribute("aria-pressed", String(on));
  showClass();
}

async function share(kind) {
  const m = main.model;
  const result = exportTour(kind, m, main.run ?? settings(main), boardView.canvas);
  if (kind === "link") {
    try {
      await navigator.clipboard.writeText(location.href);
      els.shareNote.textContent = t("Link copied: it opens the page set up as it is now.");
    } catch {
      els.shareNote.textContent = t("Copy this address to share the page as it is now: {url}", { url: location.href });
    }
    return;
  }
  els.shareNote.textContent = t(result);
}

function onKey(event) {
  // Keys typed into a field belong to it, and Space or Enter on a button presses that button.
  if (event.target.closest("input, select, textarea, dialog") || event.altKey || event.ctrlKey || event.metaKey) return;
  const onButton = event.target.closest("button");
  const actions = {
    " ": onButton ? null : playOrPause,
    ArrowRight: step,
    ArrowLeft: stepBack,
    "+": () => nudgeSpeed(1),
    "=": () => nudgeSpeed(1),
    "-": () => nudgeSpeed(-1),
    Home: () => seek(main.timeline.first),
    End: () => seek(main.timeline.head),
    r: reset,
    R: reset,
    "?": () => els.helpDialog.showModal(),
  };
  const action = actions[event.key];
  // A follower's controls are the instructor's, and so are their shortcuts.
  if (!action || (following() && event.key !== "?")) return;
  event.preventDefault();
  action();
}

function changeLanguage() {
  setLanguage(els.language.value);
  showOrdering();
  showControls();
  changeSpeed();
  els.startOut.textContent = squareName(page.start);
  showFeasibility();
  if (page.state === "idle") say(t("Ready: click a square to choose where the knight starts, then press Play."));
  else if (page.state === "finished") say(outcome());
  refresh();
}

els.play.addEventListener("click", playOrPause);
els.step.addEventListener("click", step);
els.back.addEventListener("click", stepBack);
els.skip.addEventListener("click", skip);
els.reset.addEventListener("click", reset);
els.timeline.addEventListener("input", () => seek(Number(els.timeline.value)));
els.rows.addEventListener("change", () => changeBoard(els.rows));
els.cols.addEventListener("change", () => changeBoard(els.cols));
els.order.addEventListener("change", () => { showOrdering(); reset(); });
els.seed.addEventListener("change", () => changeNumber(els.seed, 0, Number(els.seed.max)));
els.budget.addEventListener("change", () => changeNumber(els.budget, 1, Number(els.budget.max)));
els.closed.addEventListener("change", reset);
els.allTours.addEventListener("change", reset);
els.mode.addEventListener("change", changeMode);
els.speed.addEventListener("input", changeSpeed);
for (const box of [els.hints, els.degrees]) box.addEventListener("change", refresh);
els.lesson.addEventListener("change", () => { document.body.dataset.lesson = String(els.lesson.checked); refresh(); });
els.board.addEventListener("click", chooseStart);
els.start.addEventListener("change", typeStart);
els.help.addEventListener("click", () => els.helpDialog.showModal());
els.language.addEventListener("change", changeLanguage);
els.copyLink.addEventListener("click", () => share("link"));
els.exportJson.addEventListener("click", () => share("json"));
els.exportNotation.addEventListener("click", () => share("notation"));
els.exportPng.addEventListener("click", () => share("png"));
els.classOpen.addEventListener("click", openClass);
els.classJoin.addEventListener("click", () => joinClass(els.classCode.value));
els.classCode.addEventListener("keydown", (event) => { if (event.key === "Enter") joinClass(els.classCode.value); });
els.classLeave.addEventListener("click", leaveClass);
els.classRejoin.addEventListener("click", () => joinClass(page.klass.code));
els.classEnd.addEventListener("click", endClass);
els.presenter.addEventListener("click", togglePresenter);
els.presenterExit.addEventListener("click", togglePresenter);
document.addEventListener("keydown", onKey);
reducedMotion.addEventListener("change", () => boardView.setReducedMotion(reducedMotion.matches));

els.code.replaceChildren(...CODE.map((text) => Object.assign(document.createElement("span"), { textContent: `${text}\n` })));
els.seed.value = String(Math.floor(Math.random() * 1e6)); // shown, and settable, for repeat runs
els.language.value = preferredLanguage();
setLanguage(els.language.value);
boardView.setReducedMotion(reducedMotion.matches);
document.body.dataset.lesson = "true";
const invited = applyLink();
showOrdering();
changeSpeed();
showIdle();
if (invited) page.klass = { role: JSON.parse(localStorage.getItem(CLASS_KEY) || "null")?.code === invited ? "instructor" : "student", code: invited };
showClass();

// Read-only handle for the browser console and the browser tests.
window.knightsTour = Object.freeze({
  get model() { return main.model; },
  get second() { return second.model; },
  get state() { return page.state; },
  get reducedMotion() { return boardView.reducedMotion; },
  overlay: () => overlay(main),
  depthSamples: () => chart.depths.slice(),
  whyNoTour,
});
