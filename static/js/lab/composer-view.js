// The ordering composer: the draft's keys, first to last, each with its buttons; the keys that
// can still be added; its written form and name as the student typed them; the last word on it.
import { draftKeys } from "./composer.js";
import { t } from "../words/i18n.js";
import { idleWords, keyWords, orderLabel } from "../orderings/words.js";
import { idleFrom, writtenForm } from "../orderings/orderings.js";
import { setText, setValue } from "../dom.js";

/** Return the composer's last word, in words. */
function noteWords(note, library) {
  if (!note) return "";
  const { params = {} } = note;
  if (params.why) return t(note.id, { ...params, why: t(params.why.id, params.why.params) });
  if (params.form) return t(note.id, { name: orderLabel(params.form, library) });
  return t(note.id, params);
}

/** Return a button of a key's row: change is flip, raise or remove; at, the key's place. */
function rowButton(change, at, key, enabled = true) {
  const button = document.createElement("button");
  button.type = "button";
  Object.assign(button.dataset, { change, at: String(at) });
  button.textContent = t(`composer.${change}`);
  button.setAttribute("aria-label", t(`composer.${change}Label`, { key: keyWords(key) }));
  button.disabled = !enabled;
  return button;
}

/** Return the composer's view. */
export function createComposerView(els) {
  let shown = "";
  let refocus = null; // the button pressed in a row that was drawn again: its row's place and change
  // A row's button pressed: the rows are drawn again, and the focus goes to its new place.
  els.composerKeys.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-change]");
    if (button) refocus = { change: button.dataset.change, at: Number(button.dataset.at) };
  });

  /** Give the focus back where a row's button left it: on the key moved, or on the row now in its place. */
  function focusAgain(count) {
    if (!refocus) return;
    const { change, at } = refocus;
    refocus = null;
    const place = change === "raise" ? Math.max(0, at - 1) : Math.min(at, count - 1);
    const wanted = change === "raise" && place > 0 ? "raise" : change === "raise" ? "flip" : change;
    const button = els.composerKeys.querySelector(`button[data-at="${place}"][data-change="${wanted}"]`);
    (button ?? els.composerKey).focus();
  }

  let shownFrom = [];
  function render(state) {
    // The composer reads its own state and the language alone: a playing search's frames leave it be.
    const from = [state.orderings, state.view.language];
    if (from.every((part, i) => part === shownFrom[i])) return;
    shownFrom = from;
    const { draft, typed, name, note, library } = state.orderings;
    const keys = draftKeys(draft);
    const idle = idleFrom(keys, state.limits.neverTie);
    const key = JSON.stringify([draft, state.view.language]);
    if (key !== shown) {
      shown = key;
      els.composerKeys.replaceChildren(...keys.map((each, i) => {
        const item = document.createElement("li");
        const words = document.createElement("span");
        words.className = "composer-words";
        // Its part of the written form beside its words: the form is learnt by reading both.
        const code = document.createElement("code");
        code.textContent = writtenForm([each]);
        words.append(`${keyWords(each)} `, code);
        if (i >= idle) {
          // A key below one that never ties: it stays in the draft, said to decide nothing.
          item.classList.add("composer-idle");
          const why = document.createElement("span");
          why.className = "composer-idle-why";
          why.textContent = idleWords(keys[idle - 1]);
          words.append(" ", why);
        }
        item.append(words, rowButton("flip", i, each), rowButton("raise", i, each, i > 0), rowButton("remove", i, each));
        return item;
      }));
      focusAgain(keys.length);
      // A key is in an ordering once: those in the draft cannot be added again.
      for (const option of els.composerKey.options) option.disabled = keys.some((k) => k.name === option.value);
      if (els.composerKey.selectedOptions[0]?.disabled) {
        const free = [...els.composerKey.options].find((option) => !option.disabled);
        if (free) els.composerKey.value = free.value;
      }
    }
    els.composerEmpty.hidden = keys.length > 0;
    els.composerAdd.disabled = keys.length >= state.limits.maxKeys;
    setValue(els.composerForm, typed ?? draft);
    setValue(els.composerName, name);
    setText(els.composerNote, noteWords(note, library));
  }

  return { render };
}
