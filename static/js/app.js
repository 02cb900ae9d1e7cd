// Boot the page: wire the controls, the connection, the model and the renderer together.
import { connect } from "./connection.js";
import { apply, createModel } from "./model.js";
import { next, view } from "./controls.js";
import { Renderer } from "./renderer.js";
import { SPEEDS } from "./theme.js";

const $ = (id) => document.getElementById(id);
const els = {
  rows: $("rows"), cols: $("cols"), order: $("order"), speed: $("speed"), speedOut: $("speed-out"),
  play: $("play"), step: $("step"), reset: $("reset"), status: $("status"), startOut: $("start-out"),
  visits: $("visits"), backtracks: $("backtracks"), depth: $("depth"), elapsed: $("elapsed"),
  canvas: $("board"), frame: $("board-frame"), boardNote: $("board-note"),
};
const MAX_SIDE = Number(els.rows.max);

const page = {
  state: "idle",
  connected: false,
  model: null,
  run: null,        // the id of the run whose events are shown
  start: 0,
  clock: { total: 0, since: null }, // elapsed search time, counted only while playing
  finished: null,
};
const renderer = new Renderer(els.canvas, els.frame);
const server = connect({ connection, started, events, finished, error: say });

function speed() {
  return SPEEDS[Number(els.speed.value)];
}

function board() {
  return { rows: Number(els.rows.value), cols: Number(els.cols.value) };
}

function squareName(square) {
  const { cols } = page.model;
  return `square ${square} (row ${Math.floor(square / cols) + 1}, column ${(square % cols) + 1})`;
}

function say(message) {
  els.status.textContent = message;
}

function go(action) {
  const before = page.state;
  page.state = next(before, action);
  const running = page.state === "playing";
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
    els.visits.textContent = m.visits.toLocaleString("en");
    els.backtracks.textContent = m.backtracks.toLocaleString("en");
    els.depth.textContent = `${m.path.length} / ${m.squares}`;
    const { total, since } = page.clock;
    const seconds = (total + (since === null ? 0 : performance.now() - since)) / 1000;
    els.elapsed.textContent = `${seconds.toFixed(seconds < 10 ? 2 : 1)} s`;
    if (page.state === "playing") showCounters(); // keep the clock ticking
  });
}

function showIdle() {
  const { rows, cols } = board();
  page.start = page.start < rows * cols ? page.start : 0;
  page.model = createModel(rows, cols, page.start);
  page.run = null;
  page.finished = null;
  page.clock = { total: 0, since: null };
  els.frame.style.setProperty("--aspect", `${cols} / ${rows}`);
  renderer.show(page.model);
  els.startOut.textContent = squareName(page.start);
  go("reset");
  say(`Ready: click a square to choose where the knight starts, then press Play.`);
}

async function startRun(paused) {
  const { rows, cols } = board();
  const answer = await server.request("start", {
    rows, cols, start: page.start, order: els.order.value, speed: speed(), paused,
  });
  return answer.ok;
}

// Server events.

function connection(up) {
  page.connected = up;
  if (!up) {
    if (page.state === "playing" || page.state === "paused") go("reset");
    say("Connection to the server lost; reconnecting…");
  } else if (page.state === "idle") {
    say(`Ready: click a square to choose where the knight starts, then press Play.`);
  }
  showControls();
}

function started(info) {
  page.run = info.run;
  page.model = createModel(info.rows, info.cols, info.start);
  page.finished = null;
  page.clock = { total: 0, since: null };
  renderer.show(page.model);
  go(info.paused ? "step" : "play");
  say(info.paused ? "Paused: press Step to see the next move." : "Searching…");
}

function events(batch) {
  if (batch.run !== page.run) return; // left over from a run that was replaced
  const m = page.model;
  for (const code of batch.events) apply(m, code);
  renderer.invalidate();
  showCounters();
}

function finished(result) {
  if (result.run !== page.run) return;
  page.finished = result;
  go("finish");
  document.body.dataset.result = result.found ? "found" : "none";
  const m = page.model;
  if (result.found) {
    say(`Tour found: the knight visited all ${m.squares} squares, ` +
        `after ${result.visits.toLocaleString("en")} visits and ` +
        `${result.backtracks.toLocaleString("en")} backtracks.`);
  } else {
    say(`No tour exists from ${squareName(m.start)}: the search tried every path ` +
        `(${result.visits.toLocaleString("en")} visits).`);
  }
}

// User actions.

async function playOrPause() {
  if (!page.connected) return;
  if (page.state === "idle" || page.state === "finished") {
    await startRun(false);
  } else if (page.state === "playing") {
    if ((await server.request("pause")).ok) { go("pause"); say("Paused."); }
  } else if ((await server.request("resume")).ok) {
    go("play");
    say("Searching…");
  }
}

async function step() {
  if (!page.connected) return;
  if (page.state === "idle" || page.state === "finished") {
    if (!(await startRun(true))) return;
  }
  if ((await server.request("step")).ok && page.state !== "finished") {
    go("step");
    say("Paused: press Step to see the next move.");
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
  els.speedOut.textContent = s ? `${s.toLocaleString("en")} moves/s` : "Fastest";
  renderer.setSpeed(s);
  if (page.state === "playing" || page.state === "paused") server.request("speed", { speed: s });
}

function chooseStart(event) {
  const square = renderer.squareAt(event.clientX, event.clientY);
  if (square < 0) return;
  page.start = square;
  reset();
}

els.play.addEventListener("click", playOrPause);
els.step.addEventListener("click", step);
els.reset.addEventListener("click", reset);
els.rows.addEventListener("change", () => changeBoard(els.rows));
els.cols.addEventListener("change", () => changeBoard(els.cols));
els.order.addEventListener("change", reset);
els.speed.addEventListener("input", changeSpeed);
els.canvas.addEventListener("click", chooseStart);
document.addEventListener("keydown", (event) => {
  // Keys typed into a field belong to it, and Space on a button presses that button.
  if (event.target.closest("input, select, textarea") || event.altKey || event.ctrlKey || event.metaKey) return;
  if (event.key === " " && !event.target.closest("button")) { event.preventDefault(); playOrPause(); }
  else if (event.key === "ArrowRight") { event.preventDefault(); step(); }
});

changeSpeed();
showIdle();

// Read-only handle for the browser console and the browser tests.
window.knightsTour = Object.freeze({ get model() { return page.model; }, get state() { return page.state; } });
