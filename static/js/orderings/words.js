// How the page words an ordering: its name, each of its keys, and what it does.
import { t } from "../words/i18n.js";
import { nameIn } from "./library.js";
import { NAMED, idleFrom, namedOrder, parseOrder } from "./orderings.js";

// What each named ordering does, in words of its own.
const NOTES = {
  naive: "order.naiveNote",
  warnsdorff: "order.warnsdorffNote",
  "warnsdorff-roth": "order.rothNote",
  random: "order.randomNote",
};

/** Return an ordering's name: a named one's (translated), a kept one's (library), else its written form. */
export function orderLabel(order, library) {
  const named = namedOrder(order);
  return Object.hasOwn(NAMED, named) ? t(`order.${named}`) : nameIn(library, order) ?? order;
}

/** Return a key of an ordering in words: "fewest onward moves first". */
export function keyWords({ name, descending }) {
  return t(`orderKey.${name}.${descending ? "desc" : "asc"}`);
}

/** Return what an ordering does, in words; the keys after one in neverTie are said to decide nothing. */
export function orderNote(order, neverTie) {
  const named = namedOrder(order);
  if (Object.hasOwn(NOTES, named)) return t(NOTES[named]);
  const keys = parseOrder(order);
  const idle = idleFrom(keys, neverTie);
  const words = (some) => some.map(keyWords).join(t("order.then"));
  if (idle === keys.length) return t("order.customNote", { keys: words(keys) });
  return t("order.idleNote", { keys: words(keys.slice(0, idle)), idle: words(keys.slice(idle)) });
}

/** Return the words that a key decides nothing, since blocker, a key above it, never ties. */
export function idleWords(blocker) {
  return t("order.idleKey", { key: keyWords(blocker) });
}
