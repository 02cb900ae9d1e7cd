// The keyboard shortcuts. Each key names the control it works, and works only when that control
// is enabled (the same answer the buttons show), whatever has the focus, except a text field.

// The heading (summary) that the pointer last opened or closed, while it keeps the focus.
let clicked = null;

/** Return true when the key belongs to the focused element: a field being typed in, a list, or a part of its own. */
function typing(target) {
  // A part of the page marked so (the composer, the strip, the tournament) takes its own keys:
  // Space presses its buttons and opens it, as on any page; but a heading opened with a click
  // keeps the focus, not the keyboard: there the shortcuts go on (Enter still opens it).
  if (target === clicked) return false;
  if (target.closest?.("[data-own-keys]")) return true;
  const field = target.closest?.("input, select, textarea, dialog, [contenteditable]");
  if (!field) return false;
  // Sliders and check boxes take no typing: the shortcuts go on working on them.
  return !(field.tagName === "INPUT" && ["range", "checkbox", "radio"].includes(field.type));
}

/**
 * Listen for the shortcuts: keys maps a key to [control name, action]; enabled(name) says
 * whether that control is enabled now.
 */
export function listenForShortcuts(keys, enabled) {
  document.addEventListener("pointerdown", (event) => { clicked = event.target.closest?.("summary") ?? null; }, true);
  document.addEventListener("focusin", (event) => { if (event.target !== clicked) clicked = null; });
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || typing(event.target)) return;
    if (!Object.hasOwn(keys, event.key)) return;
    const [control, action] = keys[event.key];
    // Taken from the focused button or slider either way, so Space never presses it too.
    event.preventDefault();
    if (enabled(control)) action();
  });
  // A button pressed with Space clicks on the key's release: the shortcut has had it already.
  document.addEventListener("keyup", (event) => {
    if (event.key === " " && !typing(event.target)) event.preventDefault();
  });
}
