// The code lab's inputs: opening it, the exercise, the student's typing, Stop.

/**
 * Listen to the lab's controls; lab: createLab's actions; playback: the page's run actions;
 * exercise: the class's code exercise (its board is where Check searches).
 */
export function bindLabInputs(els, lab, playback, exercise) {
  if (!els.labOpen) return; // the embed has no lab
  // On a phone the lab is far below what opened it: bring it into sight once it is drawn.
  const bringIntoSight = () => requestAnimationFrame(() => els.lab.scrollIntoView({ block: "nearest" }));
  els.labOpen.addEventListener("change", () => {
    playback.reset();
    if (!els.labOpen.checked) {
      lab.close();
      return;
    }
    lab.open();
    bringIntoSight();
  });
  els.labExercise.addEventListener("change", () => {
    playback.reset();
    lab.choose(els.labExercise.value);
  });
  els.labCode.addEventListener("input", () => lab.edit(els.labCode.value));
  // The shown copy scrolls with what is typed.
  els.labCode.addEventListener("scroll", () => {
    els.labShown.scrollTop = els.labGutter.scrollTop = els.labCode.scrollTop;
    els.labShown.scrollLeft = els.labCode.scrollLeft;
  });
  // Tab indents, as in an editor; Escape then Tab leaves the field, for the keyboard's users.
  let escaped = false;
  els.labCode.addEventListener("keydown", (event) => {
    if (event.key === "Escape") { escaped = true; return; }
    if (event.key === "Tab" && !escaped && !event.shiftKey && !els.labCode.readOnly) {
      event.preventDefault();
      document.execCommand("insertText", false, "    ");
    }
    escaped = false;
  });
  els.labStop.addEventListener("click", () => (els.labCheck.hidden ? playback.reset() : lab.uncheck()));
  els.labParting.addEventListener("click", () => playback.seek(lab.parting()));
  // A class's student opens the lab on the exercise their instructor asked for.
  els.exerciseGo.addEventListener("click", () => {
    const open = exercise.open();
    if (!open) return;
    lab.take(open.exercise);
    bringIntoSight();
  });
  els.labShow.addEventListener("click", () => exercise.show(els.labCode.value));
  // The instructor opens a code a student showed them, to read it on the projector or check it.
  els.exerciseCodes.addEventListener("click", (event) => {
    const open = exercise.open(), code = exercise.shownCode(Number(event.target.closest("button")?.value));
    if (!open || code === null) return;
    lab.take(open.exercise);
    lab.edit(code);
    bringIntoSight();
  });
  els.labCheck.addEventListener("click", () => {
    const open = exercise.open();
    if (open) lab.check({ rows: open.rows, cols: open.cols, start: open.start });
  });
}
