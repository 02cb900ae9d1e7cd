// Where a board goes in a box: its squares' size and place, and which files and ranks are
// labelled in its margin, so that no two labels overlap.
import { STYLE } from "./theme.js";
import { fileName, rankName } from "../notation.js";

const LABEL_STEPS = [1, 2, 5, 10]; // label every file (rank), or every 2nd, 5th or 10th
const EDGE = 2;                    // room above and right of the board for its outer lines

/**
 * Return where a rows x cols board goes in a width x height box: square cells of cell px, the
 * board's top-left corner at (left, top), file letters below it and rank numbers left of it in
 * type of font px, every fileStep-th file and rankStep-th rank labelled so that none overlap.
 */
export function layout(ctx, rows, cols, width, height) {
  // The type is sized from a first guess at the cells, leaving about a cell for the margin.
  const guess = Math.min(width / (cols + 1), height / (rows + 1));
  const font = Math.max(STYLE.coordinateMin, Math.min(STYLE.coordinateMax, Math.round(guess * 0.3)));
  const gap = Math.max(3, Math.round(font * 0.4));
  ctx.font = labelFont(font);
  const rankWidth = ctx.measureText(rankName(0, rows)).width; // the most digits
  let fileWidth = 0;
  for (let col = 0; col < cols; col++) fileWidth = Math.max(fileWidth, ctx.measureText(fileName(col)).width);
  const left = Math.ceil(rankWidth + 2 * gap), below = Math.ceil(font + 2 * gap);
  const fits = Math.min((width - left - EDGE) / cols, (height - below - EDGE) / rows);
  const cell = Math.max(2, Math.floor(fits));
  const step = (needed) => LABEL_STEPS.find((s) => s * cell >= needed) ?? LABEL_STEPS.at(-1);
  const fileSpace = fileWidth + gap, rankSpace = font * 1.2;
  return {
    rows, cols, cell, left, top: EDGE, font, gap,
    fileStep: step(fileSpace), rankStep: step(rankSpace), fileSpace, rankSpace,
    width: left + cols * cell + EDGE, height: EDGE + rows * cell + below,
  };
}

/** Return the centre of a square, relative to the board's top-left corner. */
export function middle(g, square) {
  return [(square % g.cols + 0.5) * g.cell, (Math.floor(square / g.cols) + 0.5) * g.cell];
}

export function labelFont(size) {
  return STYLE.quietFont.replace("{size}", size);
}
