// What leaves the page: the tour as JSON or in algebraic notation, and the board as a PNG.
import { squareName } from "./notation.js";

function download(name, blob) {
  const a = Object.assign(document.createElement("a"), { href: URL.createObjectURL(blob), download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

/**
 * Save the current tour (or path) as kind "json", "notation" or "png" (image() gives the PNG's
 * blob); resolve with the message id saying what was saved.
 */
export async function exportTour(kind, model, run, image) {
  const { rows, cols } = model;
  const name = `knights-tour-${rows}x${cols}-from-${squareName(model.path[0] ?? run.start, rows, cols)}`;
  const squares = model.path.map((s) => squareName(s, rows, cols));
  const complete = model.path.length === model.squares;
  if (kind === "json") {
    const tour = { rows, cols, start: run.start, order: run.order, closed: run.closed, complete,
                   path: model.path, notation: squares };
    download(`${name}.json`, new Blob([JSON.stringify(tour, null, 2)], { type: "application/json" }));
    return complete ? "share.savedJson" : "share.savedJsonPartial";
  }
  if (kind === "notation") {
    download(`${name}.txt`, new Blob([`${squares.join(" ")}\n`], { type: "text/plain" }));
    return complete ? "share.savedNotation" : "share.savedNotationPartial";
  }
  download(`${name}.png`, await image());
  return "share.savedPng";
}
