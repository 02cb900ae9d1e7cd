// What can be known about a board before searching it: when no tour can start from a square.

/** Return why no tour can exist, as {text, ...values} for t(), or null when one may. */
export function whyNoTour(rows, cols, start, closed) {
  const [short, long] = rows <= cols ? [rows, cols] : [cols, rows];
  const size = `${rows}x${cols}`, squares = rows * cols;
  if (short === 1 && long === 1) {
    return closed ? { text: "A single square has no move to close a tour with." } : null;
  }
  if (closed) {
    // Schwenk's theorem: which boards have a closed tour.
    if (squares % 2) {
      return { text: "A closed tour alternates light and dark squares, so it needs an even number of squares; the {size} board has {squares}.", size, squares };
    }
    if (short === 1 || short === 2 || short === 4 || (short === 3 && [4, 6, 8].includes(long))) {
      return { text: "The {size} board has no closed tour at all (Schwenk's theorem).", size };
    }
    return null;
  }
  if (short === 1 || short === 2 || (short === 3 && [3, 5, 6].includes(long)) || (short === 4 && long === 4)) {
    return { text: "The {size} board has no knight's tour from any square.", size };
  }
  const row = Math.floor(start / cols), col = start % cols;
  if (squares % 2 && (row + col) % 2) {
    return { text: "Every move changes the colour of the square, and the {size} board has one more square of the corners' colour, so a tour must start on a square whose row + column is even; this one's is odd.", size };
  }
  return null;
}
