// The page's run states as a table: what each action leads to and what each control shows.

const TRANSITIONS = {
  idle: { play: "playing", step: "paused", skip: "skipping" },
  playing: { pause: "paused", step: "paused", skip: "skipping", finish: "finished", reset: "idle" },
  paused: { play: "playing", step: "paused", skip: "skipping", finish: "finished", reset: "idle" },
  skipping: { pause: "paused", finish: "finished", reset: "idle" },
  finished: { play: "playing", step: "paused", skip: "skipping", reset: "idle" },
};

/** Return the state an action leads to (the same state if the action does not apply). */
export function next(state, action) {
  return TRANSITIONS[state][action] ?? state;
}

/** Return the label and enabled state of each control in a run state. */
export function view(state, connected) {
  const skipping = state === "skipping";
  return {
    play: { label: state === "playing" ? "Pause" : "Play", enabled: connected && !skipping },
    step: { enabled: connected && !skipping },
    skip: { label: skipping ? "Cancel skip" : "Skip to end", enabled: connected },
    reset: { enabled: state !== "idle" },
  };
}
