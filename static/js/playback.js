// The page's runs: the user's actions on them (play, pause, step, step back, scrub, skip,
// reset, change a setting) and the news of their connections, each turned into store updates.
import { endLines, linesRun } from "./code.js";
import { controls, next, underWay } from "./controls.js";
import { createModel } from "./model.js";
import { raceOrder, squares } from "./settings.js";

// lost: the server no longer has the run shown (its connection dropped): Play, Step or Skip
// start it again where the page is.
export const IDLE_RUN = { status: "idle", replaying: false, since: null, total: 0, line: null, wantLine: false,
  note: null, progress: null, lost: false };

/** Return the page's run actions on store and runs ({main, second, active()}); codeLab: the
 * code lab, whose runs the main lane plays while it is open. */
export function createPlayback(store, runs, codeLab) {
  const state = () => store.state;
  const allowed = (name) => controls(state(), runs)[name].enabled;
  const racing = () => state().settings.mode === "race";
  // Whether a request reaches the runs: the server's over the connection, the code lab's always.
  const reachable = () => state().connection === "up" || codeLab.active();

  /** Move the run status by an action, keeping the search clock and clearing the last note. */
  function go(action, extra = {}) {
    const run = state().run;
    const status = next(run.status, action);
    const running = status === "playing" || status === "skipping";
    const now = performance.now();
    let { since, total } = run;
    if (running && since === null) since = now;
    if (!running && since !== null) { total += now - since; since = null; }
    store.update({ run: { status, since, total, note: null, line: null, ...extra } });
  }

  function note(id, params = {}) {
    store.update({ run: { note: { id, params } } });
  }

  /** Return the settings of a run as the server's 'start' takes them, for one lane. */
  function payload(lane, paused) {
    const s = state().settings;
    const common = { start: s.start, speed: s.speed, paused, closed: s.closed, all_tours: s.allTours,
      seed: s.seed, budget: s.budget };
    if (s.mode === "example") return { ...common, graph: "example", order: "naive", closed: false };
    if (codeLab.active() && lane === runs.main) return codeLab.payload({ ...common, rows: s.rows, cols: s.cols });
    const order = s.mode === "race" ? raceOrder(s, lane === runs.main) : s.order;
    return { ...common, rows: s.rows, cols: s.cols, order };
  }

  async function startAll(paused) {
    store.update({ undo: null });
    const begun = await Promise.all(runs.active().map((lane) => lane.start(payload(lane, paused))));
    return begun.every(Boolean);
  }

  /** Return the lanes whose run the server still has: a lane that has finished has none. */
  const live = () => runs.active().filter((lane) => !lane.result);

  /** Start the lost runs again where each lane is: the server searches up to there unsent. */
  async function resumeAll(paused) {
    const begun = await Promise.all(live().map((lane) => lane.start({ ...payload(lane, paused),
      resume_at: lane.timeline.head })));
    return begun.every(Boolean);
  }

  /** Make sure the server has the page's runs: start them if none is under way, or again if lost. */
  function begin(paused) {
    if (ready()) return startAll(paused);
    if (state().run.lost) return resumeAll(paused);
    return Promise.resolve(true);
  }

  /** Send a control to every run still under way (a race's side that has finished has ended). */
  async function sendAll(event, body) {
    const answers = await Promise.all(live().map((lane) => lane.send(event, body)));
    return answers.every(Boolean);
  }

  const ready = () => ["idle", "finished"].includes(state().run.status);

  async function playOrPause() {
    if (!allowed("play")) return;
    const run = state().run;
    if (run.replaying) { stopReplay(); return; }
    if (!racing() && !runs.main.atHead()) { replay(); return; }
    if (ready() || run.lost) await begin(false);
    else if (run.status === "playing") { if (await sendAll("pause")) go("pause"); }
    else if (run.status === "paused" && (await sendAll("resume"))) go("play");
  }

  const following = () => state().klass.role === "student";

  /** Note that a student moves their own copy of the class's run: the instructor's moves wait. */
  function review() {
    if (following() && !state().klass.reviewing) store.update({ klass: { reviewing: true } });
  }

  async function pauseRun() {
    if (following()) { review(); return; }
    if (state().run.replaying) stopReplay();
    if (state().run.status === "playing" && (await sendAll("pause"))) go("pause");
  }

  /** Begin tracing, line by line, the code that produces event number at of the main run. */
  function traceEvent(at) {
    const main = runs.main;
    const last = at > main.timeline.first ? main.timeline.at(at - 1) : null;
    const code = main.timeline.at(at);
    const trace = linesRun(main.model, main.moves(), main.run, last, code);
    // The event happens at its own line, the trace's last; after a search's very last event,
    // the lines that return from its calls follow.
    const apply = trace.length - 1;
    const ended = at === main.timeline.head - 1 && main.result && !main.result.stopped;
    if (ended) trace.push(...endLines(main.model, code));
    if (apply === 0) main.forward();
    const line = { event: at, index: 0, apply, trace, ended: Boolean(ended) };
    store.update({ run: { line: trace.length > 1 ? line : null, wantLine: false, note: null } });
  }

  async function step() {
    if (!allowed("step")) return;
    const main = runs.main;
    const { run, view } = state();
    if (run.line && run.line.index < run.line.trace.length - 1) {
      // The last line of a trace is the one that makes its event: the board moves there.
      const index = run.line.index + 1;
      if (index === run.line.apply) main.forward();
      store.update({ run: { line: { ...run.line, index } } });
      return;
    }
    // A question (predict mode) stands between two events: the lines of one would cross it.
    const byLine = view.lines && !racing() && !state().predict.on;
    if (following()) {
      review();
      if (main.forward()) store.update({ run: { line: null, note: whereShown() } });
      return;
    }
    if (!racing() && !main.atHead()) {
      await pauseRun();
      // Line by line needs the event before too: not across a skip's jump.
      if (byLine && main.model.events >= main.timeline.first) traceEvent(main.model.events);
      else if (main.advance()) store.update({ run: { line: null, note: whereShown() } });
      else main.hooks.changed(); // held by a question: it is asked now
      return;
    }
    if (!(await begin(true))) return;
    if (byLine) store.update({ run: { wantLine: true } });
    // The event may arrive before the answer: keep the trace it began.
    if (await sendAll("step")) go("step", { line: state().run.line, wantLine: state().run.wantLine });
  }

  async function stepBack() {
    if (!allowed("back")) return;
    await pauseRun();
    const line = state().run.line;
    if (line && line.index > 0) {
      if (line.index === line.apply) runs.main.back();
      store.update({ run: { line: { ...line, index: line.index - 1 } } });
      return;
    }
    if (runs.main.back()) store.update({ run: { line: null, note: { id: "status.steppedBack", params: { at: runs.main.model.events } } } });
  }

  /** Return the note of the event the view shows, behind the last received (null at it). */
  function whereShown() {
    const main = runs.main;
    return main.atHead() ? null : { id: "status.atEvent", params: { at: main.model.events, head: main.timeline.head } };
  }

  async function seek(target) {
    if (!allowed("timeline")) return;
    await pauseRun();
    runs.main.seek(target);
    // What the status said of the view's last position (a step back, say) is no longer so.
    store.update({ run: { line: null, note: whereShown() } });
  }

  /** Play back the events already received, at the chosen speed, then go on live. */
  function replay() {
    if (state().run.status === "playing") sendAll("pause");
    store.update({ run: { replaying: true, line: null, note: null } });
    let last = performance.now(), credit = 0;
    const tick = (now) => {
      if (!state().run.replaying) return;
      const speed = state().settings.speed;
      credit += speed ? ((now - last) / 1000) * speed : Infinity;
      last = now;
      while (credit >= 1 && runs.main.advance()) credit -= 1;
      store.touch();
      if (runs.main.held()) { stopReplay(); runs.main.hooks.changed(); return; }
      if (!runs.main.atHead()) { requestAnimationFrame(tick); return; }
      stopReplay();
      if (state().run.status === "paused") playOrPause(); // caught up: the live search goes on
    };
    requestAnimationFrame(tick);
  }

  function stopReplay() {
    store.update({ run: { replaying: false } });
  }

  async function skip() {
    if (!allowed("skip")) return;
    if (state().run.status === "skipping") {
      await sendAll("pause"); // the server answers with a last progress report
      return;
    }
    if (state().run.replaying) stopReplay();
    if (!(await begin(true))) return;
    if ((await sendAll("skip")) && state().run.status !== "finished") go("skip", { progress: null });
  }

  /** Show the empty board of the current settings, with no run. */
  function showIdle() {
    const s = state().settings;
    const graph = s.mode === "example" ? state().example : null;
    const model = graph ? createModel(1, graph.names.length, s.start) : createModel(s.rows, s.cols, s.start);
    for (const lane of [runs.main, runs.second]) lane.showEmpty(model, graph);
    store.update({ run: IDLE_RUN, marks: following() ? state().marks : [] });
  }

  function reset() {
    if (!allowed("reset")) return;
    if (state().run.status !== "idle" && reachable()) sendAll("stop");
    store.update({ pending: null, undo: null });
    showIdle();
  }

  /**
   * Change settings (a patch of them). A change would throw a run's work away: while a run is
   * under way it waits for confirmation; a finished run can be brought back with undo().
   */
  function change(patch) {
    if (!allowed("setup")) return;
    const { settings, run, pending } = state();
    // A change waiting for confirmation holds every field changed so far: each adds to it.
    const base = pending?.settings ?? settings;
    // A square of the board is no vertex of the example graph, nor the other way: the example
    // starts at A, as the book's walkthrough does, and a board at its first square, unless chosen.
    const crossed = "mode" in patch && !("start" in patch) && (patch.mode === "example") !== (base.mode === "example");
    const wanted = normalise({ ...base, ...patch, ...(crossed && { start: 0 }) });
    if (underWay(run.status)) { store.update({ pending: { settings: wanted } }); return; }
    const undo = run.status === "finished"
      ? { settings, lanes: [runs.main.stash(), runs.second.stash()] } : null;
    store.update({ settings: wanted, pending: null, undo });
    showIdle();
  }

  /** Take the change waiting for confirmation, ending the run under way. */
  function confirm() {
    const pending = state().pending;
    if (!pending) return;
    if (reachable()) sendAll("stop");
    store.update({ settings: pending.settings, pending: null, undo: null });
    showIdle();
  }

  /** Drop the change waiting for confirmation: the run goes on as it was. */
  function cancel() {
    store.update({ pending: null });
  }

  /** Bring back the finished run the last change replaced. */
  function undo() {
    const saved = state().undo;
    if (!saved || state().run.status !== "idle") return;
    runs.main.restore(saved.lanes[0]);
    runs.second.restore(saved.lanes[1]);
    store.update({ settings: saved.settings, undo: null, run: { ...IDLE_RUN, status: "finished" } });
  }

  function normalise(s) {
    const count = squares(s, state().example);
    return { ...s, start: s.mode === "example" ? Math.min(s.start, count - 1) : s.start < count ? s.start : 0 };
  }

  function setSpeed(speed) {
    if (!allowed("speed")) return;
    // The speed applies at once; a change waiting for confirmation keeps it too.
    const pending = state().pending;
    store.update({ settings: { speed }, ...(pending && { pending: { settings: { ...pending.settings, speed } } }) });
    if (["playing", "paused"].includes(state().run.status)) sendAll("speed", { speed });
  }

  // The runs' news.

  /** Note a lane's connection going up or down; return true when the page has just come up. */
  function connection() {
    const up = runs.active().every((lane) => lane.server.connected());
    const was = state().connection;
    // The server ends a page's runs when its connection drops (a class's waits for its
    // instructor, who takes it back on reconnecting); the page keeps what it received.
    if (!up && underWay(state().run.status) && state().klass.role !== "student") {
      if (state().run.replaying) stopReplay();
      go("pause", { lost: true });
    }
    store.update({ connection: up ? "up" : was === "connecting" ? "connecting" : "down" });
    return up && was !== "up";
  }

  /** Take the class run the server kept for its instructor's page (null: it has none). */
  function reattached(news) {
    if (!news.run) return;
    runs.main.take(news);
    const status = news.state === "away" ? "paused" : news.state;
    const running = status === "playing" || status === "skipping";
    store.update({ run: { status, lost: false, note: null, since: running ? performance.now() : null } });
  }

  function started(lane) {
    store.touch();
    if (lane !== runs.main) return;
    go(lane.run.paused ? "step" : "play", { progress: null, line: state().run.line, wantLine: state().run.wantLine,
      lost: false });
  }

  function changed(lane) {
    const run = state().run;
    if (lane === runs.main && run.wantLine && lane.atHead() && lane.model.events > 0) {
      // Line by line: the event just arrived is shown by its lines first, the board one event behind.
      lane.back();
      traceEvent(lane.model.events);
    }
    store.touch();
  }

  function progressed(lane, snapshot) {
    // The page's status follows the main run, or a race's other side once the main has finished.
    if (lane !== (live()[0] ?? runs.main)) { store.touch(); return; }
    if (snapshot.skipping) store.update({ run: { progress: snapshot } });
    else go("pause", { note: { id: "status.skipCancelled", params: { events: snapshot.events } } });
  }

  function finished() {
    if (!runs.active().every((each) => each.result)) { store.touch(); return; }
    // A trace begun on the last event before the result came keeps going, through the returns.
    const main = runs.main, line = state().run.line;
    const last = line && !line.ended && line.event === main.timeline.head - 1 && !main.result.stopped;
    go("finish", { line: last
      ? { ...line, ended: true, trace: [...line.trace, ...endLines(main.model, main.timeline.at(line.event))] }
      : line });
  }

  // One action at a time, in the order pressed: a second Step pressed before the first's answer
  // must not start a second run, nor overtake it.
  let queue = Promise.resolve();
  const serial = (action) => (...args) => (queue = queue.then(() => action(...args)).catch(console.error));

  return {
    playOrPause: serial(playOrPause), pause: serial(pauseRun), step: serial(step), stepBack: serial(stepBack), skip: serial(skip),
    seek, reset, change, confirm, cancel, undo, setSpeed, showIdle,
    note, go, sendAll, connection, reattached, started, changed, progressed, finished,
    seekFirst: () => seek(runs.main.earliest()),
    seekLast: () => seek(runs.main.timeline.head),
  };
}
