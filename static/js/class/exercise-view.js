// The class's code exercise in the class panel: the instructor's choice, Ask, the tally and its
// CSV; a student's word of the exercise asked, and the way to it in the code lab.
import { t } from "../words/i18n.js";
import { setText } from "../dom.js";
import { boardWords } from "../codelab/lab-view.js";

/** Return the words of the instructor's tally. */
function tallyWords(tally, students) {
  if (!tally) return "";
  const { sent, matched, differ, stopped } = tally;
  const share = sent ? Math.round((100 * matched) / sent) : 0;
  return t("exercise.tally", { sent, students: students ?? sent, matched, share, differ, stopped });
}

export function createExerciseView(els, limits) {
  let shownLanguage = null;
  return {
    render(state) {
      const { exercise, klass } = state;
      if (shownLanguage !== state.view.language) {
        els.exerciseChoice.replaceChildren(...limits.lab.exercises.map((each) => new Option(t(`lab.exercise.${each.id}`), each.id)));
        shownLanguage = state.view.language;
      }
      if (els.exerciseChoice.value !== exercise.choice) els.exerciseChoice.value = exercise.choice;
      const { open, last, tally, note } = exercise;
      const shown = open ?? last;
      const asked = shown ? t("exercise.leadAsked", { exercise: t(`lab.exercise.${shown.exercise}`), board: boardWords(shown) }) : "";
      const said = note && klass.role === "instructor" ? t(note.id, note.params) : "";
      setText(els.exerciseTally, [asked, tally && shown ? tallyWords(tally, klass.students) : "", said].filter(Boolean).join(" "));
      // Asked again, the same exercise starts afresh: its verdicts so far go.
      // On the projector: how the class does, in the bar beside the board.
      const projected = klass.role === "instructor" && open && tally?.id === open.id ? tallyWords(tally, klass.students) : "";
      els.presenterExercise.hidden = !projected;
      setText(els.presenterExercise, projected);
      setText(els.exerciseAsk, t(!open ? "exercise.ask" : open.exercise === exercise.choice ? "exercise.askAfresh"
        : "exercise.askAgain"));
      els.exerciseClose.hidden = !open;
      els.exerciseResults.hidden = !tally?.sent;
      // The codes students showed, each under its number: a button opens it in the code lab.
      const codes = klass.role === "instructor" && open ? exercise.codes : [];
      const named = codes.map(({ number }) => t("exercise.code", { n: number })).join("\n");
      if (named !== els.exerciseCodes.dataset.named) {
        els.exerciseCodes.replaceChildren(...codes.map(({ number }) => Object.assign(document.createElement("button"),
          { type: "button", textContent: t("exercise.code", { n: number }), value: String(number) })));
        els.exerciseCodes.dataset.named = named;
      }
      els.exerciseCodes.hidden = codes.length === 0;
      // A student's: the exercise asked, and what became of their verdict.
      els.exerciseFollow.hidden = !(klass.role === "student" && open);
      if (klass.role === "student" && open) {
        const sent = [exercise.sent === open.id ? t("exercise.sentNote") : "",
          exercise.shown === open.id ? t("exercise.shownNote") : ""].filter(Boolean).join(" ");
        const refused = note ? t(note.id, note.params) : "";
        setText(els.exerciseAsked, [t("exercise.studentAsked", { exercise: t(`lab.exercise.${open.exercise}`),
          board: boardWords(open) }), sent, refused].filter(Boolean).join(" "));
        els.exerciseGo.hidden = state.lab.open && state.lab.exercise === open.exercise;
      }
    },
  };
}
