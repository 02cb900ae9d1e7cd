// The instructor's view as the class mirrors it: what the instructor's page shows (its settings,
// the run it shows and the event it is at, its panels and bookmarks, the search tree's chosen
// node and zoom), sent at each change, and taken by each student's page unless the student is
// reviewing on their own.
import { fromLink, toLink } from "../settings.js";

const SEND_EVERY_MS = 100; // scrubbing the timeline sends at most ten views a second

/** Return the instructor page's view, as the server's 'class_view' takes it. */
export function viewOf(state, runs) {
  const { settings, view, run, marks } = state;
  const main = runs.main, shown = run.status === "idle" ? null : main.run?.run ?? null;
  const ours = (tree) => (tree && tree.run === shown ? tree : null); // of the run shown, not one before
  const node = ours(view.treeNode), span = ours(view.treeSpan);
  return {
    link: toLink(settings, null),
    run: shown,
    at: main.atHead() ? null : main.model.events,
    panels: { lesson: view.lesson, lines: view.lines, hints: view.hints, degrees: view.degrees, side: view.side },
    marks,
    tree: { node: node ? node.node : null, span: span ? { from: span.from, to: span.to, live: Boolean(span.live) } : null },
  };
}

/** Send the instructor's view whenever it changes (at most every SEND_EVERY_MS). */
export function publishView(store, runs) {
  let sent = "", timer = 0;
  const send = () => {
    timer = 0;
    const state = store.state;
    if (state.klass.role !== "instructor" || state.connection !== "up") return;
    const view = viewOf(state, runs);
    const text = JSON.stringify(view);
    if (text === sent) return;
    sent = text;
    runs.main.server.request("class_view", view);
  };
  store.subscribe((state) => {
    if (state.klass.role !== "instructor") { sent = ""; return; } // a new class gets the view afresh
    if (!timer) timer = setTimeout(send, SEND_EVERY_MS);
  });
}

/** Return the store patch that makes a student's page show an instructor's view. */
export function mirrored(view, state, limits) {
  const { settings } = fromLink(view.link, state.settings, limits);
  const { node, span } = view.tree;
  return {
    settings,
    view: {
      ...view.panels,
      treeNode: node === null ? null : { run: view.run, node },
      treeSpan: span && { run: view.run, ...span },
    },
    marks: view.marks,
  };
}
