// Predict mode's box and settings: the question, the answer field, whether the answer was right
// and why the search went where it did, and the score.
import { controls } from "../controls.js";
import { t } from "../words/i18n.js";
import { setText } from "../dom.js";
import { nameOf } from "../lane-facts.js";
import { orderLabel } from "../orderings/words.js";
import { fewestOnwardFirst, namedOrder } from "../orderings/orderings.js";

// The tie-breaks the page explains by name; any other is "the ordering's next key".
const TIES = { warnsdorff: "why.tie", "warnsdorff-roth": "why.tieRoth" };
// The orderings whose order the page explains in words of their own.
const IN_WORDS = { naive: "why.naive", random: "why.random" };


/**
 * Return, in words, why the search makes the move foresight f describes (see foresight.js);
 * library names the student's own orderings.
 */
export function explain(lane, f, run, library = []) {
  const name = (square) => nameOf(lane, square);
  const list = (items) => items.join(t("list.comma"));
  const from = name(f.from), square = name(f.square);
  if (f.kind === "back") {
    if (f.deadEnd) {
      const moves = list(f.candidates.map((m) => t("why.landsOn", { square: name(m.square), visit: m.blocked })));
      return t("why.blocked", { from, moves, square });
    }
    return t("why.exhausted", { from, tried: list(f.tried.map(name)), square });
  }
  const parts = [];
  if (f.tried.length) parts.push(t("why.tried", { from, tried: list(f.tried.map(name)) }));
  const open = f.candidates.filter((m) => !m.blocked && !f.tried.includes(m.square));
  const label = orderLabel(run.order, library), named = namedOrder(run.order);
  if (fewestOnwardFirst(run.order)) {
    const chosen = open.find((m) => m.square === f.square);
    parts.push(t("why.counts", { from, counts: list(open.map((m) => t("why.count", { square: name(m.square), n: m.onward }))) }));
    parts.push(f.tie.length > 1
      ? t(TIES[named] ?? "why.tieKeys", { squares: list(f.tie.map(name)), n: chosen?.onward ?? 0, square, name: label })
      : t("why.fewest", { square, n: chosen?.onward ?? 0 }));
  } else {
    // As the position was when asked: the move made since is on the path now. The naive order is
    // the squares' numbers, hidden from the student: in words, reading order on the board.
    const order = list(f.candidates.map(({ square: s, blocked }) => (blocked
      ? t("why.onPathItem", { square: name(s) }) : name(s))));
    parts.push(t(IN_WORDS[named] ?? "why.custom", { from, order, square, seed: run.seed ?? 0, name: label }));
  }
  return parts.join(t("list.sentences"));
}

/** Return the id of the box's heading between questions, as the run stands. */
function heading(state, lane) {
  const { status, replaying } = state.run;
  if (!lane.run) return "predict.start";
  if (status === "finished" && lane.atHead()) return "predict.ended";
  // Stepping, the run stays paused after an answer, right or wrong: say so, and what goes on.
  if (status !== "playing" && !replaying && state.predict.feedback) return "predict.pausedAfter";
  return "predict.watching";
}

/** Return the predict view. */
export function createPredictView(els) {
  function render(state, runs) {
    const p = state.predict, lane = runs.main, c = controls(state, runs);
    const can = c.predict.enabled;
    els.predictOn.checked = p.on;
    for (const el of [els.predictOn, els.predictEvery, els.predictN]) el.disabled = !can;
    els.predictEvery.value = p.every;
    els.predictNField.hidden = p.every !== "n";
    if (document.activeElement !== els.predictN) els.predictN.value = String(p.n);
    setText(els.predictNote, can ? "" : t(state.klass.role === "student" ? "predict.inClass" : "predict.boardOnly"));

    els.predictBox.hidden = !(p.on && can);
    if (els.predictBox.hidden) return;
    const asking = p.asking;
    els.predictQuestion.textContent = asking
      ? t(asking.foresight.from < 0 ? "predict.questionStart" : "predict.question", { from: nameOf(lane, asking.from) })
      : t(heading(state, lane));
    if (p.note) els.predictQuestion.textContent += ` ${t(p.note.id, p.note.params)}`;
    for (const el of [els.predictSquare, els.predictAnswer]) el.disabled = !asking;
    const f = p.feedback;
    els.predictFeedback.textContent = f ? t(f.right ? "predict.right" : "predict.wrong", {
      real: nameOf(lane, f.real), chose: nameOf(lane, f.chose), move: t(f.kind === "back" ? "predict.backsTo" : "predict.goesTo"),
    }) : "";
    els.predictFeedback.dataset.right = f ? String(f.right) : "";
    els.predictWhy.textContent = f ? explain(lane, f.foresight, lane.run, state.orderings.library) : "";
    const { asked, right, streak, best } = p.score;
    els.predictScore.textContent = asked ? t("predict.score", { right, n: asked, streak, best }) : "";
  }

  return { render };
}
