// The lesson panels: the code with the lines that ran, the call stack numbered as the board is,
// the dead end just left and why, the depth chart, and the textbook's estimate of the work.
import { CODE, eventLine, orderingCode } from "../code.js";
import { t } from "../words/i18n.js";
import { bookEstimate, scientific, treeEstimate } from "../lesson.js";
import { DepthChart, stretchesOf } from "../paint/chart.js";
import { TreePicture } from "../paint/tree.js";
import { setText } from "../dom.js";
import {
  asking, deadEndOf, held, lastTrace, lessonLane, nameOf, orderOf, partingNode, pointedNode, raceName, shownLane, stackOf,
  treeLanes, treeShown,
} from "../lane-facts.js";

const SHOWN_LEVELS = 8;
const SQUARE_PARAMS = ["square", "move", "start"]; // a trace's params that are squares, to be named
const BOOK_BOARDS = ["5x5", "6x6"]; // the boards whose estimate the book works out with a rounded k

/**
 * Show rows ({value, className, text}; value null for none) as list's items, rewriting only
 * what changed: the stack changes on every frame of a fast search, mostly at its top.
 */
function showRows(list, rows) {
  const items = list.children;
  while (items.length > rows.length) items[items.length - 1].remove();
  rows.forEach(({ value, className, text }, i) => {
    const li = items[i] ?? list.appendChild(document.createElement("li"));
    // The "more" row has no number of its own.
    if (value === null) li.removeAttribute("value");
    else if (li.value !== value || !li.hasAttribute("value")) li.value = value;
    if (li.className !== className) li.className = className;
    setText(li, text);
  });
}

/**
 * Return the words for node k of the lane's tree: its square, depth, subtree and what it holds,
 * as of the moment shown (or, for a node the search comes to later, as received).
 */
function describeNode(lane, k) {
  const { tree, model } = lane, later = k >= model.visits;
  if (!tree.depthAt(k)) {
    const { from, to, low, high } = tree.stretchAt(k);
    return t("lesson.treeNodeSkipped", { n: to - from, low, high });
  }
  const size = tree.subtreeSize(k, later ? tree.size : model.visits);
  const tours = tree.toursBefore(k + size) - tree.toursBefore(k);
  const open = !later && tree.onPath(k, model.visits, model.path.length);
  // A node of the outlined part has no event kept to go to.
  const laterId = k < tree.exact ? "lesson.treeNodeLater" : "lesson.treeNodeLaterOutlined";
  const id = later ? laterId : open ? "lesson.treeNodeOpen" : tours ? "lesson.treeNodeTours"
    : "lesson.treeNodeDeadEnd";
  return t(id, { square: squareOf(lane, k), depth: tree.depthAt(k), n: size, tours });
}

/**
 * Return the knight's branch as list rows (showRows'), root first: each square on it, the nodes
 * under it so far, and those of the dead ends tried before it (they lie between it and its parent).
 */
function branchRows(lane) {
  const { tree, model } = lane, path = tree.path(model.visits, model.path.length);
  return path.map((k, d) => ({
    value: d + 1,
    className: "",
    text: t("lesson.treeBranch", {
      square: squareOf(lane, k), n: tree.subtreeSize(k, model.visits), before: d ? k - path[d - 1] - 1 : 0,
    }),
  }));
}

/** Return the name of the square of the lane's tree's node k; of a node of the outlined part, on the newest path, that path's square. */
function squareOf(lane, k) {
  const tree = lane.tree;
  return nameOf(lane, k >= tree.exact ? tree.outlinedSquare(k) : tree.squareOf(k));
}

/** Return the lesson panels' view. */
export function createLessonView(els) {
  const chart = new DepthChart(els.chart);
  const pictures = [new TreePicture(els.treePicture), new TreePicture(els.treePictureSecond)];
  const names = [els.treeName, els.treeNameSecond]; // the pictures' captions in a race
  const lines = CODE.map(() => document.createElement("span"));
  els.code.replaceChildren(...lines);
  let language = null;
  const estimates = new WeakMap(); // moves -> the estimates, which only the board decides

  const commented = ({ text, comment }) => `${comment ? `${text.padEnd(28)}# ${t(comment)}` : text}\n`;
  let shownOrdering = "";
  function renderCode(state, lane, order) {
    if (language !== state.view.language) {
      language = state.view.language;
      CODE.forEach((line, i) => {
        lines[i].textContent = commented(line);
      });
    }
    if (shownOrdering !== `${order}:${language}`) {
      shownOrdering = `${order}:${language}`;
      // Each key's explanation follows its name, not a column: key lines are short.
      els.orderedCode.textContent = orderingCode(order)
        .map(({ text, comment }) => `${text}${comment ? ` ${t(comment)}` : ""}\n`).join("");
    }
    // Line by line, one line is lit; else the lines the last event ran, its own line brightest.
    const step = state.run.line;
    const trace = step ? step.trace.slice(0, step.index + 1) : held(state) ? lastTrace(lane) : [];
    const now = step ? step.trace[step.index].line : trace.length ? trace[trace.length - 1].line : eventLine(lane.lastShown());
    const ran = new Set(step ? [] : trace.map((entry) => entry.line));
    lines.forEach((span, i) => {
      span.classList.toggle("now", i + 1 === now);
      span.classList.toggle("ran", ran.has(i + 1) && i + 1 !== now);
    });
    const entry = step ? step.trace[step.index] : trace[trace.length - 1];
    const params = {};
    for (const [key, value] of Object.entries(entry?.params ?? {})) {
      params[key] = SQUARE_PARAMS.includes(key) ? nameOf(lane, value) : value;
    }
    setText(els.lineNote, entry ? t(entry.note, params) : "");
  }

  function renderStack(state, runs, lane) {
    const stack = stackOf(lane, state, runs);
    const shown = stack.slice(-SHOWN_LEVELS).reverse();
    const secret = asking(state); // the knight's moves still to try would answer the question
    const rows = shown.map((level, i) => {
      const square = nameOf(lane, level.square);
      const rest = level.toTry.map((s) => nameOf(lane, s)).join(t("list.comma"));
      const text = secret && i === 0 ? t("stack.levelAsked", { visit: level.visit, square })
        : level.toTry.length ? t("stack.level", { visit: level.visit, square, rest })
          : t("stack.levelDone", { visit: level.visit, square });
      return { value: level.visit, className: "", text };
    });
    if (stack.length > shown.length) {
      rows.push({ value: null, className: "more", text: t("stack.more", { n: stack.length - shown.length }) });
    }
    showRows(els.stack, rows);
    els.deadEnd.dataset.held = String(held(state)); // its room is kept while the run is held (app.css)
    // While the board shows a question asked again turned, the stack beside it is still the run's.
    if (shownLane(lane, state) !== lane) {
      setText(els.deadEnd, t("stack.turned"));
      return;
    }
    const dead = held(state) ? deadEndOf(lane) : null;
    const why = dead?.complete ? "deadEnd.complete" : dead?.blocked ? "deadEnd.blocked" : "deadEnd.tried";
    setText(els.deadEnd, dead ? t(why, {
      square: nameOf(lane, dead.square), n: dead.moves.length,
      moves: dead.moves.map(({ square, visit }) => visit
        ? t("deadEnd.move", { square: nameOf(lane, square), visit })
        : t("deadEnd.free", { square: nameOf(lane, square) })).join(t("list.comma")),
    }) : "");
  }

  function estimateOf(lane) {
    const moves = lane.moves();
    if (!estimates.has(moves)) estimates.set(moves, { ours: treeEstimate(moves), book: bookEstimate(moves) });
    return estimates.get(moves);
  }

  function renderAnalysis(state, lane) {
    if (lane.graph) { setText(els.analysis, ""); return; }
    const { ours, book } = estimateOf(lane);
    const m = lane.model, k = Number(ours.branching.toFixed(2));
    const estimate = t("lesson.estimate", { k, n: m.squares, nodes: scientific(ours.log10), visits: m.visits });
    setText(els.analysis, BOOK_BOARDS.includes(`${m.rows}x${m.cols}`)
      ? estimate + t("list.sentences") + t("lesson.bookEstimate", { bookK: book.k, bookNodes: scientific(book.log10, 2), k })
      : estimate);
  }

  function render(state, runs) {
    const racing = state.settings.mode === "race";
    els.lessonSide.hidden = !racing;
    if (!state.view.lesson) return;
    const lane = lessonLane(state, runs);
    renderCode(state, lane, orderOf(lane, state, runs).order);
    renderStack(state, runs, lane);
    renderAnalysis(state, lane);
    const stretches = stretchesOf(lane.timeline.depths(lane.model.events));
    chart.render({ stretches, maxDepth: lane.model.squares, at: lane.model.events });
    els.chartSkipped.hidden = stretches.length < 2;
    renderTree(state, runs, lane);
  }

  function renderTree(state, runs, lane) {
    renderExplored(lane);
    const lanes = treeLanes(state, runs), racing = lanes.length > 1;
    const whole = lanes.every((each) => each.tree.whole);
    els.treeNote.hidden = whole;
    for (const el of [els.treePicture, els.treePoint, els.treeText]) el.hidden = !whole;
    for (const el of [els.treeName, els.treePictureSecond, els.treeNameSecond, els.treeParting]) el.hidden = !whole || !racing;
    if (!whole) return;
    // A race has no timeline to move: Enter does nothing there. Written only when the mode
    // changes, as the key the page's words are applied by, so a change of language keeps it.
    const keys = racing ? "lesson.treeKeysRace" : "lesson.treeKeys";
    if (els.treeKeys.dataset.i18n !== keys) {
      els.treeKeys.dataset.i18n = keys;
      els.treeKeys.textContent = t(keys);
    }
    // The whole tree so far across the width (a race's two on one scale): what was searched up
    // to the moment shown.
    const parting = racing ? partingNode(...lanes) : null;
    let said = "";
    lanes.forEach((each, i) => {
      const pointed = pointedNode(state, each), tree = each.tree;
      pictures[i].render({
        ...treeShown(state, each, lanes), length: each.model.path.length, pointed, parting: parting ?? -1,
        sliver: racing ? t("lesson.treeSliver", { n: each.tree.size }) : null,
        // A picture drawn again later (it came into sight, it was resized) may be drawn before
        // the next render: by then the lane may have a new tree, whose squares are not this one's.
        nameOf: (k) => (each.tree === tree ? squareOf(each, k) : ""),
      });
      if (racing) setText(names[i], t("lesson.treeNamed", { search: raceName(each, state, runs), n: each.model.visits }));
      if (pointed >= 0) {
        said = racing ? t("lesson.treeOf", { search: raceName(each, state, runs), node: describeNode(each, pointed) })
          : describeNode(each, pointed);
      }
    });
    setText(els.treePoint, said);
    if (racing) {
      const words = partingWords(lanes, parting);
      setText(els.treePartingText, words);
      els.treeParting.hidden = !words;
      els.treePartingZoom.hidden = (parting ?? -1) < 0;
    }
    if (els.treeText.open) showRows(els.treeBranch, branchRows(lane));
  }

  /** Return what a race's trees have in common: where their first paths part, if they have. */
  function partingWords([first, second], parting) {
    if (parting === null || !first.model.visits || !second.model.visits) return "";
    if (parting < 0) return t("lesson.treeAlike");
    return t("lesson.treeParting", { n: parting, first: squareOf(first, parting), second: squareOf(second, parting) });
  }

  /** Show how much of the whole tree (the estimate's) the search has seen, on a scale of powers of ten. */
  function renderExplored(lane) {
    els.treeExplored.hidden = Boolean(lane.graph);
    if (lane.graph) return;
    const visits = lane.model.visits, whole = estimateOf(lane).ours.log10, seen = Math.log10(Math.max(1, visits));
    els.treeExploredMeter.max = Math.max(whole, seen, 1);
    els.treeExploredMeter.value = seen;
    setText(els.treeExploredText, t("lesson.treeExplored", { visits, nodes: scientific(whole) }));
  }

  return { render };
}
