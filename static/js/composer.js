// The ordering composer: a draft ordering the student edits key by key or as its written form,
// names, and uses; an ordering used is kept in the browser's library (library.js).
import { MAX_NAME, checkName, keep, nameIn, saveLibrary, tidyForm } from "./library.js";
import { MAX_KEYS, NAMED, parseOrder, writtenForm } from "./orderings.js";

/**
 * The composer's state: library, the orderings kept ([{form, name}]); draft, the written form
 * being composed ("" for no keys); name, the name typed for it; note, the last word on it
 * ({id, params} or null).
 */
export function initialComposer(library, order) {
  return { library, draft: draftOf(order), name: nameIn(library, order) ?? "", note: null };
}

/** Return the draft that shows an ordering (a name or written form) key by key. */
export function draftOf(order) {
  return Object.hasOwn(NAMED, order) ? NAMED[order] : order;
}

/** Return a draft's keys, [{name, descending}] ("" has none). */
export function draftKeys(draft) {
  return draft === "" ? [] : parseOrder(draft);
}

/**
 * Return the draft after one change: {add: key} appends a key (ascending), {flip: i} sorts key i
 * the other way, {raise: i} moves it up one place, {remove: i} takes it out.
 */
export function edit(draft, change) {
  const keys = draftKeys(draft);
  if ("add" in change) {
    if (keys.length >= MAX_KEYS || keys.some(({ name }) => name === change.add)) return draft;
    keys.push({ name: change.add, descending: false });
  } else if ("flip" in change) {
    keys[change.flip] = { ...keys[change.flip], descending: !keys[change.flip].descending };
  } else if ("raise" in change && change.raise > 0) {
    const i = change.raise;
    [keys[i - 1], keys[i]] = [keys[i], keys[i - 1]];
  } else if ("remove" in change) {
    keys.splice(change.remove, 1);
  }
  return writtenForm(keys);
}

/** Return the composer's actions on store; playback changes the settings. */
export function createComposer(store, playback) {
  const state = () => store.state.orderings;
  const set = (patch) => store.update({ orderings: patch });

  return {
    /** Make one change to the draft (see edit). */
    edit(change) {
      const draft = edit(state().draft, change);
      const full = "add" in change && draft === state().draft && draftKeys(draft).length >= MAX_KEYS;
      set({ draft, note: full ? { id: "composer.full", params: { n: MAX_KEYS } } : null });
    },

    /** Take a typed written form as the draft, or say why it is none. */
    type(text) {
      const typed = text.replace(/\s+/g, "");
      try {
        draftKeys(typed);
        set({ draft: typed, note: null });
      } catch (error) {
        set({ note: { id: "composer.badForm", params: { typed: text, why: error.message } } });
      }
    },

    /** Take the name typed, or say what a name may be. */
    rename(text) {
      const name = checkName(text);
      set(name === null ? { note: { id: "composer.badName", params: { n: MAX_NAME } } } : { name, note: null });
    },

    /** Show an ordering chosen elsewhere (the ordering field) in the composer. */
    show(order) {
      set({ draft: draftOf(order), name: nameIn(state().library, order) ?? "", note: null });
    },

    /** Search with the draft, and keep it (with its name) in the library unless the page names it. */
    use() {
      const { draft, name, library } = state();
      const form = tidyForm(draft || "moves");
      if (form === null) return;
      const named = Object.hasOwn(NAMED, form); // tidyForm gave the page's own name for its form
      const kept = named ? library : keep(library, form, name);
      if (!named) saveLibrary(kept);
      set({ library: kept, note: { id: "composer.used", params: { form, name } } });
      playback.change({ order: form });
    },
  };
}
