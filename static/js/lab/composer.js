// The ordering composer: a draft ordering the student edits key by key or as its written form,
// names, and uses; an ordering used is kept in the browser's library (orderings/library.js).
import { t } from "../words/i18n.js";
import { checkName, keep, nameIn, saveLibrary, tidyForm } from "../orderings/library.js";
import { NAMED, OrderError, parseOrder, writtenForm } from "../orderings/orderings.js";

/**
 * The composer's state: library, the orderings kept ([{form, name}]); draft, the written form
 * being composed ("" for no keys); typed, a written form typed that is none (kept so that it can
 * be mended), else null; name, the name typed for it; note, the last word on it ({id, params} or
 * null).
 */
export function initialComposer(library, order, neverTie) {
  return { library, draft: draftOf(order, neverTie), typed: null, name: nameIn(library, order) ?? "", note: null };
}

/** Tell whether a name is taken: a named ordering's (in the page's language, or its own name), or
 * a kept ordering's other than form's. */
export function nameTaken(name, form, library) {
  const same = (other) => other.toLowerCase() === name.toLowerCase();
  return Object.keys(NAMED).some((named) => same(named) || same(t(`order.${named}`)))
    || library.some((kept) => kept.form !== form && same(kept.name));
}

/** Return the draft that shows an ordering (a name or written form) key by key: none for a page's
 * ordering whose one key never ties (naive, random; neverTie is the server's list), since every
 * key a student adds after it would decide nothing. */
export function draftOf(order, neverTie) {
  if (!Object.hasOwn(NAMED, order)) return order;
  return neverTie.includes(parseOrder(order)[0].name) ? "" : NAMED[order];
}

/** Return a draft's keys, [{name, descending}] ("" has none; one typed may have at most maxKeys). */
export function draftKeys(draft, maxKeys = Infinity) {
  return draft === "" ? [] : parseOrder(draft, maxKeys);
}

/**
 * Return the draft after one change: {add: key} appends a key (ascending, unless the draft has
 * maxKeys already), {flip: i} sorts key i the other way, {raise: i} moves it up one place,
 * {remove: i} takes it out.
 */
export function edit(draft, change, maxKeys) {
  const keys = draftKeys(draft);
  if ("add" in change) {
    if (keys.length >= maxKeys || keys.some(({ name }) => name === change.add)) return draft;
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
  const limits = () => store.state.limits; // the server's: keys an ordering has, letters its name

  return {
    /** Make one change to the draft (see edit). */
    edit(change) {
      const { maxKeys } = limits();
      const draft = edit(state().draft, change, maxKeys);
      const full = "add" in change && draft === state().draft && draftKeys(draft).length >= maxKeys;
      set({ draft, typed: null, note: full ? { id: "composer.full", params: { n: maxKeys } } : null });
    },

    /**
     * Take a typed written form as the draft, or keep the text and say why it is no ordering
     * (quietly, while the student is still typing it: no word until they are done).
     */
    type(text, quietly = false) {
      const typed = text.replace(/\s+/g, "");
      try {
        draftKeys(typed, limits().maxKeys);
        set({ draft: typed, typed: null, note: null });
      } catch (error) {
        if (!(error instanceof OrderError)) throw error;
        const why = { id: error.id, params: error.params };
        set(quietly ? { typed: text } : { typed: text, note: { id: "composer.badForm", params: { typed: text, why } } });
      }
    },

    /** Take the name typed, or say what a name may be. */
    rename(text) {
      const { maxOrderName } = limits();
      const name = checkName(text, maxOrderName);
      if (name === null) set({ note: { id: "composer.badName", params: { n: maxOrderName } } });
      else if (nameTaken(name, tidyForm(state().draft || "moves"), state().library)) {
        set({ note: { id: "composer.nameTaken", params: { name } } });
      } else set({ name, note: null });
    },

    /** Show an ordering chosen elsewhere (the ordering field) in the composer. */
    show(order) {
      set({ draft: draftOf(order, store.state.limits.neverTie), typed: null, name: nameIn(state().library, order) ?? "", note: null });
    },

    /** Search with the draft, and keep it (with its name) in the library unless the page names it. */
    use() {
      const { draft, name, library } = state();
      const form = tidyForm(draft || "moves");
      if (form === null) return;
      // A student following a class keeps it, to enter in the class's tournament: the board is the class's.
      const following = store.state.klass.role === "student";
      // tidyForm gave the page's own name for its form: it is not kept again, under another name.
      if (Object.hasOwn(NAMED, form)) {
        set({ name: "", note: { id: following ? "composer.isNamedFollowing" : "composer.isNamed", params: { form } } });
      } else {
        const kept = keep(library, form, name);
        saveLibrary(kept);
        set({ library: kept, note: { id: following ? "composer.keptFollowing" : "composer.used", params: { form } } });
      }
      playback.change({ order: form });
    },
  };
}
