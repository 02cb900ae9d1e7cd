// Writing to the page only what changed. The views render on every frame while a search
// streams, and text written again, even the same, makes the browser lay out and paint anew.

/** Set a field's value, but not while the user types in it: it keeps their text until they leave it. */
export function setValue(input, value) {
  if (document.activeElement !== input || input.type === "range" || input.type === "checkbox") input.value = value;
}

/** Set el's text, unless it already reads so. */
export function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
}
