// The page's inputs: each button, field and click turned into an action or a store update.
import { controls } from "../controls.js";
import { rememberLanguage, t } from "../words/i18n.js";
import { parseSquare, squareName } from "../notation.js";
import { nameIn } from "../orderings/library.js";
import { exportTour } from "../share.js";
import { entryOrder } from "../lab/tournament.js";
import { bindTreeInputs } from "../tree/inputs.js";

/**
 * Listen to every control of the page; actions: {playback, classroom, boards, limits, predictor, polls, clips,
 * composer, strip, tournament}.
 */
export function bindInputs(els, store, runs, actions) {
  const { playback, classroom, boards, limits, predictor, polls, clips, composer, strip, tournament, exercise } = actions;
  const on = (el, type, handler) => el.addEventListener(type, handler);
  const click = (el, handler) => on(el, "click", handler);
  const setView = (patch) => store.update({ view: patch });
  const note = (part, id, params = {}) => store.update({ notes: { [part]: id ? { id, params } : null } });
  const settings = () => store.state.pending?.settings ?? store.state.settings;

  click(els.play, playback.playOrPause);
  click(els.step, playback.step);
  click(els.back, playback.stepBack);
  click(els.skip, playback.skip);
  click(els.reset, playback.reset);
  click(els.pendingConfirm, playback.confirm);
  click(els.pendingCancel, playback.cancel);
  click(els.undo, playback.undo);
  on(els.timeline, "input", () => playback.seek(Number(els.timeline.value)));
  on(els.speed, "input", () => playback.setSpeed(limits.speeds[Number(els.speed.value)]));

  bindTreeInputs(els, store, runs, playback);

  /**
   * Read a whole number from a field, kept within low..high (empty: what an empty field stands
   * for, null for none); note on the board when it was not (a board's field: another's shows the
   * number kept alone). A field left empty shows the number it stands for, with no note.
   */
  function whole(input, low, high, empty = low, board = true) {
    if (input.value.trim() === "") {
      if (board) note("board", null);
      if (empty !== null) input.value = String(empty);
      return empty;
    }
    const value = Math.round(Number(input.value));
    const kept = Math.min(high, Math.max(low, Number.isFinite(value) ? value : low));
    if (board) note("board", kept !== value ? "board.clamped" : null, { low, high, typed: input.value, value: kept });
    input.value = String(kept);
    return kept;
  }
  on(els.rows, "change", () => playback.change({ rows: whole(els.rows, 1, limits.maxSide, settings().rows) }));
  on(els.cols, "change", () => playback.change({ cols: whole(els.cols, 1, limits.maxSide, settings().cols) }));
  on(els.seed, "change", () => playback.change({ seed: whole(els.seed, 0, limits.maxSeed, 0) }));
  on(els.budget, "change", () => playback.change({ budget: whole(els.budget, 1, limits.maxBudget, null) }));
  on(els.order, "change", () => {
    composer.show(els.order.value);
    playback.change({ order: els.order.value });
  });
  on(els.versus, "change", () => playback.change({ versus: els.versus.value }));
  // The composer's rows: each button names its change and the row's place.
  click(els.composerKeys, (event) => {
    const button = event.target.closest("button[data-change]");
    if (button) composer.edit({ [button.dataset.change]: Number(button.dataset.at) });
  });
  click(els.composerAdd, () => composer.edit({ add: els.composerKey.value }));
  on(els.composerForm, "input", () => composer.type(els.composerForm.value, true));
  on(els.composerForm, "change", () => composer.type(els.composerForm.value));
  on(els.composerForm, "keydown", (event) => {
    if (event.key === "Enter") els.composerUse.click();
  });
  on(els.composerName, "change", () => composer.rename(els.composerName.value));
  click(els.composerUse, () => {
    // A name or form typed and not yet left counts too.
    composer.type(els.composerForm.value);
    if (store.state.orderings.note) return;
    composer.rename(els.composerName.value);
    if (!store.state.orderings.note) composer.use();
  });
  // The strip's and the tournament's setup: sides kept within the server's limits, the smallest
  // never past the largest; a number changed to fit is said under their buttons (by say).
  const stripSetup = () => store.state.strip.setup;
  /** Read a number from its field (what: its label's id), kept within low..high, saying so when it was not. */
  function fitted(input, what, low, high, say) {
    const typed = input.value.trim();
    const value = whole(input, low, high, low, false);
    if (typed !== String(value)) say("strip.clamped", { what, low, high, typed, value });
    return value;
  }
  const stripNumber = (input, what, low, high) => fitted(input, what, low, high, strip.note);
  on(els.stripFrom, "change", () => {
    const from = stripNumber(els.stripFrom, "strip.from", 1, limits.maxStripSide);
    if (from > stripSetup().to) strip.note("strip.raised", { value: from });
    strip.setup({ from, to: Math.max(from, stripSetup().to) });
  });
  on(els.stripTo, "change", () => {
    const to = stripNumber(els.stripTo, "strip.to", 1, limits.maxStripSide);
    if (to < stripSetup().from) strip.note("strip.lowered", { value: to });
    strip.setup({ to, from: Math.min(to, stripSetup().from) });
  });
  on(els.stripBudget, "change", () => {
    strip.setup({ budget: stripNumber(els.stripBudget, "strip.budget", 1, limits.maxStripBudget) });
  });
  on(els.stripEvery, "change", () => strip.setup({ every: els.stripEvery.checked }));
  on(els.stripCompared, "change", (event) => {
    const { value, checked } = event.target;
    const compared = stripSetup().compared.filter((order) => order !== value);
    strip.setup({ compared: checked ? [...compared, value] : compared });
  });
  click(els.stripRun, strip.run);
  click(els.stripStop, strip.stop);

  const rules = () => store.state.tournament.setup;
  const sayRules = (id, params) => store.update({ tournament: { note: { id, params } } });
  const side = (input, what) => fitted(input, what, 1, limits.maxStripSide, sayRules);
  on(els.tournamentSmallest, "change", () => {
    const smallest = side(els.tournamentSmallest, "tournament.smallest");
    tournament.setup({ smallest, largest: Math.max(smallest, rules().largest) });
  });
  on(els.tournamentLargest, "change", () => {
    const largest = side(els.tournamentLargest, "tournament.largest");
    tournament.setup({ largest, smallest: Math.min(largest, rules().smallest) });
  });
  on(els.tournamentBudget, "change", () => tournament.setup({
    budget: fitted(els.tournamentBudget, "tournament.budget", 1, limits.maxStripBudget, sayRules) }));
  on(els.tournamentStart, "change", () => tournament.setup({ start: els.tournamentStart.value }));
  on(els.tournamentSeats, "change", () => tournament.setup({ seats: els.tournamentSeats.checked }));
  on(els.exerciseChoice, "change", () => exercise.choose(els.exerciseChoice.value));
  click(els.exerciseAsk, exercise.ask);
  click(els.exerciseClose, exercise.close);
  click(els.exerciseResults, exercise.results);
  click(els.tournamentOpen, tournament.open);
  click(els.tournamentClose, tournament.close);
  click(els.tournamentCsv, () => tournament.download(t("tournament.anonymous")));
  on(els.tournamentEntry, "submit", (event) => {
    event.preventDefault();
    const order = entryOrder(store.state.orderings);
    // A composed ordering goes under the name the student gave it, for the whole class to read.
    if (order) tournament.enter(order, els.tournamentName.value.trim(), nameIn(store.state.orderings.library, order));
  });
  // A standings row's buttons: set its ordering up on the board, race it, hide or show its nickname.
  click(els.tournamentRows, (event) => {
    const button = event.target.closest("button[data-action]");
    const entry = button && store.state.tournament.entries[button.closest("tr").dataset.entry];
    if (!entry) return;
    const { action } = button.dataset;
    if (action === "watch") playback.change({ mode: "board", order: entry.order });
    else if (action === "race") playback.change({ mode: "race", versus: entry.order });
    else if (action === "remove") tournament.remove(entry.id);
    else tournament.hide(entry.id, !entry.hidden);
  });
  on(els.closed, "change", () => playback.change({ closed: els.closed.checked }));
  on(els.allTours, "change", () => playback.change({ allTours: els.allTours.checked }));
  on(els.mode, "change", (event) => playback.change({ mode: event.target.value }));
  on(els.start, "change", () => {
    const s = settings();
    const square = s.mode === "example" ? store.state.example.names.indexOf(els.start.value.trim().toUpperCase())
      : parseSquare(els.start.value, s.rows, s.cols);
    if (square < 0) {
      note("board", "board.badStart", { typed: els.start.value });
      els.start.blur();
      store.touch();
      return;
    }
    note("board", null);
    playback.change({ start: square });
  });
  /** Take a square as the answer to the question open: the class's, or the page's own. */
  function answer(square) {
    if (store.state.klass.role === "student") polls.answer(square);
    else predictor.answer(square);
  }
  click(els.board, (event) => {
    const square = boards.squareAt(event.clientX, event.clientY);
    const can = controls(store.state, runs);
    if (square < 0) return;
    if (can.answer.enabled) answer(square);
    else if (can.chooseStart.enabled) playback.change({ start: square });
    else if (store.state.embedded && can.play.enabled) playback.playOrPause(); // an embed's board plays and pauses
  });
  if (els.embedPlay) click(els.embedPlay, playback.playOrPause);
  /** Answer with the square typed in a form's field (keyboards and screen readers answer so). */
  function typed(form, input) {
    on(form, "submit", (event) => {
      event.preventDefault();
      const { rows, cols } = runs.main.model;
      const square = parseSquare(input.value, rows, cols);
      const note = square < 0 ? { id: "predict.badSquare", params: { typed: input.value } } : null;
      store.update({ predict: { note }, poll: { note } });
      if (square < 0) return;
      input.value = "";
      answer(square);
    });
  }
  typed(els.predictForm, els.predictSquare);
  typed(els.pollForm, els.pollSquare);
  on(els.predictOn, "change", () => predictor.configure({ on: els.predictOn.checked }));
  on(els.predictEvery, "change", () => predictor.configure({ every: els.predictEvery.value }));
  on(els.predictN, "change", () => predictor.configure({ n: Number(els.predictN.value) }));
  const asking = () => ({ peer: els.pollPeer.checked, confidence: els.pollConfidence.checked });
  click(els.pollAsk, () => polls.ask(Number(els.pollSeries.value), asking()));
  click(els.pollMirror, () => polls.transfer("mirror", asking()));
  click(els.pollRotate, () => polls.transfer("rotate", asking()));
  click(els.pollClockStart, () => polls.startTimer(60));
  click(els.pollDiscuss, () => polls.advance("discuss"));
  click(els.pollSecond, () => polls.advance("second"));
  on(els.pollSure, "change", (event) => polls.choose(event.target.value === "true"));
  click(els.pollReveal, polls.reveal);
  click(els.pollCancel, polls.cancel);
  click(els.pollResults, () => polls.download((square) => squareName(square, runs.main.model.rows, runs.main.model.cols)));

  on(els.hints, "change", () => setView({ hints: els.hints.checked }));
  on(els.degrees, "change", () => setView({ degrees: els.degrees.checked }));
  on(els.lesson, "change", () => setView({ lesson: els.lesson.checked }));
  on(els.lines, "change", () => setView({ lines: els.lines.checked }));
  on(els.lessonSide, "change", (event) => setView({ side: event.target.value }));
  on(els.language, "change", () => {
    rememberLanguage(els.language.value);
    setView({ language: els.language.value });
  });
  click(els.help, () => els.helpDialog.showModal());
  on(els.position, "toggle", () => store.touch()); // the text view is written only while open
  on(els.treeText, "toggle", () => store.touch()); // so is the tree's branch

  click(els.classOpen, classroom.open);
  click(els.classJoin, () => classroom.join(els.classCode.value));
  on(els.classCode, "keydown", (event) => { if (event.key === "Enter") classroom.join(els.classCode.value); });
  click(els.classLeave, classroom.leave);
  click(els.classRejoin, classroom.rejoin);
  click(els.classEnd, classroom.end);
  click(els.live, classroom.backToLive);
  click(els.mark, () => { classroom.mark(els.markLabel.value); els.markLabel.value = ""; });
  on(els.markLabel, "keydown", (event) => { if (event.key === "Enter") els.mark.click(); });
  on(els.marks, "click", (event) => {
    const at = event.target.closest("button")?.dataset.at;
    if (at !== undefined) playback.seek(Number(at));
  });
  click(els.presenter, classroom.togglePresenter);
  click(els.presenterExit, classroom.togglePresenter);

  async function share(kind) {
    const m = runs.main.model;
    const run = runs.main.run ?? { ...store.state.settings, start: m.start };
    const { id, params } = await exportTour(kind, m, run, boards.image);
    note("share", id, params);
  }
  click(els.copyLink, async () => {
    try {
      await navigator.clipboard.writeText(location.href);
      note("share", "share.copied");
    } catch {
      note("share", "share.copyThis", { url: location.href });
    }
  });
  const snippet = (patch) => store.update({ snippet: patch, notes: { embed: null } });
  on(els.embedControls, "change", () => snippet({ controls: els.embedControls.value }));
  on(els.embedSetup, "change", (event) => {
    if (event.target.name !== "embed-panel") return;
    const boxes = [...document.querySelectorAll("input[name=embed-panel]")];
    snippet({ panels: boxes.filter((box) => box.checked).map((box) => box.value) });
  });
  on(els.embedAutoplay, "change", () => snippet({ autoplay: els.embedAutoplay.checked }));
  on(els.embedLoop, "change", () => snippet({ loop: els.embedLoop.checked }));
  click(els.embedCopy, async () => {
    try {
      await navigator.clipboard.writeText(els.embedCode.value);
      note("embed", "embed.copied");
    } catch {
      els.embedCode.select(); // for the user to copy by hand
      note("embed", "embed.copyThis");
    }
  });
  click(els.exportJson, () => share("json"));
  click(els.exportNotation, () => share("notation"));
  click(els.exportPng, () => controls(store.state, runs).png.enabled && share("png"));

  on(els.clipSetup, "change", (event) => {
    if (event.target.name === "clip-from") clips.choose({ from: event.target.value });
  });
  on(els.clipEvents, "change", () => {
    // Empty (or not a number) is every event from there; more than the page holds is all it holds.
    const typed = Math.max(1, Math.round(Number(els.clipEvents.value)));
    clips.choose({ events: els.clipEvents.value.trim() && Number.isFinite(typed) ? typed : null });
  });
  on(els.clipPace, "change", () => clips.choose({ pace: Number(els.clipPace.value) }));
  on(els.clipFormat, "change", () => clips.choose({ format: els.clipFormat.value }));
  on(els.clipTree, "change", () => clips.choose({ tree: els.clipTree.checked }));
  click(els.clipMake, clips.make);
  click(els.clipCancel, clips.cancel);
  window.matchMedia("(prefers-reduced-motion: reduce)").addEventListener("change", () => store.touch());
}
