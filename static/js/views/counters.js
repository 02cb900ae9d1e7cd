// The counters, the race's captions under each board, and the position as text (also the
// board's own description, which a screen reader reads).
import { number, t } from "../words/i18n.js";
import { position } from "../lesson.js";
import { knightSquare } from "../model.js";
import { nameOf, raceName, shownLane } from "../lane-facts.js";
import { TURNED } from "../class/polls.js";


/** Return the counters' view. */
export function createCountersView(els) {
  const set = (el, text) => { if (el.textContent !== text) el.textContent = text; };

  function caption(lane) {
    const m = lane.model;
    const counts = { visits: m.visits, backtracks: m.backtracks, depth: m.path.length, squares: m.squares };
    if (!lane.result) return t("race.caption", counts);
    return t(lane.result.found ? "race.captionFound" : "race.captionDone", counts);
  }

  function describeBoard(lane, state) {
    const m = lane.model, current = knightSquare(m);
    if (state.settings.mode === "example") return t("position.graph", { n: m.path.length, squares: m.squares });
    if (current < 0) {
      return t("position.empty", { rows: m.rows, cols: m.cols, start: nameOf(lane, m.start) });
    }
    const board = t("position.board", { rows: m.rows, cols: m.cols, square: nameOf(lane, current),
      n: m.path.length, left: m.squares - m.path.length });
    return lane.turned ? t(TURNED[lane.turned]) + t("sentence.gap") + board : board;
  }

  function positionText(lane) {
    const where = position(lane.model, lane.moves());
    if (where.current < 0) return t("position.none");
    const names = (list) => list.map((s) => nameOf(lane, s)).join(" ") || t("list.none");
    return t(lane.graph ? "position.textGraph" : "position.text", { path: names(where.path), square: nameOf(lane, where.current),
      moves: names(where.free), n: where.free.length });
  }

  /** Show the search's time so far: while it runs, the page ticks this alone, four times a second. */
  function clock(state) {
    const { total, since } = state.run;
    const seconds = (total + (since === null ? 0 : performance.now() - since)) / 1000;
    set(els.elapsed, t("count.seconds", { seconds: seconds.toFixed(seconds < 10 ? 2 : 1) }));
  }

  function render(state, runs) {
    const m = runs.main.model;
    set(els.visits, number(m.visits));
    set(els.backtracks, number(m.backtracks));
    set(els.depth, `${m.path.length} / ${m.squares}`);
    set(els.tours, number(m.tours));
    set(els.events, number(m.events));
    clock(state);

    const racing = state.settings.mode === "race";
    set(els.captionMain, racing ? caption(runs.main) : "");
    set(els.captionSecond, racing ? caption(runs.second) : "");
    els.titleMain.hidden = els.titleSecond.hidden = !racing;
    if (racing) {
      set(els.titleMain, raceName(runs.main, state, runs));
      set(els.titleSecond, raceName(runs.second, state, runs));
      set(els.sideMainName, els.titleMain.textContent);
      set(els.sideSecondName, els.titleSecond.textContent);
    }
    // A question asked again turned shows its turned board, and says so.
    const shown = shownLane(runs.main, state);
    els.board.setAttribute("aria-label", describeBoard(shown, state));
    if (els.position.open) set(els.positionText, positionText(shown));
  }

  return { render, clock };
}
