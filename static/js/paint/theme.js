// Every colour, size and timing the board uses, in one place. Text colours keep at least 4.5:1
// contrast against the squares they are drawn on.
export const STYLE = {
  paper: "#ffffff",           // around the board, behind its coordinates
  square: "#ffffff",          // white: not on the path (the textbook's colouring)
  squareAlt: "#f4f1ea",       // faint checker so an empty board reads as a board
  gray: "#9aa1a9",            // gray: on the path
  grayText: "#14181c",
  grid: "#c9ccd1",
  start: "#1f6feb",           // ring around the chosen start square
  current: "#f2c230",         // the knight's square: yellow, and outlined
  currentEdge: "#14181c",
  backtrack: "#d7263d",       // a square the knight just left by backtracking
  backtrackMs: 650,           // how long, while playing, a backtracked square fades to white
  path: "rgba(20, 60, 140, 0.65)",
  closing: "rgba(20, 60, 140, 0.85)",
  hint: "#0b5cad",            // a move still to try, with its onward moves
  degree: "#5f6670",          // the moves from each square on an empty board: 5.8:1 on white,
                              // 5.1:1 on the checker; quieter than a hint by weight and size
  deadEnd: "#6a1b9a",         // the moves out of a dead end, and the path's squares they land on
  heat: "240, 140, 30",        // the class's answers, as an rgb its share sets the opacity of
  heatText: "#14181c",        // a count of answers, on the heat at any opacity
  rightAnswer: "#137a32",     // the square the knight really went to
  wrongAnswer: "#c2185b",     // the user's own answer, when it was another square
  myAnswer: "#4338ca",        // a student's answer to the question open, before the reveal
  coordinate: "#4b5563",      // file letters and rank numbers in the margin
  coordinateMin: 9,           // the smallest coordinate text, in px; fewer labels below that
  coordinateMax: 18,
  depthBand: "rgba(20, 60, 140, 0.3)", // the chart's range of depths over each stretch of events
  depthSkipped: "rgba(90, 100, 120, 0.14)", // the chart's stretch a skip passed over, never seen
  depthGoal: "#1f6feb",       // the chart's line at a tour's depth, and the tree's tours
  treeClosed: "#b9bec6",      // the tree's closed subtrees: lighter than its path, not only another hue
  treeLater: "#e6e8ec",       // the tree's nodes after the moment shown: lighter still
  treeParting: "#6a1b9a",     // the dashed line where a race's two trees part
  knight: "#14181c",
  knightEdge: "#ffffff",
  glideMaxMs: 260,            // the knight glides at slow speeds ...
  glideMinSpeed: 25,          // ... and jumps at this many events per second and above
  font: "600 {size}px system-ui, 'DejaVu Sans', sans-serif",
  quietFont: "400 {size}px system-ui, 'DejaVu Sans', sans-serif",
};
