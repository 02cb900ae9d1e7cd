// Every colour, size and timing the board uses, in one place.
export const STYLE = {
  square: "#ffffff",          // white: not on the path (the textbook's colouring)
  squareAlt: "#f4f1ea",       // faint checker so an empty board reads as a board
  gray: "#9aa1a9",            // gray: on the path
  grayText: "#14181c",
  grid: "#c9ccd1",
  start: "#1f6feb",           // ring around the chosen start square
  current: "#f2c230",         // the knight's square: yellow, and outlined
  currentEdge: "#14181c",
  backtrack: "#d7263d",       // a square the knight just left by backtracking
  backtrackMs: 650,           // how long a backtracked square keeps fading to white
  path: "rgba(20, 60, 140, 0.65)",
  closing: "rgba(20, 60, 140, 0.85)",
  hint: "#0b5cad",             // a move still to try, with its onward moves
  degree: "#a3a8ae",           // the moves from each square on an empty board
  knight: "#14181c",
  knightEdge: "#ffffff",
  glideMaxMs: 260,            // the knight glides at slow speeds ...
  glideMinSpeed: 25,          // ... and jumps at this many events per second and above
  font: "600 {size}px system-ui, 'DejaVu Sans', sans-serif",
};

// One line on each ordering the search offers, shown under the Ordering menu.
export const ORDERINGS = {
  naive: "Tries the moves in order of square number, as the textbook's first version does.",
  warnsdorff: "Warnsdorff's rule: tries first the square with the fewest onward moves.",
  "warnsdorff-roth": "Warnsdorff's rule, breaking ties toward the square furthest from the centre, " +
    "which keeps it from stalling on large boards.",
  random: "Tries the moves in a shuffled order; the same seed gives the same run.",
};
