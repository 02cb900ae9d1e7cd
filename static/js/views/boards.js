// The boards: the knight's board (or the example graph) of the main run, the race's second
// board, and the key to the hint boxes, shown where the boxes first appear.
import { nextMoves } from "../lesson.js";
import { BoardView } from "./board.js";
import { GraphView } from "../paint/graph.js";
import { t } from "../words/i18n.js";
import { answersOf, asking, deadEndOf, exerciseAnswers, held, orderOf, shownLane, stackOf } from "../lane-facts.js";
import { fewestOnwardFirst } from "../orderings/orderings.js";
import { setText } from "../dom.js";

/** Return the boards' view: render(state, runs) draws what the state and the runs' models say. */
export function createBoardsView(els, reducedMotion) {
  const board = new BoardView(els.board, els.boardBox);
  const graph = new GraphView(els.board, els.boardBox);
  const second = new BoardView(els.boardSecond, els.boardBoxSecond);

  /** Return what one lane's board draws: its model, hints, degrees, dead end and answers; or the
   * turned position of a question asked again turned, with the answers to it alone. */
  function scene(lane, state, runs) {
    const { view, settings } = state;
    const shown = shownLane(lane, state), turned = shown !== lane;
    // While a question is open, the moves still to try would give its answer away.
    const hints = view.hints && !asking(state) && !turned
      ? nextMoves(stackOf(lane, state, runs), lane.model, lane.moves()) : [];
    const degrees = view.degrees ? lane.moves().map((list) => list.length) : null;
    const hold = held(state);
    // At the fastest speed the page renders as batches come, up to twenty times a second: the
    // board's fades need no frames of their own between them (sixty a second halved the stream).
    const paced = state.run.status === "playing" && settings.speed === 0;
    return { model: shown.model, hints, degrees, hold, paced,
      deadEnd: hold && !turned ? deadEndOf(lane) : null,
      answers: lane === runs.main ? answersOf(lane, state) ?? exerciseAnswers(lane, state) : null,
      speed: settings.speed, reducedMotion: reducedMotion.matches };
  }

  /** Size the frame to the board's shape, so the layout leaves no gap around it. */
  function shape(state, runs) {
    const { mode } = state.settings, { rows, cols } = runs.main.model;
    const board = mode === "example" ? "1.6" : `${cols} / ${rows}`;
    const frame = mode === "example" ? "1.6" : `${mode === "race" ? 2 * cols : cols} / ${rows}`;
    if (els.boardFrame.style.getPropertyValue("--aspect") !== frame) {
      els.boardFrame.style.setProperty("--aspect", frame);
      els.boardFrame.style.setProperty("--board-aspect", board);
    }
  }

  function render(state, runs) {
    shape(state, runs);
    const example = state.settings.mode === "example";
    if (example) {
      const lane = runs.main;
      board.render(null); // the graph has the canvas now
      graph.render({ model: lane.model, names: lane.graph.names, moves: lane.graph.moves, hold: held(state),
        reducedMotion: reducedMotion.matches });
    } else {
      graph.render(null);
      const shown = scene(runs.main, state, runs);
      board.render(shown);
      els.hintKey.hidden = !shown.hints.length;
    }
    if (example) els.hintKey.hidden = true;
    // The key names Warnsdorff's rule only beside a board whose ordering takes the fewest onward moves first.
    const fewest = runs.active().some((lane) => fewestOnwardFirst(orderOf(lane, state, runs).order));
    for (const el of [els.hintKeyText, els.keyHint]) setText(el, t(fewest ? "key.hintFewest" : "key.hint"));
    if (state.settings.mode === "race") second.render(scene(runs.second, state, runs));
    els.laneSecond.hidden = state.settings.mode !== "race";
  }

  return {
    render,
    /** Return what the main board draws over its squares: {hints, degrees, answers}. */
    overlay: (state, runs) => {
      const { hints, degrees, answers } = scene(runs.main, state, runs);
      return { hints, degrees, answers };
    },
    /** Return the square of the main board under a point of the page, or -1. */
    squareAt: (x, y) => board.squareAt(x, y),
    /** Return a PNG of the main board, {blob, width, height}, sharp enough for a slide (see BoardView.image). */
    image: () => board.image(),
  };
}
