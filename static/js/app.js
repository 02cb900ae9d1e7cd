// Boot the page: one store, the runs, the actions on them, the views that render the store, and
// the listeners that turn the user's input into actions.
import { earnBadge } from "./badge.js";
import { createClassroom } from "./class/classroom.js";
import { presenterDrawer } from "./class/drawer.js";
import { publishView } from "./class/mirror.js";
import { createClassView } from "./class/panel-view.js";
import { createPollView } from "./class/poll-view.js";
import { NO_POLL, createPolls } from "./class/polls.js";
import { placeQuestion } from "./class/question-place.js";
import { createClips, initialClip } from "./clips/actions.js";
import { createClipView } from "./clips/clip-view.js";
import { NO_LAB, createLab } from "./codelab/lab.js";
import { NO_EXERCISE, createExercise } from "./class/exercise.js";
import { createExerciseView } from "./class/exercise-view.js";
import { bindLabInputs } from "./codelab/lab-inputs.js";
import { createLabView } from "./codelab/lab-view.js";
import { connectAfter, unanswered } from "./connection.js";
import { controls } from "./controls.js";
import { createEmbedView } from "./embed/embed-view.js";
import { SNIPPET, embedIgnored, playOnItsOwn } from "./embed/embed.js";
import { whyNoTour } from "./feasibility.js";
import { bindInputs } from "./inputs/inputs.js";
import { listenForShortcuts } from "./inputs/keyboard.js";
import { createComposerView } from "./lab/composer-view.js";
import { createComposer, initialComposer } from "./lab/composer.js";
import { createStripView } from "./lab/strip-view.js";
import { NO_STRIP, createStrip } from "./lab/strip.js";
import { createTournamentView } from "./lab/tournament-view.js";
import { NO_TOURNAMENT, createTournament } from "./lab/tournament.js";
import { lessonLane } from "./lane-facts.js";
import { Lane } from "./lane.js";
import { linkedLibrary, loadLibrary } from "./orderings/library.js";
import { IDLE_RUN, createPlayback } from "./playback.js";
import { createPredictView } from "./predict/predict-view.js";
import { createPredictor, keptPredict } from "./predict/predict.js";
import { defaultSettings, fromLink, readLimits, toLink } from "./settings.js";
import { Store } from "./store.js";
import { createBoardsView } from "./views/boards.js";
import { createControlsView } from "./views/controls.js";
import { createCountersView } from "./views/counters.js";
import { createLessonView } from "./views/lesson.js";
import { createOfflineView } from "./views/offline.js";
import { createStatusView } from "./views/status.js";
import { preferredLanguage, setLanguage, t } from "./words/i18n.js";

const els = new Proxy({}, {
  // els.boardBox is the element with id "board-box".
  get: (cache, name) => (cache[name] ??= document.getElementById(name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`))),
});
const limits = readLimits(document);
connectAfter(earnBadge(limits.badgeProof));
const link = fromLink(location.search, defaultSettings(limits), limits);
const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");
// On /embed, its options (controls, panels, autoplay, loop, language); null on the page itself.
const embedded = limits.embed;

// At the fastest speed the page renders at most 20 frames a second: each frame shows a board
// thousands of events on, and painting it takes the time the events need. The gap counts from
// the last render, so the first moves after Play are drawn at once.
const FASTEST_FRAME_MS = 50;
const frameGap = ({ run, settings }) => (run.status === "playing" && settings.speed === 0 ? FASTEST_FRAME_MS : 0);

const store = new Store({
  limits, // the server's, as it served the page: never changed
  example: limits.example,
  settings: link.settings,
  pending: null, // a change of settings that would end the run under way, awaiting confirmation
  undo: null,    // the finished run the last change cleared, to bring back
  run: IDLE_RUN,
  connection: "connecting",
  // ticket: a student's pass to wait for its class; waiting: the class is not open (yet) again;
  // reviewing: the student moves their own copy; view: the instructor's last view; led: the
  // server has taken this page's claim since its connection last came up.
  // voter: a student's pass, kept across rejoins, to answer each of the class's questions once.
  // students: how many students follow the class the page leads (null: not known yet).
  klass: { role: "none", code: null, presenter: false, note: null, control: null, ticket: null, waiting: false,
    reviewing: false, view: null, led: false, voter: null, students: null },
  // treeNode: the search tree's node pointed at or chosen by the keys, {run, node}, or null;
  // treeSpan: the stretch of its nodes zoomed to, {run, from, to}, or null for all of them.
  view: { hints: true, degrees: false, lesson: embedded ? embedded.panels.length > 0 : true, lines: false, side: "main",
    treeNode: null, treeSpan: null,
    language: embedded?.language ?? preferredLanguage(new URLSearchParams(location.search).get("lang")) },
  notes: { board: null, share: null, embed: null },
  embedded,
  snippet: SNIPPET, // the choices for the embed code the page gives: see embed/embed.js
  marks: [], // the instructor's bookmarks of the run shown: [{at, label}]
  predict: keptPredict(), // the page's own questions about the next move: see predict/predict.js
  poll: NO_POLL,    // the class's questions: see class/polls.js
  clip: initialClip(), // the clip of the search chosen, or being made: see clips/actions.js
  orderings: initialComposer(linkedLibrary(loadLibrary(limits), link), link.settings.order, limits.neverTie), // the student's own: see lab/composer.js
  strip: NO_STRIP, // the orderings tried on many boards: see lab/strip.js
  tournament: NO_TOURNAMENT, // the class's tournament of orderings: see lab/tournament.js
  lab: NO_LAB, // the student's own code, run in their browser: see codelab/lab.js
  exercise: NO_EXERCISE, // the class's code exercise: see class/exercise.js
}, frameGap);
let exercise; // made with the main lane's connection, below; the lab tells it each check's result
const codeLab = createLab(store, limits, (result) => exercise.checked(result));

const runs = {
  main: null,
  second: null, // the other ordering, side by side in a race
  active: () => (store.state.settings.mode === "race" ? [runs.main, runs.second] : [runs.main]),
};
let playback, classroom, predictor, polls;
// What a lane tells the page: its connection going up or down, and its own run's news.
const makeLane = (partner, wrap) => {
  const lane = new Lane({
    connection: (up) => {
      if (!up && lane === runs.main) {
        classroom.disconnected();
        strip.lost();
      }
      if (playback.connection()) classroom.reconnected();
      else if (up && lane === runs.second) classroom.claimSecond();
    },
    started: (run) => {
      if (lane === runs.main) classroom.started(run);
      playback.started(lane);
    },
    changed: () => {
      playback.changed(lane);
      if (lane === runs.main) predictor.check();
    },
    progress: (snapshot) => playback.progressed(lane, snapshot),
    finished: () => playback.finished(lane),
    note: (id, params) => playback.note(id, params),
    lost: () => store.state.klass.role === "student" && classroom.rejoin(),
  }, partner, wrap);
  return lane;
};
runs.main = makeLane(() => runs.second, codeLab.connect);
runs.second = makeLane();
playback = createPlayback(store, runs, codeLab);
polls = createPolls(store, runs, () => classroom.backToLive());
const tournament = createTournament(store, runs.main.server);
exercise = createExercise(store, runs.main.server, limits);
classroom = createClassroom(store, runs, playback, limits, polls, tournament, exercise);
predictor = createPredictor(store, runs, playback);
// The class's news and its questions' come on the main connection, straight to their handlers.
const strip = createStrip(store, runs.main.server);
runs.main.server.listen({ ...classroom.news, ...polls.news, ...strip.news, ...tournament.news, ...exercise.news });
publishView(store, runs);
const clips = createClips(store, runs);
const composer = createComposer(store, playback);

const boards = createBoardsView(els, reducedMotion);
const counters = createCountersView(els);
const views = [createControlsView(els, limits), createComposerView(els), createStatusView(els), boards, counters,
  createLessonView(els), createClassView(els), createOfflineView(els), createPredictView(els), createPollView(els),
  createClipView(els), createEmbedView(els, limits.joinBase ?? location.origin), createStripView(els, limits),
  createTournamentView(els, limits), createLabView(els, limits), createExerciseView(els, limits)];
// While the search runs, its clock ticks on the counters four times a second, the page rendering
// only when something changes: a render of the whole page every frame, for the clock's last
// digit, laid out and painted the page and its canvases sixty times a second.
const CLOCK_MS = 250;
let clock = null;
const tick = () => {
  clock = store.state.run.since === null ? null : setTimeout(tick, CLOCK_MS);
  counters.clock(store.state);
};
let shownLink = "";
store.subscribe((state) => {
  for (const view of views) view.render(state, runs);
  // An embed keeps the address its site gave it, so that a reload sets it up as the site chose.
  const address = embedded ? shownLink : toLink(state.settings, state.klass.role === "none" ? null : state.klass,
    state.orderings.library, state.lab.open ? state.lab.exercise : null);
  if (address !== shownLink) history.replaceState(null, "", (shownLink = address));
  if (state.run.since !== null && clock === null) clock = setTimeout(tick, CLOCK_MS);
});
/** Put the page's marked words in the state's language, when it is not theirs already. */
function applyLanguage() {
  const language = store.state.view.language;
  if (document.documentElement.dataset.language === language) return;
  setLanguage(language);
  document.documentElement.dataset.language = language;
}
store.addEventListener("change", applyLanguage);

bindInputs(els, store, runs,
  { playback, classroom, boards, limits, predictor, polls, clips, composer, strip, tournament, exercise });
bindLabInputs(els, codeLab, playback, exercise);
const enabled = (name) => controls(store.state, runs)[name].enabled;
const speedBy = (by) => () => {
  const steps = limits.speeds, at = steps.indexOf(store.state.settings.speed);
  playback.setSpeed(steps[Math.min(steps.length - 1, Math.max(0, at + by))]);
};
listenForShortcuts({
  " ": ["play", playback.playOrPause],
  ArrowRight: ["step", playback.step],
  ArrowLeft: ["back", playback.stepBack],
  "+": ["speed", speedBy(1)],
  "=": ["speed", speedBy(1)],
  "-": ["speed", speedBy(-1)],
  Home: ["timeline", playback.seekFirst],
  End: ["timeline", playback.seekLast],
  r: ["reset", playback.reset],
  R: ["reset", playback.reset],
  "?": ["help", () => els.helpDialog.showModal()],
}, enabled);

applyLanguage();
presenterDrawer(document);
placeQuestion(document);
playback.showIdle();
// A link's values the page could not use are said once, in place of the first status.
const ignored = [...link.ignored, ...(embedded ? embedIgnored(location.search, embedded) : [])];
if (ignored.length) {
  playback.note("status.linkIgnored", { values: ignored.join(t("list.comma")) });
  if (embedded) console.warn(t("status.linkIgnored", { values: ignored.join(", ") })); // for the site's author
}
if (link.lab && !embedded) codeLab.open(link.lab);
if (embedded) playOnItsOwn(store, runs, playback, reducedMotion);
else classroom.invited(link.klass);

// Read-only handle for the browser console and the browser tests.
window.knightsTour = Object.freeze({
  get model() { return runs.main.model; },
  get tree() { return lessonLane(store.state, runs).tree; },
  get second() { return runs.second.model; },
  get state() { return store.state.run.status; },
  get store() { return store.state; },
  get reducedMotion() { return reducedMotion.matches; },
  get unanswered() { return unanswered(); },
  get labWaiting() { return codeLab.waiting(); },
  overlay: () => boards.overlay(store.state, runs),
  depthSamples: () => {
    const lane = lessonLane(store.state, runs);
    return lane.timeline.depths(lane.model.events);
  },
  whyNoTour,
});
