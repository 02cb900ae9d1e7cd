// A class's code exercise: the instructor asks for one on a board; each student's page checks its
// student's own code there, in the student's browser, and sends the server only the verdict (never
// the code); the instructor's page is told the tally, naming nobody, shows on the board where the
// class's searches part from the textbook's, and downloads the verdicts as CSV.
import { squareName } from "../notation.js";
import { download } from "../share.js";
import { refusal } from "../words/refusals.js";

// open: the exercise asked now, {id, exercise, rows, cols, start}, or null; tally: the instructor's
// last count of it, {id, sent, matched, differ, stopped, heat, verdicts}; choice: the exercise the
// instructor would ask for next; sent: the id of the exercise this student's page last sent a
// verdict on; last: the exercise closed last (its tally stays, for the CSV); note: the last
// refusal ({id, params} or null).
// codes: the codes students showed the instructor, [{number, code}], each under a number, never a
// name; shown: the id of the exercise this student's page last showed its code on.
export const NO_EXERCISE = { open: null, last: null, tally: null, choice: "warnsdorff", sent: null, note: null,
  codes: [], shown: null };

/** Return the square of an event's code (a visit v is v, a backtrack from v is -v-1), or null. */
const squareOf = (code) => (Number.isInteger(code) ? (code >= 0 ? code : -code - 1) : null);

/** Return the verdict on exercise open that a lab's result sends: it names no line of the code. */
export function verdictOf(open, result) {
  const { problem, differs, events } = result;
  const parted = differs ?? (Number.isInteger(problem?.at) ? [problem.at, problem.code] : null);
  return {
    id: open.id,
    matched: !problem && !differs,
    events,
    differs: parted ? [Math.min(parted[0], events), squareOf(parted[1])] : null,
    problem: problem?.why ?? null,
  };
}

/** Return the tally as CSV: one anonymous row a verdict. */
export function verdictsCsv(open, tally) {
  // Column names, as the questions' and the tournament's CSVs have: a spreadsheet's keys, not words.
  const rows = [["exercise", "rows", "cols", "start", "matched", "events", "parted_at_event", "square", "problem"]];
  const name = (square) => squareName(square, open.rows, open.cols);
  for (const [matched, events, at, square, problem] of tally.verdicts) {
    rows.push([open.exercise, open.rows, open.cols, name(open.start), matched ? "yes" : "no", events,
      at === null ? "" : at + 1, square === null ? "" : name(square), problem ?? ""]);
  }
  return rows.map((row) => row.join(",")).join("\r\n") + "\r\n";
}

/**
 * Return the exercise's actions on store over server (the main lane's connection); limits: the
 * server's, whose lab.verdictEvery is the fewest seconds between two verdicts of one page.
 */
export function createExercise(store, server, limits) {
  const state = () => store.state.exercise;
  const set = (patch) => store.update({ exercise: patch });
  const told = (answer) => {
    if (!answer.ok && !answer.timedOut) set({ note: refusal(answer) });
    return answer.ok;
  };
  const every = limits.lab.verdictEvery * 1000;
  let sentAt = -Infinity, waiting = null, latest = null;

  /** Take the exercise open (or none), with its tally and the codes shown where the server gives
   * them (a claim's answer). */
  function take(open, tally = null, codes = null) {
    if (open?.id !== state().open?.id) {
      clearTimeout(waiting);
      waiting = latest = null;
      set({ codes: [] });
    }
    set({ open: open ?? null, note: null, ...(tally && tally.id === open?.id ? { tally } : {}) });
    if (codes) shown(codes);
  }

  /** Keep the codes students showed the instructor ([{id, number, code}]) of the exercise open,
   * each under its number, in place of any shown under it before. */
  function shown(codes) {
    const kept = codes.filter(({ id }) => id === state().open?.id).map(({ number, code }) => ({ number, code }));
    if (!kept.length) return;
    const numbers = new Set(kept.map(({ number }) => number));
    set({ codes: [...state().codes.filter((each) => !numbers.has(each.number)), ...kept]
      .sort((a, b) => a.number - b.number) });
  }

  /** Send the latest verdict, now if the last went long enough ago, else once it may. */
  async function flush() {
    waiting = null;
    const verdict = latest;
    if (!verdict || verdict.id !== state().open?.id) return;
    const wait = sentAt + every - performance.now();
    if (wait > 0) { waiting = setTimeout(flush, wait); return; }
    latest = null;
    sentAt = performance.now();
    const answer = await server.request("exercise_verdict", verdict);
    if (answer.ok) set({ sent: verdict.id, note: null });
    else if (refusal(answer).id === "refusal.exercise.too_soon" && !latest) { latest = verdict; waiting = setTimeout(flush, every); }
    else told(answer);
  }

  return {
    /** The instructor's page asks the class for the exercise chosen, on its board. */
    async ask() {
      const { rows, cols, start } = store.state.settings;
      const exercise = limits.lab.exercises.find((each) => each.id === state().choice);
      const board = exercise?.board ?? { rows, cols, start };
      const answer = await server.request("exercise_open", { exercise: state().choice, ...board });
      if (told(answer)) {
        const { id, sent, matched, differ, stopped, heat, verdicts } = answer;
        set({ open: answer.exercise, last: null, tally: { id, sent, matched, differ, stopped, heat, verdicts }, note: null });
      }
    },
    async close() {
      const open = state().open;
      if (open && told(await server.request("exercise_close", { id: open.id }))) set({ open: null, last: open, note: null });
    },
    choose(id) { set({ choice: id }); },
    /** Return the exercise open now, or null. */
    open: () => state().open,
    /** Download the verdicts of the exercise asked last, as CSV. */
    results() {
      const { tally } = state(), open = state().open ?? state().last;
      if (!tally || !open) return;
      download(`knights-tour-exercise-${open.exercise}.csv`, new Blob([verdictsCsv(open, tally)], { type: "text/csv" }));
    },
    /** A student's page shows the instructor its student's code, under a number. */
    async show(code) {
      const open = state().open;
      if (!open) return;
      if (told(await server.request("exercise_show", { id: open.id, code }))) set({ shown: open.id, note: null });
    },
    /** Return the code shown under number, or null. */
    shownCode: (number) => state().codes.find((each) => each.number === number)?.code ?? null,
    /** A student's check of their code ended: its verdict goes to the instructor, in its turn. */
    checked(result) {
      const open = state().open;
      if (!open || store.state.klass.role !== "student") return;
      latest = verdictOf(open, result);
      if (!waiting) flush();
    },
    /** Take the exercise a class's state names, as a page joins or leads it again. */
    take,
    forget() { clearTimeout(waiting); waiting = latest = null; set({ ...NO_EXERCISE, choice: state().choice }); },
    news: {
      exercise_opened: take,
      exercise_closed: ({ id }) => { if (state().open?.id === id) set({ open: null, last: state().open, note: null }); },
      exercise_count: (tally) => { if (tally.id === state().open?.id) set({ tally }); },
      exercise_code: (code) => shown([code]),
    },
  };
}
