// The settings of a run as the page keeps them, their limits (which the server's page states),
// and the address that sets them up again: every value a link brings is checked.
import { checkName, nameIn, tidyForm } from "./orderings/library.js";
import { parseSquare } from "./notation.js";
import { NAMED } from "./orderings/orderings.js";

const MODES = ["board", "race", "example"];
// A class's ticket, as the server signs them: its nonce, a dot, and the signature.
const TICKET = /^[\w-]{8}\.[\w-]{32}$/;
// Modes a link may still carry under an earlier name: links shared before keep working.
const FORMER_MODES = new Map([["compare", "race"]]);

// The orderings a race runs when its link names only one (as links did before races of any two).
const FORMER_RACE = { order: "naive", versus: "warnsdorff" };

/** Return the ordering a race runs on its first board (the settings' ordering) or its second. */
export function raceOrder(settings, first) {
  return first ? settings.order : settings.versus;
}
const LINK_KEYS = ["class", "ticket", "mode", "rows", "cols", "start", "order", "versus", "name", "seed", "closed", "all",
  "budget", "speed", "code"];

/**
 * Return the limits the server put in the page: board sides, seeds, budgets, speeds, orderings,
 * the example graph; a class's bookmarks (maxMarks, maxLabel), questions in a series (maxSeries)
 * and codes (classCode: {alphabet, length}).
 */
export function readLimits(doc) {
  return JSON.parse(doc.getElementById("limits").textContent);
}

/** Return the number of squares (or vertices) of the settings' board or graph. */
export function squares(settings, example) {
  return settings.mode === "example" ? example.names.length : settings.rows * settings.cols;
}

/** Return the settings a page starts with, before its address is read. */
export function defaultSettings(limits) {
  return {
    mode: "board", rows: 5, cols: 5, start: 0, order: limits.orders[0], versus: FORMER_RACE.versus,
    closed: false, allTours: false,
    budget: null, speed: limits.defaultSpeed, seed: Math.floor(Math.random() * 1e6), // shown, for repeat runs
  };
}

/**
 * Return settings with a link's values (those that are valid) in place; its class (code, and
 * the ticket that proves the link came from the class, or null); and the values it gave that
 * were not used, as "key=value" texts.
 */
export function fromLink(search, settings, limits) {
  const params = new URLSearchParams(search);
  const ignored = [];
  const get = (key) => (params.has(key) ? params.get(key) : null);
  /** Return value if ok; else note the link's value of key as not used, and return fallback. */
  const take = (key, ok, value, fallback) => {
    if (ok) return value;
    if (get(key) !== null) ignored.push(`${key}=${get(key)}`);
    return fallback;
  };
  const int = (key, low, high, fallback) => {
    const raw = get(key);
    const value = raw !== null && /^\d{1,10}$/.test(raw) ? Number(raw) : NaN;
    return take(key, value >= low && value <= high, value, fallback);
  };
  // Only values in the lists themselves count: never a property every object has, like "constructor".
  const pick = (key, list, fallback) => take(key, list.includes(get(key)), get(key), fallback);
  const yes = (key) => take(key, ["true", "false"].includes(get(key)), get(key) === "true", false);
  const rows = int("rows", 1, limits.maxSide, settings.rows);
  const cols = int("cols", 1, limits.maxSide, settings.cols);
  const mode = FORMER_MODES.get(get("mode")) ?? pick("mode", MODES, settings.mode);
  const names = limits.example.names;
  const count = mode === "example" ? names.length : rows * cols;
  // The start as the page writes it (c3, or a vertex's letter), or as its number.
  const raw = get("start") ?? "";
  const named = mode === "example" ? names.indexOf(raw.toUpperCase()) : parseSquare(raw, rows, cols);
  const start = named >= 0 ? named : int("start", 0, count - 1, 0);
  // A speed as the page writes it: "speed=" or "speed=3e1" is no speed (Number() would read 0 and 30).
  const speed = limits.speeds.find((each) => String(each) === get("speed"));
  // An ordering by name, or by its written form (the page's names stand for their own forms).
  const order = (key, fallback) => {
    const form = tidyForm(get(key) ?? "", limits.maxKeys);
    return take(key, form !== null, form, fallback);
  };
  const formerRace = get("mode") !== null && mode === "race" && get("versus") === null;
  const next = {
    mode, rows, cols, start,
    order: formerRace ? FORMER_RACE.order : order("order", settings.order),
    versus: formerRace ? FORMER_RACE.versus : order("versus", settings.versus),
    seed: int("seed", 0, limits.maxSeed, settings.seed),
    closed: yes("closed"),
    allTours: yes("all"),
    budget: int("budget", 1, limits.maxBudget, null),
    speed: take("speed", speed !== undefined, speed, settings.speed),
  };
  // A class code as the server makes them: its length, of its letters and digits; read in capitals.
  const code = (get("class") ?? "").toUpperCase();
  const { alphabet, length } = limits.classCode;
  const classCode = take("class", code.length === length && [...code].every((c) => alphabet.includes(c)), code, null);
  const ticket = take("ticket", classCode !== null && TICKET.test(get("ticket") ?? ""), get("ticket"), null);
  // The name a student gave a composed ordering, so that the link brings it back under that name.
  const name = checkName(get("name") ?? "", limits.maxOrderName);
  const composed = !Object.hasOwn(NAMED, next.order) && next.order === tidyForm(get("order") ?? "", limits.maxKeys);
  const ordered = take("name", Boolean(name) && composed, name, null);
  // The code lab open on an exercise (codelab/lab.js): its name, or the first for any other.
  const lab = get("code") === null ? null : get("code");
  return { settings: next, klass: classCode && { code: classCode, ticket }, name: ordered, lab, ignored };
}

/** Return the page's address for its settings (and the class it is in, {code, ticket}, if any; the
 * library, to name a composed ordering as its student named it; the code lab's exercise, if open). */
export function toLink(settings, klass, library = [], exercise = null) {
  const values = {
    class: klass?.code, ticket: klass?.ticket, mode: settings.mode, rows: settings.rows, cols: settings.cols, start: settings.start,
    order: settings.order, name: nameIn(library, settings.order), versus: settings.mode === "race" ? settings.versus : null, seed: settings.seed,
    closed: settings.closed, all: settings.allTours,
    budget: settings.budget, speed: settings.speed, code: exercise,
  };
  const params = new URLSearchParams();
  for (const key of LINK_KEYS) {
    const value = values[key];
    if (value !== false && value !== null && value !== undefined) params.set(key, String(value));
  }
  // Commas stay commas: an ordering reads onward,-centre in the address, as it is written.
  return `?${params}`.replaceAll("%2C", ",");
}
