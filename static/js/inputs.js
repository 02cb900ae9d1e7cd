// The page's inputs: each button, field and click turned into an action or a store update.
import { controls } from "./controls.js";
import { rememberLanguage } from "./i18n.js";
import { partingNode, partingSpan, pointedNode, treeLanes, treeShown, zoomedSpan } from "./lane-facts.js";
import { parseSquare, squareName } from "./notation.js";
import { exportTour } from "./share.js";
import { nodeUnder } from "./views/tree.js";

/** Listen to every control of the page; actions: {playback, classroom, boards, limits, predictor, polls, clips}. */
export function bindInputs(els, store, runs, { playback, classroom, boards, limits, predictor, polls, clips }) {
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

  // The search tree: pointing at a node names it, the keys walk it; a click or Enter moves the
  // timeline (and so the board, stack, code and chart) to the moment the node was visited. A
  // race draws its second search's tree below the first's, on the same scale: the zoom is theirs.
  const treeInputs = (canvas, laneOf) => {
    const shown = () => treeShown(store.state, laneOf(), treeLanes(store.state, runs));
    const chooseNode = (node) => setView({ treeNode: node < 0 ? null : { run: laneOf().run?.run, node } });
    const visitNode = (node) => node >= 0 && playback.seek(laneOf().tree.eventOf(node) + 1);
    const pointed = (event) => {
      const rect = canvas.getBoundingClientRect();
      return nodeUnder(shown(), rect.width, rect.height, event.clientX - rect.left, event.clientY - rect.top);
    };
    // Where across the nodes shown a pointer is: a wheel or a pinch zooms about it, as a map does.
    const across = (clientX) => {
      const rect = canvas.getBoundingClientRect(), now = shown();
      return now.from + ((clientX - rect.left) / Math.max(1, rect.width)) * (now.to - now.from);
    };
    // Zoom about a node (the wheel's or pinch's place, the one chosen by the keys, else the
    // middle of what is shown): the wheel, a pinch, or + - 0.
    const zoomTree = (factor, about) => {
      const now = shown();
      if (!now.total) return;
      const at = about >= 0 ? about : (now.from + now.to) / 2;
      const span = factor === 0 ? null : zoomedSpan(now, at, factor);
      setView({ treeSpan: span && { run: runs.main.run?.run, ...span } });
    };
    canvas.addEventListener("wheel", (event) => {
      event.preventDefault(); // the page does not scroll under a zoom
      zoomTree(event.deltaY < 0 ? 0.5 : 2, across(event.clientX));
    }, { passive: false });
    // Two fingers pinch it: spread apart to zoom in, about the node between them, together to
    // zoom out. Across the tree only (its nodes are across it): a swipe up or down scrolls the page.
    const fingers = new Map(); // pointerId -> its clientX, while on the tree
    let apart = 0; // the fingers' distance when the tree was last zoomed by them
    const spread = () => Math.abs(Math.max(...fingers.values()) - Math.min(...fingers.values()));
    on(canvas, "pointerdown", (event) => {
      if (event.pointerType !== "touch") return;
      fingers.set(event.pointerId, event.clientX);
      apart = fingers.size === 2 ? spread() : 0;
    });
    on(canvas, "pointermove", (event) => {
      if (!fingers.has(event.pointerId)) {
        chooseNode(pointed(event));
        return;
      }
      fingers.set(event.pointerId, event.clientX);
      if (fingers.size !== 2 || !apart) return;
      const factor = apart / Math.max(1, spread());
      if (factor > 0.8 && factor < 1.25) return; // zoomed by steps: each redraws the tree
      const [a, b] = fingers.values();
      zoomTree(factor, across((a + b) / 2));
      apart = spread();
    });
    for (const type of ["pointerup", "pointercancel"]) {
      on(canvas, type, (event) => {
        fingers.delete(event.pointerId);
        apart = 0;
      });
    }
    on(canvas, "pointerleave", () => document.activeElement !== canvas && chooseNode(-1));
    click(canvas, (event) => visitNode(pointed(event)));
    on(canvas, "focus", () => {
      const lane = laneOf();
      if (pointedNode(store.state, lane) < 0 && lane.model.visits) chooseNode(0); // the start square
    });
    on(canvas, "blur", () => chooseNode(-1));
    on(canvas, "keydown", (event) => {
      const lane = laneOf(), k = pointedNode(store.state, lane), tree = lane.tree;
      const moves = {
        ArrowUp: () => tree.parent(k),
        ArrowDown: () => tree.firstChild(k),
        ArrowLeft: () => tree.previousSibling(k),
        ArrowRight: () => tree.nextSibling(k),
      };
      const zooms = { "+": 0.5, "=": 0.5, "-": 2, 0: 0 };
      if (event.key in zooms) {
        event.preventDefault();
        event.stopPropagation(); // the page's own + and - change the speed
        zoomTree(zooms[event.key], k);
        return;
      }
      if (k < 0 || !(event.key in moves || event.key === "Enter")) return;
      event.preventDefault();
      event.stopPropagation(); // the page's own arrows step the search
      if (event.key === "Enter") {
        visitNode(k);
        return;
      }
      const next = moves[event.key]();
      if (next >= 0) chooseNode(next);
    });
  };
  treeInputs(els.treePicture, () => runs.main);
  treeInputs(els.treePictureSecond, () => runs.second);
  click(els.treePartingZoom, () => {
    const parting = partingNode(runs.main, runs.second) ?? -1;
    if (parting >= 0) setView({ treeSpan: { run: runs.main.run?.run, ...partingSpan(parting) } });
  });

  /** Read a whole number from a field, kept within low..high; note on the board when it was not. */
  function whole(input, low, high, empty = low) {
    if (input.value.trim() === "") return empty;
    const value = Math.round(Number(input.value));
    const kept = Math.min(high, Math.max(low, Number.isFinite(value) ? value : low));
    if (kept !== value) note("board", "board.clamped", { low, high, typed: input.value, value: kept });
    else note("board", null);
    input.value = String(kept);
    return kept;
  }
  on(els.rows, "change", () => playback.change({ rows: whole(els.rows, 1, limits.maxSide) }));
  on(els.cols, "change", () => playback.change({ cols: whole(els.cols, 1, limits.maxSide) }));
  on(els.seed, "change", () => playback.change({ seed: whole(els.seed, 0, limits.maxSeed, 0) }));
  on(els.budget, "change", () => playback.change({ budget: whole(els.budget, 1, limits.maxBudget, null) }));
  on(els.order, "change", () => playback.change({ order: els.order.value }));
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
  click(els.pollAsk, () => polls.ask(Number(els.pollSeries.value)));
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
