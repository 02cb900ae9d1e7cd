// The page's run states as a table (what each action leads to), and the one function that
// derives every control's label, enabled and hidden state from the page's state: the buttons,
// the forms and the keyboard shortcuts all read it, so they cannot drift apart.

import { labPlays } from "./codelab/where.js";
import { clipSpan } from "./timeline.js";

const TRANSITIONS = {
  idle: { play: "playing", step: "paused", skip: "skipping" },
  playing: { pause: "paused", step: "paused", skip: "skipping", finish: "finished", reset: "idle" },
  paused: { play: "playing", step: "paused", skip: "skipping", finish: "finished", reset: "idle" },
  skipping: { pause: "paused", finish: "finished", reset: "idle" },
  finished: { play: "playing", step: "paused", skip: "skipping", reset: "idle" },
};

/** Return the run status an action leads to (the same status if the action does not apply). */
export function next(status, action) {
  return TRANSITIONS[status][action] ?? status;
}

/** Tell whether a run is under way: a change of settings would throw its work away. */
export function underWay(status) {
  return status === "playing" || status === "paused" || status === "skipping";
}

/** Tell whether predict mode can run on the page as it is (its own board, not a race or graph). */
export function predictable(state) {
  return state.settings.mode === "board" && state.klass.role !== "student";
}

/** Return the id of the words that tell the instructor why the class cannot be asked now, or null
 * (it can, or the page is connecting: the offline badge says so). */
function whyNoQuestion(state, main) {
  if (state.poll.open) return "refusal.question.open";
  if (state.settings.mode === "example") return "refusal.question.not_a_board";
  if (main.run === null) return "poll.askNoRun";
  if (main.result) return "refusal.question.search_ended";
  return state.run.status === "skipping" ? "poll.askSkipping" : null;
}

/** Return each control's {label, enabled, pressed} from the page's state and its runs (ask: also
 * why, when it is disabled). */
export function controls(state, runs) {
  const { run, klass, settings } = state;
  const main = runs.main;
  const following = klass.role === "student";
  const leading = klass.role === "instructor";
  // While the class answers a question, its run waits where the question was asked.
  const polling = state.poll.open !== null;
  // The page's own run, or its class's between questions, is this page's to set up and drive.
  const settable = !following && !(leading && polling);
  // The code lab's runs are the browser's own: they need no connection.
  const drive = (state.connection === "up" || labPlays(state)) && settable;
  const skipping = run.status === "skipping";
  const racing = settings.mode === "race";
  // Stepping back and scrubbing work on one board's own events, not while skipping; a student
  // moves their own copy of the class's run.
  const reviewable = !racing && !skipping;
  const midLine = run.line !== null && run.line.index < run.line.trace.length - 1;
  const atEnd = run.status === "finished" && main.atHead() && !midLine;
  const playing = run.replaying || run.status === "playing";
  return {
    play: {
      label: playing ? "control.pause" : atEnd ? "control.again" : "control.play",
      enabled: drive && !skipping,
      pressed: playing,
    },
    step: { enabled: following ? reviewable && !main.atHead() : drive && !skipping && !atEnd },
    back: { enabled: reviewable && (main.model.events > main.earliest() || (run.line?.index ?? 0) > 0) },
    skip: { label: skipping ? "control.cancelSkip" : "control.skip", enabled: drive && run.status !== "finished" },
    reset: { enabled: settable && run.status !== "idle" },
    timeline: { enabled: reviewable && main.timeline.head > 0 },
    speed: { enabled: !following },
    setup: { enabled: settable },
    // An embed with fewer than all its controls has no settings: a tap on its board plays it.
    // A change waiting for confirmation decides: a square of the board is no vertex of the graph.
    chooseStart: { enabled: settable && (state.pending?.settings ?? settings).mode !== "example"
      && !state.predict.asking && (state.embedded?.controls ?? "full") === "full" },
    help: { enabled: true },
    // The picture is of the knight's board: the example graph is drawn by another view.
    png: { enabled: settings.mode !== "example" },
    live: { enabled: following && klass.reviewing },
    mark: { enabled: leading && main.timeline.head > 0 && state.marks.length < state.limits.maxMarks },
    predict: { enabled: predictable(state) },
    // Students answer with a square: not on the example graph, whose vertices are no squares.
    ask: { enabled: leading && klass.led && state.connection === "up" && !polling && main.run !== null && !main.result
      && !skipping && settings.mode !== "example", why: leading ? whyNoQuestion(state, main) : null },
    reveal: { enabled: leading && klass.led && polling },
    // The question revealed last, asked again on the board turned: the server says which can be.
    transfer: { enabled: leading && klass.led && state.connection === "up" && !polling
      && Boolean(state.poll.history.at(-1)?.turnable) },
    // A two-round question goes from the first round to the discussion, then to the second round.
    discuss: { enabled: leading && klass.led && polling && state.poll.open.peer && state.poll.open.stage === "first" },
    second: { enabled: leading && klass.led && polling && state.poll.open.stage === "discuss" },
    results: { enabled: state.poll.history.length > 0 },
    // A clip of the main board (in a race, the first): of events it holds after the chosen point,
    // one at a time; the example graph is drawn by another view.
    clip: { enabled: !state.clip.busy && settings.mode !== "example"
      && clipSpan(main.timeline, main.model.events, state.clip.from).held > 0 },
    // A tap on the board answers the class's question, or the page's own, or chooses the start.
    answer: { enabled: following ? polling && state.poll.mine === null && state.poll.open.stage !== "discuss"
      : Boolean(state.predict.asking) },
  };
}
