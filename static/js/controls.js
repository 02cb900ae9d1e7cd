// The page's run states as a table: what each action leads to and what each control shows.

const TRANSITIONS = {
  idle: { play: "playing", step: "paused" },
  playing: { pause: "paused", step: "paused", finish: "finished", reset: "idle" },
  paused: { play: "playing", step: "paused", finish: "finished", reset: "idle" },
  finished: { play: "playing", step: "paused", reset: "idle" },
};

/** Return the state an action leads to (the same state if the action does not apply). */
export function next(state, action) {
  return TRANSITIONS[state][action] ?? state;
}

/** Return the label and enabled state of each control in a run state. */
export function view(state, connected) {
  return {
    play: { label: state === "playing" ? "Pause" : "Play", enabled: connected },
    step: { enabled: connected },
    reset: { enabled: state !== "idle" },
  };
}
