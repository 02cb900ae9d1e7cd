// The ordering composer: the draft's keys, first to last, each with its buttons; the keys that
// can still be added; its written form and name as the student typed them; the last word on it.
import { draftKeys } from "../composer.js";
import { t } from "../i18n.js";
import { keyWords, orderLabel } from "../order-words.js";
import { MAX_KEYS } from "../orderings.js";
import { setText } from "./dom.js";

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
  const setValue = (input, value) => {
    if (document.activeElement !== input) input.value = value; // not while the student types
  };

  let shown = "";
  function render(state) {
    const { draft, name, note, library } = state.orderings;
    const keys = draftKeys(draft);
    const key = JSON.stringify([draft, state.view.language]);
    if (key !== shown) {
      shown = key;
      els.composerKeys.replaceChildren(...keys.map((each, i) => {
        const item = document.createElement("li");
        const words = document.createElement("span");
        words.className = "composer-words";
        words.textContent = keyWords(each);
        item.append(words, rowButton("flip", i, each), rowButton("raise", i, each, i > 0), rowButton("remove", i, each));
        return item;
      }));
      // A key is in an ordering once: those in the draft cannot be added again.
      for (const option of els.composerKey.options) option.disabled = keys.some((k) => k.name === option.value);
      if (els.composerKey.selectedOptions[0]?.disabled) {
        const free = [...els.composerKey.options].find((option) => !option.disabled);
        if (free) els.composerKey.value = free.value;
      }
    }
    els.composerEmpty.hidden = keys.length > 0;
    els.composerAdd.disabled = keys.length >= MAX_KEYS;
    setValue(els.composerForm, draft);
    setValue(els.composerName, name);
    const params = note?.id === "composer.used" ? { name: orderLabel(note.params.form, library) } : note?.params;
    setText(els.composerNote, note ? t(note.id, params) : "");
  }

  return { render };
}
