// The orderings a student composed and named, newest first, kept in the browser: each is
// {form, name}, its written form (orderings.js) and the name the student gave it.
import { keysOf, namedOrder, writtenForm } from "./orderings.js";
import { recall, remember } from "../storage.js";

const KEPT = "knights-tour:orderings";
export const MAX_KEPT = 12;
// A name: letters (any script), digits, spaces and a few marks; no markup, no control characters.
const NAME = /^[\p{L}\p{N}][\p{L}\p{N} _.'+-]*$/u;

/** Return name trimmed if it is a name an ordering may have (of at most maxName letters, the
 * server's limit), else null ("" is no name). */
export function checkName(name, maxName) {
  const trimmed = String(name ?? "").trim().replace(/\s+/g, " ");
  return trimmed.length <= maxName && (trimmed === "" || NAME.test(trimmed)) ? trimmed : null;
}

/** Return the written form of an ordering's keys with a trailing plain "moves" left out (it
 * changes nothing), or null if order is no written form (of at most maxKeys keys). */
export function tidyForm(order, maxKeys = Infinity) {
  const keys = keysOf(order, maxKeys);
  if (!keys) return null;
  while (keys.length > 1 && keys.at(-1).name === "moves" && !keys.at(-1).descending) keys.pop();
  return namedOrder(writtenForm(keys));
}

/** Return the library with {form, name} first (replacing any of the same form), at most MAX_KEPT. */
export function keep(library, form, name) {
  return [{ form, name }, ...library.filter((each) => each.form !== form)].slice(0, MAX_KEPT);
}

/** Return the library with the composed ordering a link named (link: fromLink's), unless it names it already. */
export function linkedLibrary(library, link) {
  const { settings: { order }, name } = link;
  return name && !nameIn(library, order) ? keep(library, order, name) : library;
}

/** Return the library this browser kept (what is not a valid entry, by the server's limits, is dropped). */
export function loadLibrary({ maxKeys, maxOrderName }) {
  let kept;
  try {
    kept = JSON.parse(recall(KEPT) ?? "[]");
  } catch {
    kept = [];
  }
  if (!Array.isArray(kept)) return [];
  return kept.filter((each) => keysOf(each?.form, maxKeys) && checkName(each?.name, maxOrderName) !== null)
    .map(({ form, name }) => ({ form, name: checkName(name, maxOrderName) })).slice(0, MAX_KEPT);
}

/** Keep the library in this browser. */
export function saveLibrary(library) {
  remember(KEPT, JSON.stringify(library));
}

/** Return the name of the library's entry for order, or null. */
export function nameIn(library, order) {
  return library.find((each) => each.form === order)?.name || null;
}

