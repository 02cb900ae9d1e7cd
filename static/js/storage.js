// What the page keeps in the browser: the language chosen, a class's instructor key, a
// student's voter pass. A frame on another site may be refused storage (the reader blocks
// third-party cookies); the page then works on, and forgets.

const AREAS = { local: () => window.localStorage, session: () => window.sessionStorage };

/** Return the text kept under key in area ("local" or "session"), or null. */
export function recall(key, area = "local") {
  try {
    return AREAS[area]().getItem(key);
  } catch {
    return null;
  }
}

/** Keep text under key in area ("local" or "session"); null forgets it. */
export function remember(key, text, area = "local") {
  try {
    if (text === null) AREAS[area]().removeItem(key);
    else AREAS[area]().setItem(key, text);
  } catch {
    // Storage refused: the choice lasts as long as the page.
  }
}
