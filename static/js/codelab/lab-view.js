// The code lab's panel: the student's code (highlighted, numbered, its line lit as the search
// runs it), the exercise, and what Python and the last run said.
import { squareName } from "../notation.js";
import { t } from "../words/i18n.js";
import { setText } from "../dom.js";
import { exerciseOf } from "./lab.js";
import { whyNotHere } from "./where.js";
import { highlighted } from "./python-colours.js";

/** Return an event's words: "visited c3", "backtracked from c3", "found a tour". */
function eventWords(code, rows, cols) {
  if (code === null || code === undefined) return t("lab.event.none");
  if (code === "found") return t("lab.event.found");
  return code >= 0 ? t("lab.event.visit", { square: squareName(code, rows, cols) })
    : t("lab.event.backtrack", { square: squareName(-code - 1, rows, cols) });
}

/** Return the words of a board: "5x5 from a5". */
export const boardWords = ({ rows, cols, start }) => t("exercise.board", { rows, cols, square: squareName(start, rows, cols) });

/** Return what the lab says of its last run's end, from its result. */
export function verdictOf(result, exercise, rows, cols) {
  const order = t(`lab.order.${exercise.id}`);
  const { problem, differs } = result;
  if (problem) {
    const square = Number.isInteger(problem.code) ? squareName(problem.code >= 0 ? problem.code : -problem.code - 1, rows, cols) : "";
    const where = problem.line ? t("lab.line", { line: problem.line }) : "";
    return { ok: false, text: `${where}${t(problem.why, { at: (problem.at ?? 0) + 1, square, squares: rows * cols, text: problem.text })}` };
  }
  if (!differs) return { ok: true, text: t("lab.matches", { order, n: result.events }) };
  const [at, yours, theirs] = differs;
  if (yours == null) return { ok: false, text: t("lab.endedEarly", { order, at, theirs: eventWords(theirs, rows, cols) }) };
  if (theirs == null) return { ok: false, text: t("lab.wentOn", { order, at: at + 1, yours: eventWords(yours, rows, cols) }) };
  return { ok: false, text: t("lab.differs", { order, at: at + 1, yours: eventWords(yours, rows, cols),
    theirs: eventWords(theirs, rows, cols) }) };
}

/** Return the line of the student's code that made the event shown (0: none known). */
function litLine(state, lane) {
  const code = lane.lastShown();
  const { lines } = state.lab;
  if (code === null) return 0;
  return (code === "found" || code >= 0 ? lines.visit : lines.backtrack) ?? 0;
}

/** Scroll the editor so that line lit (1-based; 0 for none) is in sight. */
function keepInSight(els, lit) {
  const line = els.labShown.children[lit - 1];
  if (!line) return;
  const box = els.labCode, top = line.offsetTop, bottom = top + line.offsetHeight;
  if (top < box.scrollTop || bottom > box.scrollTop + box.clientHeight) {
    box.scrollTop = Math.max(0, top - box.clientHeight / 3);
    els.labShown.scrollTop = els.labGutter.scrollTop = box.scrollTop;
  }
}

export function createLabView(els, limits) {
  if (!els.lab) return { render() {} }; // the embed has no lab
  let shownCode = null, shownLit = -1, shownLanguage = null, shownOpen = null;
  return {
    render(state, runs) {
      const { lab, settings } = state;
      // While the lab plays the page's runs, the code panel is the student's: the engine's lines
      // are not theirs. Elsewhere (a class, a race), the runs and their code panel are the server's.
      const elsewhere = lab.open ? whyNotHere(state) : null;
      // In a class, the student checks their code on the class's exercise, off the board (and the
      // instructor a code a student showed them).
      const exercising = state.klass.role !== "none" ? state.exercise.open : null;
      const open = `${lab.open} ${elsewhere}`;
      if (open !== shownOpen) { // on every frame of a run: only what changed is written
        els.lab.hidden = !lab.open;
        els.labOpen.checked = lab.open;
        els.codePanel.hidden = lab.open && !elsewhere;
        shownOpen = open;
      }
      if (!lab.open) return;
      const exercise = exerciseOf(limits, lab.exercise);
      if (shownLanguage !== state.view.language) {
        els.labExercise.replaceChildren(...limits.lab.exercises.map((each) => new Option(t(`lab.exercise.${each.id}`), each.id)));
        shownLanguage = state.view.language;
      }
      els.labExercise.value = exercise.id;
      setText(els.labTask, t(`lab.task.${exercise.id}`));
      if (els.labCode.value !== lab.code && document.activeElement !== els.labCode) els.labCode.value = lab.code;
      const running = !elsewhere && state.run.status !== "idle" && state.run.status !== "finished";
      els.labCode.readOnly = running;
      const lit = !elsewhere && (running || state.run.status === "finished") ? litLine(state, runs.main) : 0;
      if (shownCode !== lab.code || shownLit !== lit) {
        els.labShown.replaceChildren(...highlighted(lab.code, lit));
        els.labGutter.textContent = lab.code.split("\n").map((_, i) => i + 1).join("\n");
        shownCode = lab.code;
        shownLit = lit;
        keepInSight(els, lit);
      }
      els.labStop.disabled = !running && !lab.checking;
      els.labExercise.disabled = Boolean(elsewhere);
      els.labCheck.hidden = !exercising;
      els.labShow.hidden = !exercising || state.klass.role !== "student";
      els.labCheck.disabled = lab.checking || lab.status === "failed";
      const board = exercising ?? settings;
      const status = lab.checking ? t("lab.checking", { board: boardWords(board) })
        : exercising && lab.status !== "failed" ? t(lab.status === "loading" ? "lab.loading" : "lab.exerciseHere")
        : elsewhere ? t(elsewhere)
        : lab.status === "loading" ? t("lab.loading")
        : lab.status === "failed" ? t("lab.failed", { text: lab.text ?? "" })
          : running && lab.quiet && state.run.status === "playing" ? t("lab.quiet", { s: 2 })
            : running ? t("lab.readOnly")
              : lab.status === "ready" ? t(lab.canHold ? "lab.ready" : "lab.unheld") : "";
      setText(els.labStatus, status);
      const verdict = lab.result ? verdictOf(lab.result, exercise, board.rows, board.cols) : null;
      setText(els.labVerdict, verdict?.text ?? "");
      // Where the two searches part: the board as it was just before, to see both moves from there.
      const parting = lab.result?.differs?.[0];
      els.labParting.hidden = Boolean(exercising) || !Number.isInteger(parting) || parting > runs.main.timeline.head;
      if (!els.labParting.hidden) setText(els.labParting, t("lab.parting", { at: parting + 1 }));
      els.labVerdict.className = `lab-verdict${verdict ? (verdict.ok ? " ok" : " differs") : ""}`;
      const printed = lab.result?.output ?? [];
      els.labPrinted.hidden = printed.length === 0;
      setText(els.labOutput, printed.join("\n"));
    },
  };
}
