// The state of one run, derived only from the events received: apply() and undo() each event.
// Wire codes: visit square v is v, backtrack from v is -v-1, a tour is "found".

/** Return the empty state of a run on a rows x cols board from square start. */
export function createModel(rows, cols, start, closed = false) {
  return {
    rows, cols, start, closed,
    squares: rows * cols,
    numbers: new Int32Array(rows * cols), // visit number on the path (1-based), 0 = white
    path: [],
    visits: 0,
    backtracks: 0,
    tours: 0,
    events: 0,
    lastBacktrack: -1, // the square most recently backtracked from
    justFound: false,  // the path is a tour that was just reported
  };
}

/** Apply one wire event to the state. */
export function apply(state, code) {
  state.events += 1;
  state.justFound = code === "found";
  if (code === "found") {
    state.tours += 1;
  } else if (code >= 0) {
    state.path.push(code);
    state.numbers[code] = state.path.length;
    state.visits += 1;
  } else {
    const square = -code - 1;
    state.path.pop();
    state.numbers[square] = 0;
    state.backtracks += 1;
    state.lastBacktrack = square;
  }
  return state;
}

/** Undo one wire event, the last one applied. */
export function undo(state, code) {
  state.events -= 1;
  state.justFound = false;
  if (code === "found") {
    state.tours -= 1;
  } else if (code >= 0) {
    state.path.pop();
    state.numbers[code] = 0;
    state.visits -= 1;
  } else {
    const square = -code - 1;
    state.path.push(square);
    state.numbers[square] = state.path.length;
    state.backtracks -= 1;
  }
  return state;
}

/**
 * Move the state back to event number goal, undoing the events timeline holds (its at(i) is
 * event i's code, from its first): a tour reported just before goal shows as just found.
 */
export function rewind(state, timeline, goal) {
  while (state.events > goal) undo(state, timeline.at(state.events - 1));
  state.justFound = goal > timeline.first && timeline.at(goal - 1) === "found";
  return state;
}

/** Return a copy of the state that moves on its own (apply and undo change it in place). */
export function copyModel(state) {
  return { ...state, numbers: state.numbers.slice(), path: state.path.slice() };
}

/** Return the knight's square, or -1 before the first visit. */
export function knightSquare(state) {
  return state.path.length ? state.path[state.path.length - 1] : -1;
}

/** Return the state of a run rebuilt from a server snapshot (path and counters). */
export function fromSnapshot(rows, cols, start, snapshot, closed = false) {
  const state = createModel(rows, cols, start, closed);
  snapshot.path.forEach((square, i) => { state.numbers[square] = i + 1; });
  state.path = snapshot.path.slice();
  state.visits = snapshot.visits;
  state.backtracks = snapshot.backtracks;
  state.tours = snapshot.tours;
  state.events = snapshot.events;
  return state;
}
