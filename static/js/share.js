// What leaves the page: the link that sets it up again, the tour as JSON or in algebraic
// notation, the board as a PNG image, and the code shown beside the board.

/** The search as the page shows it: short Python in the textbook's spirit. */
export const CODE = [
  "def tour(path, square, limit):",
  "    path.append(square)     # gray",
  "    if len(path) == limit:",
  "        return True         # a tour",
  "    for move in ordered(square):",
  "        if move not in path:",
  "            if tour(path, move, limit):",
  "                return True",
  "    path.pop()              # white",
  "    return False",
];

/** Return the line of CODE (1-based) that produced an event, 0 for none. */
export function codeLine(code) {
  if (code === null || code === undefined) return 0;
  if (code === "found") return 4;
  return code >= 0 ? 2 : 9;
}

function file(col) {
  const letter = (n) => String.fromCharCode(97 + n);
  return col < 26 ? letter(col) : letter(Math.floor(col / 26) - 1) + letter(col % 26);
}

/** Return a square's name in algebraic notation: files a, b, ... from the left, rank 1 at the bottom. */
export function notation(square, rows, cols) {
  return `${file(square % cols)}${rows - Math.floor(square / cols)}`;
}

function download(name, blob) {
  const a = Object.assign(document.createElement("a"), { href: URL.createObjectURL(blob), download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

/** Save the current tour (or path) as kind "json", "notation" or "png"; return what was done. */
export function exportTour(kind, model, run, canvas) {
  const { rows, cols } = model;
  const name = `knights-tour-${rows}x${cols}-from-${model.path[0] ?? run.start}`;
  const squares = model.path.map((s) => notation(s, rows, cols));
  const complete = model.path.length === model.squares;
  if (kind === "json") {
    const tour = { rows, cols, start: run.start, order: run.order, closed: run.closed, complete,
                   path: model.path, notation: squares };
    download(`${name}.json`, new Blob([JSON.stringify(tour, null, 2)], { type: "application/json" }));
    return complete ? "The tour was saved as JSON." : "The path so far (not a full tour) was saved as JSON.";
  }
  if (kind === "notation") {
    download(`${name}.txt`, new Blob([`${squares.join(" ")}\n`], { type: "text/plain" }));
    return complete ? "The tour was saved in algebraic notation." : "The path so far was saved in algebraic notation.";
  }
  canvas.toBlob((blob) => download(`${name}.png`, blob), "image/png");
  return "The board was saved as a PNG image.";
}

const LINK_KEYS = ["class", "mode", "rows", "cols", "start", "order", "seed", "closed", "all", "budget", "speed"];

/** Put the page's settings in its address, so that the address sets it up again. */
export function writeLink(state) {
  const params = new URLSearchParams();
  for (const key of LINK_KEYS) {
    const value = state[key];
    if (value !== "" && value !== false && value !== null && value !== undefined) params.set(key, String(value));
  }
  history.replaceState(null, "", `${location.pathname}?${params}`);
}

/** Return the settings in the page's address (numbers and flags decoded), or null. */
export function readLink() {
  const params = new URLSearchParams(location.search);
  if (![...params.keys()].length) return null;
  const state = {};
  for (const key of LINK_KEYS) {
    if (!params.has(key)) continue;
    const raw = params.get(key);
    state[key] = raw === "true" ? true : /^\d+$/.test(raw) ? Number(raw) : raw;
  }
  return state;
}
