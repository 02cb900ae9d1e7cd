// Predict mode: the view stops before the events the user chose to be asked about, the user says
// where the knight goes next, and the engine's real next event (already received, held back
// by the lane's gate) is judged against the answer before it plays.
import { predictable } from "../controls.js";
import { foresee } from "./foresight.js";
import { knightSquare } from "../model.js";
import { recall, remember as keep } from "../storage.js";

export const MAX_EVERY = 100; // "every N moves" asks at most this rarely
export const NO_SCORE = { asked: 0, right: 0, streak: 0, best: 0 };
// asking: the open question {at, run, from, foresight}; feedback: the last answer judged;
// resume: the run was playing when the question stopped it; note: why a typed answer was not taken.
export const PREDICT = { on: false, every: "move", n: 5, asking: null, feedback: null, resume: false, score: NO_SCORE,
  note: null };

const KEPT = "knights-tour-predict"; // this tab's choice {on, every, n}: a reload keeps asking
const EVERY = ["move", "n", "backtracks"];

/** Return predict mode's starting state: PREDICT, with this tab's choice of how to be asked. */
export function keptPredict() {
  let kept = null;
  try { kept = JSON.parse(recall(KEPT, "session") ?? "null"); } catch { /* none */ }
  const { on, every, n } = kept ?? {};
  return { ...PREDICT, on: on === true, every: EVERY.includes(every) ? every : PREDICT.every,
    n: Number.isInteger(n) && n >= 2 && n <= MAX_EVERY ? n : PREDICT.n };
}

/** Return the predict actions on store, runs and the playback; it sets the main lane's gate. */
export function createPredictor(store, runs, playback) {
  const state = () => store.state;
  const lane = () => runs.main;
  const active = () => state().predict.on && predictable(state()) && lane().run !== null;
  // What this run's questions were: the positions answered, and where the last was asked.
  let timeline = null;
  const answered = new Set();
  let lastAsked = 0;

  function remember() {
    if (lane().timeline === timeline) return;
    timeline = lane().timeline;
    answered.clear();
    lastAsked = 0;
  }

  /** Return what the search does after the view's position, and why. */
  function ahead() {
    const l = lane();
    return foresee(l.model, l.moves(), l.run, l.lastShown());
  }

  /** Tell whether the user is to be asked about the event after the view's position. */
  function asks(model) {
    remember();
    const at = model.events;
    if (at === 0 || answered.has(at)) return false;
    const { every, n, asking } = state().predict;
    if (asking?.at === at) return true;
    if (every === "n" && at !== lastAsked && at - lastAsked < n) return false;
    const next = ahead();
    if ((next.kind !== "visit" && next.kind !== "back") || next.square < 0) return false; // no choice
    if (every === "backtracks") {
      const last = lane().lastShown();
      return next.kind === "back" || (typeof last === "number" && last < 0);
    }
    return true;
  }

  lane().gate = (model) => !active() || !asks(model);

  /** Open the question the view is held at, or drop one the view has moved away from. */
  function check() {
    const { asking } = state().predict;
    if (asking && (!active() || lane().model.events !== asking.at)) {
      store.update({ predict: { asking: null } });
      return;
    }
    if (asking || !active() || !lane().held()) return;
    const at = lane().model.events;
    lastAsked = at;
    // Playing, the view may be held while the run finishes: it plays on once answered.
    const resume = ["playing", "finished"].includes(state().run.status) || state().run.replaying;
    const question = { at, run: lane().run.run, from: knightSquare(lane().model), foresight: ahead() };
    store.update({ predict: { asking: question, resume } });
    if (resume) playback.pause();
  }

  /** Judge the user's square against the real next event, show it, and go on as before. */
  function answer(square) {
    const { asking, score, resume } = state().predict;
    if (!asking || !Number.isInteger(square) || square < 0 || square >= lane().model.squares) return;
    answered.add(asking.at);
    lane().advance();
    const real = knightSquare(lane().model);
    const code = lane().codeAt(asking.at);
    const right = square === real;
    const streak = right ? score.streak + 1 : 0;
    store.update({ predict: {
      asking: null, resume: false, note: null,
      feedback: { ...asking, chose: square, real, right, kind: code === "found" || code >= 0 ? "visit" : "back" },
      score: { asked: score.asked + 1, right: score.right + right, streak, best: Math.max(score.best, streak) },
    } });
    if (resume) playback.playOrPause(); // what was received plays back, then the search goes on
  }

  /** Turn predict mode on or off, or change how often it asks: a patch of {on, every, n}. */
  function configure(patch) {
    const n = patch.n === undefined ? {} : { n: Math.max(2, Math.min(MAX_EVERY, Math.round(patch.n) || 2)) };
    const fresh = patch.on === undefined ? {} : { feedback: null, score: NO_SCORE };
    store.update({ predict: { ...patch, ...n, ...fresh, asking: null } });
    const { on, every, n: often } = state().predict;
    keep(KEPT, JSON.stringify({ on, every, n: often }), "session");
    check(); // the view may be held where the new choice asks, or no longer
  }

  return { check, answer, configure };
}
