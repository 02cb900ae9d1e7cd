// The status line (what is happening and what to do next), the question a change waiting for
// confirmation asks, the undo offer, and what a screen reader hears of the moves.
import { controls } from "../controls.js";
import { whyNoTour } from "../feasibility.js";
import { squareName } from "../notation.js";
import { t } from "../words/i18n.js";
import { nameOf, raceName } from "../lane-facts.js";
import { fewestOnwardFirst } from "../orderings/orderings.js";

const CLASS_STATES = {
  playing: "status.classPlaying", paused: "status.classPaused", skipping: "status.classSkipping",
  away: "status.classAway", idle: "status.classWaiting", finished: null, stalled: "status.classStalled",
};

/** Say what a finished run found, in a sentence. */
function describe(lane) {
  const { result, run } = lane;
  const p = { visits: result.visits, backtracks: result.backtracks, events: result.events, tours: result.tours,
    where: nameOf(lane, run.start), squares: lane.model.squares };
  const closed = run.closed ? "Closed" : "";
  if (result.stopped) return t(result.tours ? "outcome.stoppedTours" : "outcome.stopped", { ...p, n: result.tours });
  if (run.all_tours && result.tours) return t(`outcome.all${closed}`, { ...p, n: result.tours });
  if (lane.graph && result.found) {
    return t("outcome.graph", { ...p, n: result.backtracks, names: result.path.map((v) => lane.graph.names[v]).join(t("list.comma")) });
  }
  // One square is a tour on its own: no "all 1 squares, after 1 visits".
  if (result.found && lane.model.squares === 1) return t("outcome.foundOne", p);
  if (result.found) return t(`outcome.found${closed}`, { ...p, n: result.backtracks });
  return t(`outcome.none${closed}`, p);
}

/** Return the status line's text. */
function statusText(state, runs) {
  const { run, settings, klass } = state;
  // A server with no room for the page said why, which outranks "Connecting…".
  if (state.connection !== "up" && run.note?.id === "refusal.server.full") return t(run.note.id, run.note.params);
  if (state.connection === "connecting") return t("status.connecting");
  if (state.server?.stopping) return t("status.serverStopping");
  if (state.connection === "down") return t("status.lost");
  if (klass.role === "student") {
    if (klass.waiting) return t("status.classWaitingBack", { code: klass.code });
    if (klass.reviewing) return t("status.classReviewing", { at: runs.main.model.events });
    if (!runs.main.run) return t("status.classWaiting", { code: klass.code });
    if (state.poll.open) return t("status.pollStudent");
    const id = CLASS_STATES[klass.control];
    if (id && run.status !== "finished") return t(id, { code: klass.code });
  }
  if (run.note) return t(run.note.id, run.note.params);
  if (state.poll.open) return t("status.pollLeader");
  if (state.predict.asking) return t("status.predict");
  const main = runs.main;
  if (run.lost) return t("status.resumable", { at: main.timeline.head });
  switch (run.status) {
    case "idle": {
      const why = settings.mode === "example" ? null
        : whyNoTour(settings.rows, settings.cols, settings.start, settings.closed);
      if (why) return t("status.noTour", { why: t(why.text, why) });
      // The start is chosen already: a click on the board moves it, where the page takes one.
      return controls(state, runs).chooseStart.enabled
        ? t("status.ready", { square: squareName(settings.start, settings.rows, settings.cols) })
        : t("status.readyPlay");
    }
    case "playing": {
      if (run.replaying) return t("status.replaying");
      if (settings.mode === "race") {
        const done = runs.active().find((lane) => lane.result);
        if (done) return t("status.raceOneDone", { name: raceName(done, state, runs), outcome: describe(done),
          other: raceName(runs.active().find((lane) => !lane.result), state, runs) });
      }
      return t(settings.closed && fewestOnwardFirst(settings.order) && settings.mode === "board"
        ? "status.searchingClosedWarnsdorff" : "status.searching");
    }
    case "paused":
      if (run.replaying) return t("status.replaying");
      return t(run.line ? "status.pausedLine" : "status.paused");
    case "skipping": {
      const p = run.progress;
      return p ? t("status.skipProgress", { events: p.events, rate: Math.round(p.rate), depth: p.path.length,
        squares: main.model.squares, seconds: p.elapsed.toFixed(1) }) : t("status.skipping");
    }
    case "finished":
      if (!main.result) return t("status.paused");
      if (settings.mode !== "race") return describe(main);
      // A side whose end this page did not see (it reloaded, it joined after) has nothing to say.
      return runs.active().filter((lane) => lane.result)
        .map((lane) => t("outcome.named", { name: raceName(lane, state, runs), outcome: describe(lane) })).join(t("list.sentences"));
    default:
      return "";
  }
}

/** Return the status view, which also speaks the latest move, at most about once a second. */
export function createStatusView(els) {
  let spoken = { at: -Infinity, text: "" };
  let later = 0;

  function announce(state, runs) {
    const main = runs.main, code = main.lastShown(), now = performance.now();
    if (code === null) {
      spoken = { at: -Infinity, text: "" };
      return;
    }
    // At most about once a second; a move held back is spoken when the second is up.
    if (now - spoken.at < 1000) {
      clearTimeout(later);
      later = setTimeout(() => announce(state, runs), 1000 - (now - spoken.at));
      return;
    }
    const text = code === "found" ? t("announce.found")
      : code >= 0 ? t("announce.visit", { square: nameOf(main, code) })
      : t("announce.back", { square: nameOf(main, -code - 1) });
    if (text === spoken.text) return;
    spoken = { at: now, text };
    els.announcer.textContent = text;
  }

  function render(state, runs) {
    const text = statusText(state, runs);
    if (els.status.textContent !== text) els.status.textContent = text;
    const main = runs.main;
    document.body.dataset.result = state.run.status !== "finished" || !main.result ? ""
      : main.result.stopped ? "stopped" : main.result.found ? "found" : "none";
    els.pending.hidden = !state.pending;
    if (state.pending) {
      els.pendingText.textContent = t("pending.text");
    }
    els.undoBar.hidden = !state.undo || state.run.status !== "idle";
    announce(state, runs);
  }

  return { render };
}
