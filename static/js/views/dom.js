// Writing to the page only what changed. The views render on every frame while a search
// streams, and text written again, even the same, makes the browser lay out and paint anew.

/** Set el's text, unless it already reads so. */
export function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
}
