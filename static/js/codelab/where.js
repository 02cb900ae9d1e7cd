// Where the code lab plays the page's runs: on the knight's tour board of the page's own, not a
// race, the example graph or a class's run (those are the server's).

/** Return why the lab cannot play the page's runs now (the id of the words that say so), or null. */
export function whyNotHere(state) {
  if (state.klass.role !== "none") return "lab.notInClass";
  if (state.settings.mode !== "board") return "lab.notThisMode";
  return null;
}

/** Tell whether the page's runs are the lab's: it is open, and here. */
export function labPlays(state) {
  return state.lab.open && whyNotHere(state) === null;
}
