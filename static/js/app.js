// Boot the page: wire the controls, the connection, the model and the renderer together.
import { connect } from "./connection.js";
import { apply, createModel, fromSnapshot } from "./model.js";
import { next, view } from "./controls.js";
import { whyNoTour } from "./feasibility.js";
import { Renderer } from "./renderer.js";
import { ORDERINGS, SPEEDS } from "./theme.js";

const $ = (id) => document.getElementById(id);
const els = {
  rows: $("rows"), cols: $("cols"), order: $("order"), orderNote: $("order-note"),
  seed: $("seed"), seedField: $("seed-field"), closed: $("closed"), allTours: $("all-tours"),
  budget: $("budget"), speed: $("speed"), speedOut: $("speed-out"),
  play: $("play"), step: $("step"), skip: $("skip"), reset: $("reset"),
  status: $("status"), startOut: $("start-out"), feasibility: $("feasibility"),
  visits: $("visits"), backtracks: $("backtracks"), depth: $("depth"), elapsed: $("elapsed"),
  tours: $("tours"), events: $("events"),
  canvas: $("board"), frame: $("board-frame"), boardNote: $("board-note"),
};
const MAX_SIDE = Number(els.rows.max);
const READY = "Ready: click a square to choose where the knight starts, then press Play.";
const count = (n) => n.toLocaleString("en");

const page = {
  state: "idle",
  connected: false,
  model: null,
  run: null,        // the settings of the run whose events are shown, with its id
  start: 0,
  clock: { total: 0, since: null }, // elapsed search time, counted only while running
};
const renderer = new Renderer(els.canvas, els.frame);
const server = connect({ connection, started, events, progress, finished, error: say });

function speed() {
  return SPEEDS[Number(els.speed.value)];
}

function board() {
  return { rows: Number(els.rows.value), cols: Number(els.cols.value) };
}

/** Return the settings of a run as the server's 'start' takes them. */
function settings(paused) {
  const budget = els.budget.value === "" ? null : Number(els.budget.value);
  return {
    ...board(), start: page.start, order: els.order.value, speed: speed(), paused,
    closed: els.closed.checked, all_tours: els.allTours.checked,
    seed: Number(els.seed.value), budget,
  };
}

function squareName(square) {
  const { cols } = page.model;
  return `square ${square} (row ${Math.floor(square / cols) + 1}, column ${(square % cols) + 1})`;
}

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
  showCounters();
}

function showControls() {
  const v = view(page.state, page.connected);
  els.play.textContent = v.play.label;
  els.play.disabled = !v.play.enabled;
  els.play.setAttribute("aria-pressed", String(page.state === "playing"));
  els.step.disabled = !v.step.enabled;
  els.skip.textContent = v.skip.label;
  els.skip.disabled = !v.skip.enabled;
  els.reset.disabled = !v.reset.enabled;
  document.body.dataset.state = page.state;
  if (page.state !== "finished") delete document.body.dataset.result;
}

let countersQueued = false;
function showCounters() {
  if (countersQueued) return;
  countersQueued = true;
  requestAnimationFrame(() => {
    countersQueued = false;
    const m = page.model;
    els.visits.textContent = count(m.visits);
    els.backtracks.textContent = count(m.backtracks);
    els.depth.textContent = `${m.path.length} / ${m.squares}`;
    els.tours.textContent = count(m.tours);
    els.events.textContent = count(m.events);
    const { total, since } = page.clock;
    const seconds = (total + (since === null ? 0 : performance.now() - since)) / 1000;
    els.elapsed.textContent = `${seconds.toFixed(seconds < 10 ? 2 : 1)} s`;
    if (page.clock.since !== null) showCounters(); // keep the clock ticking
  });
}

function showOrdering() {
  els.orderNote.textContent = ORDERINGS[els.order.value];
  els.seedField.hidden = els.order.value !== "random";
}

function showFeasibility() {
  const { rows, cols } = board();
  const why = whyNoTour(rows, cols, page.start, els.closed.checked);
  els.feasibility.textContent = why && `${why} The search can still run, to show it.`;
}

function showModel(model) {
  page.model = model;
  renderer.show(model);
  showCounters();
}

function showIdle() {
  const { rows, cols } = board();
  page.start = page.start < rows * cols ? page.start : 0;
  page.run = null;
  page.clock = { total: 0, since: null };
  els.frame.style.setProperty("--aspect", `${cols} / ${rows}`);
  showModel(createModel(rows, cols, page.start));
  els.startOut.textContent = squareName(page.start);
  showFeasibility();
  go("reset");
  say(READY);
}

async function startRun(paused) {
  const answer = await server.request("start", settings(paused));
  return answer.ok;
}

// Server events.

function connection(up) {
  page.connected = up;
  if (!up) {
    if (page.state !== "idle" && page.state !== "finished") go("reset");
    say("Connection to the server lost; reconnecting…");
  } else if (page.state === "idle") {
    say(READY);
  }
  showControls();
}

function started(run) {
  page.run = run;
  page.clock = { total: 0, since: null };
  showModel(createModel(run.rows, run.cols, run.start, run.closed));
  go(run.paused ? "step" : "play");
  say(run.paused ? "Paused: press Step to see the next move." : "Searching…");
}

function events(batch) {
  if (batch.run !== page.run?.run) return; // left over from a run that was replaced
  const m = page.model;
  for (const code of batch.events) apply(m, code);
  renderer.invalidate();
  showCounters();
}

function progress(snapshot) {
  const run = page.run;
  if (snapshot.run !== run?.run) return;
  showModel(fromSnapshot(run.rows, run.cols, run.start, snapshot, run.closed));
  if (snapshot.skipping) {
    say(`Skipping to the end: ${count(snapshot.events)} events so far, ` +
        `${count(Math.round(snapshot.rate))} a second, depth ${snapshot.path.length} of ` +
        `${page.model.squares}, ${snapshot.elapsed.toFixed(1)} s.`);
  } else {
    go("pause");
    say(`Skip cancelled: paused after ${count(snapshot.events)} events. Play or Step to go on.`);
  }
}

function finished(result) {
  const run = page.run;
  if (result.run !== run?.run) return;
  const m = page.model;
  // After a skip, or when every tour was sought, the board shows the result's own path.
  const shown = result.tour && !result.path.length ? result.tour : result.path;
  if (m.events !== result.events || shown !== result.path) {
    const model = fromSnapshot(run.rows, run.cols, run.start, { ...result, path: shown }, run.closed);
    model.justFound = result.found && shown.length === model.squares;
    showModel(model);
  }
  go("finish");
  document.body.dataset.result = result.stopped ? "stopped" : result.found ? "found" : "none";
  say(describe(result, run));
}

/** Say what a finished run found, in a sentence. */
function describe(result, run) {
  const tour = run.closed ? "closed tour" : "tour";
  const where = squareName(run.start);
  const effort = `${count(result.visits)} visits and ${count(result.backtracks)} backtracks`;
  if (result.stopped) {
    const sofar = result.tours ? `${count(result.tours)} ${tour}s found so far` : `no ${tour} found yet`;
    return `Stopped after ${count(result.events)} steps (the step budget): ${sofar}.`;
  }
  if (run.all_tours) {
    if (!result.tours) return `No ${tour} exists from ${where}: the search tried every path (${effort}).`;
    return `Found ${count(result.tours)} ${tour}${result.tours > 1 ? "s" : ""} from ${where} ` +
           `after trying every path (${effort}); the board shows the last one.`;
  }
  if (result.found) {
    return `${run.closed ? "Closed tour" : "Tour"} found: the knight visited all ` +
           `${page.model.squares} squares, after ${effort}.`;
  }
  return `No ${tour} exists from ${where}: the search tried every path (${effort}).`;
}

// User actions.

async function playOrPause() {
  if (!page.connected) return;
  if (page.state === "idle" || page.state === "finished") {
    await startRun(false);
  } else if (page.state === "playing") {
    if ((await server.request("pause")).ok) { go("pause"); say("Paused."); }
  } else if (page.state === "paused" && (await server.request("resume")).ok) {
    go("play");
    say("Searching…");
  }
}

async function step() {
  if (!page.connected || page.state === "skipping") return;
  if (page.state === "idle" || page.state === "finished") {
    if (!(await startRun(true))) return;
  }
  if ((await server.request("step")).ok && page.state !== "finished") {
    go("step");
    say("Paused: press Step to see the next move.");
  }
}

async function skip() {
  if (!page.connected) return;
  if (page.state === "skipping") {
    await server.request("pause"); // the server answers with a last progress report
    return;
  }
  if (page.state === "idle" || page.state === "finished") {
    if (!(await startRun(true))) return;
  }
  if ((await server.request("skip")).ok && page.state !== "finished") {
    go("skip");
    say("Skipping to the end…");
  }
}

function reset() {
  if (page.state !== "idle" && page.connected) server.request("stop");
  showIdle();
}

function changeBoard(input) {
  const value = Math.round(Number(input.value));
  const clamped = Math.min(MAX_SIDE, Math.max(1, Number.isFinite(value) ? value : 1));
  els.boardNote.textContent = clamped === value ? "" :
    `Boards have 1 to ${MAX_SIDE} rows and columns; ${input.value || "that"} became ${clamped}.`;
  input.value = String(clamped);
  reset();
}

function changeSpeed() {
  const s = speed();
  els.speedOut.textContent = s ? `${count(s)} moves/s` : "Fastest";
  renderer.setSpeed(s);
  if (page.state === "playing" || page.state === "paused") server.request("speed", { speed: s });
}

function changeNumber(input, low, high) {
  if (input.value === "" && input === els.budget) return reset();
  const value = Math.round(Number(input.value));
  input.value = String(Math.min(high, Math.max(low, Number.isFinite(value) ? value : low)));
  reset();
}

function chooseStart(event) {
  const square = renderer.squareAt(event.clientX, event.clientY);
  if (square < 0) return;
  page.start = square;
  reset();
}

els.play.addEventListener("click", playOrPause);
els.step.addEventListener("click", step);
els.skip.addEventListener("click", skip);
els.reset.addEventListener("click", reset);
els.rows.addEventListener("change", () => changeBoard(els.rows));
els.cols.addEventListener("change", () => changeBoard(els.cols));
els.order.addEventListener("change", () => { showOrdering(); reset(); });
els.seed.addEventListener("change", () => changeNumber(els.seed, 0, Number(els.seed.max)));
els.budget.addEventListener("change", () => changeNumber(els.budget, 1, Number(els.budget.max)));
els.closed.addEventListener("change", reset);
els.allTours.addEventListener("change", reset);
els.speed.addEventListener("input", changeSpeed);
els.canvas.addEventListener("click", chooseStart);
document.addEventListener("keydown", (event) => {
  // Keys typed into a field belong to it, and Space on a button presses that button.
  if (event.target.closest("input, select, textarea") || event.altKey || event.ctrlKey || event.metaKey) return;
  if (event.key === " " && !event.target.closest("button")) { event.preventDefault(); playOrPause(); }
  else if (event.key === "ArrowRight") { event.preventDefault(); step(); }
});

els.seed.value = String(Math.floor(Math.random() * 1e6)); // shown, and settable, for repeat runs
showOrdering();
changeSpeed();
showIdle();

// Read-only handle for the browser console and the browser tests.
window.knightsTour = Object.freeze({
  get model() { return page.model; },
  get state() { return page.state; },
  whyNoTour,
});
