// The offline badge: on every page, instructor's, student's or solo, while its connection to
// the server is down, or from the moment a stopping server says goodbye.

/** Return the offline badge's view. */
export function createOfflineView(els) {
  function render(state) {
    // Not while first connecting: the status line says so, and the page has nothing to lose yet.
    els.offline.hidden = state.connection !== "down" && !state.server?.stopping;
  }

  return { render };
}
