// What leaves the page: the tour as JSON or in algebraic notation, and the board as a PNG (the
// clips of the search leave by the same door: see clips/actions.js).
import { squareName } from "./notation.js";

/** Save blob as a file called name, as the browser saves downloads. */
export function download(name, blob) {
  const a = Object.assign(document.createElement("a"), { href: URL.createObjectURL(blob), download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

/** Return the name, without its extension, of a file of a run's board: knights-tour-5x5-from-a5. */
export function exportName(model, run) {
  const { rows, cols } = model;
  return `knights-tour-${rows}x${cols}-from-${squareName(model.path[0] ?? run.start, rows, cols)}`;
}

/**
 * Save the current tour (or path) as kind "json", "notation" or "png" (image() gives the PNG as
 * {blob, width, height}); resolve with the message saying what was saved, {id, params}.
 */
export async function exportTour(kind, model, run, image) {
  const { rows, cols } = model;
  const name = exportName(model, run);
  const squares = model.path.map((s) => squareName(s, rows, cols));
  const complete = model.path.length === model.squares;
  if (kind === "json") {
    const tour = { rows, cols, start: run.start, order: run.order, closed: run.closed, complete,
                   path: model.path, notation: squares };
    download(`${name}.json`, new Blob([JSON.stringify(tour, null, 2)], { type: "application/json" }));
    return { id: complete ? "share.savedJson" : "share.savedJsonPartial" };
  }
  if (kind === "notation") {
    download(`${name}.txt`, new Blob([`${squares.join(" ")}\n`], { type: "text/plain" }));
    return { id: complete ? "share.savedNotation" : "share.savedNotationPartial" };
  }
  const { blob, width, height } = await image();
  download(`${name}.png`, blob);
  return { id: "share.savedPng", params: { width: String(width), height: String(height) } };
}
