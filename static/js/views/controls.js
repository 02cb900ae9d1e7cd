// The controls: every button's label and enabled state, and every form field's value, set from
// the page's state (a change waiting for confirmation shows its values).
import { controls } from "../controls.js";
import { t } from "../words/i18n.js";
import { squareName } from "../notation.js";
import { orderLabel, orderNote } from "../orderings/words.js";
import { NAMED, fewestOnwardFirst, usesSeed } from "../orderings/orderings.js";
import { setText, setValue } from "../dom.js";

/** Return the controls' view. */
export function createControlsView(els, limits) {
  let shownMarks = "";
  /** Show the bookmarks as ticks on the timeline and as a list of moments to go to. */
  function renderMarks(marks, language) {
    const key = JSON.stringify([marks, language]);
    if (key === shownMarks) return;
    shownMarks = key;
    els.timelineMarks.replaceChildren(...marks.map(({ at, label }) => new Option(label, String(at))));
    els.marks.replaceChildren(...marks.map(({ at, label }) => {
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.at = String(at);
      button.textContent = t("class.markAt", { label, at });
      item.append(button);
      return item;
    }));
    els.marksBox.hidden = marks.length === 0;
  }

  let shownKept = "";
  /** List the orderings the student kept (and one a link brought) in the ordering fields. */
  function renderKept(s, library, language) {
    const extra = [s.order, s.versus]
      .filter((order) => !Object.hasOwn(NAMED, order) && !library.some((kept) => kept.form === order));
    const kept = [...library.map(({ form }) => form), ...new Set(extra)];
    const key = JSON.stringify([kept, library, language]);
    if (key === shownKept) return;
    shownKept = key;
    for (const group of [els.orderKept, els.versusKept]) {
      group.label = t("order.kept");
      group.hidden = kept.length === 0;
      group.replaceChildren(...kept.map((form) => new Option(orderLabel(form, library), form)));
    }
  }

  let shownOrdering = [];
  /** Show the ordering fields' choices, labels and note, and the seed's field when it applies. */
  function renderOrdering(s, library, language) {
    // Worked out from the settings, the kept orderings and the language: not again at each frame of a run.
    if ([s, library, language].every((part, i) => part === shownOrdering[i])) return;
    shownOrdering = [s, library, language];
    renderKept(s, library, language);
    const racing = s.mode === "race";
    els.versusField.hidden = !racing;
    setText(els.orderLabel, t(racing ? "search.orderFirst" : "search.order"));
    setText(els.versusLabel, t("search.versus"));
    setText(els.orderNote, orderNote(s.order, limits.neverTie) +
      (s.closed && fewestOnwardFirst(s.order) ? ` ${t("order.closedNote")}` : ""));
    els.seedField.hidden = !usesSeed(s.order) && !(racing && usesSeed(s.versus));
  }

  function render(state, runs) {
    const c = controls(state, runs);
    for (const name of ["play", "step", "back", "skip", "reset", "mark"]) els[name].disabled = !c[name].enabled;
    els.live.hidden = !c.live.enabled;
    setText(els.play, t(c.play.label));
    els.play.setAttribute("aria-pressed", String(c.play.pressed));
    setText(els.skip, t(c.skip.label));
    for (const part of [els.boardSetup, els.searchSetup, els.mode]) part.disabled = !c.setup.enabled;
    els.speed.disabled = !c.speed.enabled;
    els.exportPng.disabled = !c.png.enabled;

    const s = state.pending?.settings ?? state.settings;
    setValue(els.rows, String(s.rows));
    setValue(els.cols, String(s.cols));
    if (document.activeElement !== els.start) {
      els.start.value = s.mode === "example" ? state.example.names[s.start] : squareName(s.start, s.rows, s.cols);
    }
    renderOrdering(s, state.orderings.library, state.view.language);
    // The fields show the settings again at each frame: a choice the page did not take goes back.
    els.order.value = s.order;
    els.versus.value = s.versus;
    setValue(els.seed, String(s.seed));
    els.closed.checked = s.closed;
    els.allTours.checked = s.allTours;
    setValue(els.budget, s.budget === null ? "" : String(s.budget));
    for (const radio of els.mode.querySelectorAll("input")) radio.checked = radio.value === s.mode;

    const step = limits.speeds.indexOf(state.settings.speed);
    if (step >= 0) els.speed.value = String(step);
    const speed = state.settings.speed;
    setText(els.speedOut, speed ? t("control.speedValue", { n: speed }) : t("control.fastest"));

    const main = runs.main;
    const { first, head } = main.timeline;
    els.timeline.disabled = !c.timeline.enabled;
    // The slider spans the whole run; events before the first one kept cannot be reached.
    els.timeline.max = String(head);
    els.timeline.value = String(main.model.events);
    const at = main.model.events;
    // Just after a skip's jump: what the skip searched without sending is summed up in its count.
    const jumped = main.earlier.findLast((part) => part.head < at);
    const from = main.earlier.find((part) => part.first <= at && at <= part.head)?.first ?? first;
    els.timelineOut.textContent = at === from && jumped
      ? t("control.timelineSkipped", { at, head, n: at - jumped.head })
      : at === from && at > 0 ? t("control.timelineFrom", { at, head })
        : t("control.timelineValue", { at, head });

    renderMarks(state.marks, state.view.language);

    const noteText = (note) => (note ? t(note.id, note.params) : "");
    setText(els.boardNote, noteText(state.notes.board));
    setText(els.shareNote, noteText(state.notes.share));

    els.hints.checked = state.view.hints;
    els.degrees.checked = state.view.degrees;
    els.lesson.checked = state.view.lesson;
    els.lines.checked = state.view.lines;
    for (const radio of document.querySelectorAll("input[name=side]")) radio.checked = radio.value === state.view.side;
    els.language.value = state.view.language;

    const body = document.body.dataset;
    body.status = state.run.status;
    body.mode = state.settings.mode;
    body.lesson = String(state.view.lesson);
    body.leading = String(state.klass.role === "instructor");
    body.presenter = String(state.klass.presenter && state.klass.role === "instructor");
    body.chooseStart = String(c.chooseStart.enabled);
    body.answering = String(c.answer.enabled);
  }

  return { render };
}
