// What can be known about a board before searching it: when no tour can start from a square.

/** Return why no tour can exist, as {text: message id, ...its values}, or null when one may. */
export function whyNoTour(rows, cols, start, closed) {
  const [short, long] = rows <= cols ? [rows, cols] : [cols, rows];
  const size = `${rows}x${cols}`, squares = rows * cols;
  if (short === 1 && long === 1) {
    return closed ? { text: "feasible.singleClosed" } : null;
  }
  if (closed) {
    // Schwenk's theorem: which boards have a closed tour.
    if (squares % 2) {
      return { text: "feasible.oddClosed", size, squares };
    }
    if (short === 1 || short === 2 || short === 4 || (short === 3 && [4, 6, 8].includes(long))) {
      return { text: "feasible.schwenk", size };
    }
    return null;
  }
  if (short === 1 || short === 2 || (short === 3 && [3, 5, 6].includes(long)) || (short === 4 && long === 4)) {
    return { text: "feasible.none", size };
  }
  const row = Math.floor(start / cols), col = start % cols;
  if (squares % 2 && (row + col) % 2) {
    return { text: "feasible.colour", size };
  }
  return null;
}
