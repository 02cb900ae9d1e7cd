// The board's moves and the search's orderings, as the server's engine has them, so the page
// can show which moves the search will try next.

// The textbook's move order; each square lists its moves in this order.
const MOVES = [[-1, -2], [-1, 2], [-2, -1], [-2, 1], [1, -2], [1, 2], [2, -1], [2, 1]];

/** Return each square's knight moves, in the textbook's order. */
export function knightMoves(rows, cols) {
  const moves = [];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      moves.push(MOVES.filter(([dr, dc]) => r + dr >= 0 && r + dr < rows && c + dc >= 0 && c + dc < cols)
        .map(([dr, dc]) => (r + dr) * cols + c + dc));
    }
  }
  return moves;
}

/** Count a square's moves to squares not on the path. */
export function freeMoves(moves, onPath, square) {
  let free = 0;
  for (const w of moves[square]) if (!onPath[w]) free += 1;
  return free;
}

function mix32(x) {
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d) >>> 0;
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b) >>> 0;
  return (x ^ (x >>> 16)) >>> 0;
}

// Each ordering returns the squares the search will try from u, in order, given the squares
// on the path when u was reached (onPath) - exactly as the engine's ordering of that name.
const ORDERS = {
  naive: (moves, onPath, u) => [...moves[u]].sort((a, b) => a - b),
  warnsdorff: (moves, onPath, u) => {
    const free = moves[u].filter((w) => !onPath[w]);
    const count = new Map(free.map((w) => [w, freeMoves(moves, onPath, w)]));
    return free.sort((a, b) => count.get(a) - count.get(b)); // stable, like the engine's
  },
  "warnsdorff-roth": (moves, onPath, u, { rows, cols }) => {
    const free = moves[u].filter((w) => !onPath[w]);
    const midR = (rows - 1) / 2, midC = (cols - 1) / 2;
    const key = new Map(free.map((w) => {
      const r = Math.floor(w / cols), c = w % cols;
      return [w, [freeMoves(moves, onPath, w), -((r - midR) ** 2 + (c - midC) ** 2)]];
    }));
    return free.sort((a, b) => key.get(a)[0] - key.get(b)[0] || key.get(a)[1] - key.get(b)[1]);
  },
  random: (moves, onPath, u, { seed }) => {
    const order = [...moves[u]];
    let h = mix32((seed ^ mix32(u + 1)) >>> 0);
    for (let i = order.length - 1; i > 0; i--) {
      h = mix32((h + i) >>> 0);
      const j = h % (i + 1);
      [order[i], order[j]] = [order[j], order[i]];
    }
    return order;
  },
};

/** Return the order in which the search tries the moves from u. */
export function orderMoves(order, moves, onPath, u, options) {
  return ORDERS[order](moves, onPath, u, options);
}
