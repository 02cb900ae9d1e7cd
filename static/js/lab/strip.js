// The strip: the page's ordering (and up to three others) tried on many boards by the server,
// each board's end filled in as it comes: square boards from a corner, or every square of one.
import { refusal } from "../words/refusals.js";
import { STRIP_OUTCOMES } from "./strip-facts.js";

export const MAX_COMPARED = 3; // orderings beside the page's own

/**
 * The strip's state: setup {from, to, budget, every, compared: [orders]} as the fields hold it;
 * id, the strip under way or shown (null before any); orders and boards ([{rows, cols, start}])
 * of that strip; cells, each search's end by index (board * orders + ordering); running; note;
 * early, what came of a strip before the server's answer named it ({strip: {cells, done}}): the
 * answer may come after the first boards.
 */
export const NO_STRIP = {
  setup: { from: 5, to: 50, budget: 10000, every: false, compared: [] },
  id: null, last: 0, orders: [], boards: [], cells: {}, running: false, note: null, early: {},
};

/** Return the boards of a strip's setup, [{rows, cols, start}], on the settings' board for every square. */
export function stripBoards(setup, settings) {
  if (setup.every) {
    return Array.from({ length: settings.rows * settings.cols }, (_, start) => ({
      rows: settings.rows, cols: settings.cols, start }));
  }
  return Array.from({ length: setup.to - setup.from + 1 }, (_, i) => ({ rows: setup.from + i, cols: setup.from + i,
    start: 0 }));
}

/** Return the strip's actions on store; server is the main lane's connection. */
export function createStrip(store, server) {
  const state = () => store.state.strip;
  const set = (patch) => store.update({ strip: patch });
  let asks = 0; // the strips asked for: an answer to any but the last, or to one stopped, is old news

  return {
    /** Change the setup (a patch of it), keeping at most MAX_COMPARED orderings compared. */
    setup(patch) {
      const setup = { ...state().setup, ...patch };
      setup.compared = setup.compared.slice(0, MAX_COMPARED);
      set({ setup });
    },

    /** Say something of the strip's setup (a number changed to fit). */
    note(id, params) {
      set({ note: { id, params } });
    },

    /** Ask the server for a strip of the setup with the settings' ordering first. */
    async run() {
      const { setup } = state();
      const settings = store.state.settings;
      const orders = [settings.order, ...setup.compared.filter((order) => order !== settings.order)];
      const boards = stripBoards(setup, settings);
      const where = setup.every ? { rows: settings.rows, cols: settings.cols } : { sides: [setup.from, setup.to] };
      const last = state().id ?? 0;
      set({ id: null, last, orders, boards, cells: {}, running: true, note: null, early: {} });
      const ask = ++asks;
      const answer = await server.request("strip", { orders, budget: setup.budget, seed: settings.seed, ...where });
      if (ask !== asks || !state().running) return;
      if (!answer.ok) {
        set({ running: false, note: answer.timedOut ? { id: "strip.noAnswer" } : refused(answer) });
        return;
      }
      const early = state().early[answer.strip] ?? { cells: {}, done: false };
      set({ id: answer.strip, cells: early.cells, running: !early.done, early: {} });
    },

    /** Stop the strip under way. */
    stop() {
      asks += 1;
      set({ running: false, note: { id: "strip.stopped" } });
      server.request("strip_stop", {});
    },

    /** The connection went down: the server ended the strip with it. */
    lost() {
      if (state().running) set({ running: false, note: { id: "strip.lost" } });
    },

    news: {
      strip_board(board) {
        if (!STRIP_OUTCOMES.includes(board.outcome)) return;
        const cell = { outcome: board.outcome, backtracks: board.backtracks, events: board.events };
        if (state().id === board.strip) set({ cells: { ...state().cells, [board.index]: cell } });
        else if (waiting(board.strip)) {
          const early = state().early[board.strip] ?? { cells: {}, done: false };
          set({ early: { [board.strip]: { ...early, cells: { ...early.cells, [board.index]: cell } } } });
        }
      },
      strip_done({ strip }) {
        if (state().id === strip) set({ running: false });
        else if (waiting(strip)) set({ early: { [strip]: { cells: {}, ...state().early[strip], done: true } } });
      },
    },
  };

  /** Say a refusal in the page's words where its code has some, else quote the server's sentence. */
  function refused(answer) {
    const said = refusal(answer);
    return said.id === "refusal.request.invalid" ? { id: "strip.refused", params: { why: answer.error } } : said;
  }

  /** Tell whether a strip's news is of the strip asked for and not yet answered (a newer one than the last). */
  function waiting(strip) {
    return state().running && state().id === null && strip > state().last;
  }
}
