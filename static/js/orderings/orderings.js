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

/** Return u's moves in an order shuffled by the seed and the square alone (the engine's shuffle). */
function shuffle(moves, seed, u) {
  const order = [...moves];
  let h = mix32((seed ^ mix32(u + 1)) >>> 0);
  for (let i = order.length - 1; i > 0; i--) {
    h = mix32((h + i) >>> 0);
    const j = h % (i + 1);
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}

// The page's orderings and their written forms: keys, comma-separated, a "-" sorting one the
// other way; each decides between the moves the keys before it tie on (server/engine/orderings.py).
export const NAMED = { naive: "index", warnsdorff: "onward", "warnsdorff-roth": "onward,-centre", random: "random" };

// Keys of a square alone: its value on a rows x cols board (start: the start square's number).
const SQUARE_KEYS = {
  index: (w) => w,
  centre: (w, { rows, cols }) => {
    const r = Math.floor(w / cols), c = w % cols;
    return (r - (rows - 1) / 2) ** 2 + (c - (cols - 1) / 2) ** 2;
  },
  start: (w, { cols, start = 0 }) => {
    const r = Math.floor(w / cols), c = w % cols, r0 = Math.floor(start / cols), c0 = start % cols;
    return (r - r0) ** 2 + (c - c0) ** 2;
  },
  edge: (w, { rows, cols }) => {
    const r = Math.floor(w / cols), c = w % cols;
    return Math.min(r, c, rows - 1 - r, cols - 1 - c);
  },
  corner: (w, { rows, cols }) => {
    const r = Math.floor(w / cols), c = w % cols;
    return Math.max(Math.min(r, rows - 1 - r), Math.min(c, cols - 1 - c));
  },
};
// Keys of a move from u: its place in u's own list.
const MOVE_KEYS = {
  moves: (moves, u) => moves[u],
  random: (moves, u, { seed = 0 }) => shuffle(moves[u], seed, u),
};
// Keys that read the path.
const PATH_KEYS = {
  onward: freeMoves,
  pohl: (moves, onPath, w) => {
    let sum = 0;
    for (const x of moves[w]) {
      if (onPath[x]) continue;
      for (const y of moves[x]) if (!onPath[y] && y !== w) sum += 1;
    }
    return sum;
  },
};
export const KEYS = [...Object.keys(SQUARE_KEYS), ...Object.keys(MOVE_KEYS), ...Object.keys(PATH_KEYS)];
// Keys that read squares' places on a board: the example graph has none.
const BOARD_KEYS = new Set(["centre", "start", "edge", "corner"]);

/** What is wrong with a written form: a message id of the page's words, and its values. */
export class OrderError extends Error {
  constructor(id, params = {}) {
    super(id);
    this.id = id;
    this.params = params;
  }
}

/** Return an ordering's keys as {name, descending}, from its name or written form; throw an
 * OrderError saying what is wrong with it, as the engine's parse() does (maxKeys: the server's
 * limit, for what a user typed or a link carries). */
export function parseOrder(order, maxKeys = Infinity) {
  if (typeof order !== "string") throw new OrderError("order.notText");
  const parts = (Object.hasOwn(NAMED, order) ? NAMED[order] : order).split(",");
  if (parts.length > maxKeys) throw new OrderError("order.tooMany", { n: maxKeys, count: parts.length });
  const keys = [];
  for (const part of parts) {
    const name = part.startsWith("-") ? part.slice(1) : part;
    if (name === "") throw new OrderError("order.emptyKey");
    if (!KEYS.includes(name)) throw new OrderError("order.unknownKey", { key: name, keys: KEYS.join(", ") });
    if (keys.some((key) => key.name === name)) throw new OrderError("order.twice", { key: name });
    keys.push({ name, descending: name !== part });
  }
  return keys;
}

/** Return an ordering's written form, from its keys ({name, descending}). */
export function writtenForm(keys) {
  return keys.map(({ name, descending }) => (descending ? `-${name}` : name)).join(",");
}

/** Return the place of an ordering's first key that decides nothing (keys.length if each decides):
 * the one after its first key in neverTie (the server's list of keys that leave no two moves tied). */
export function idleFrom(keys, neverTie) {
  const first = keys.findIndex(({ name }) => neverTie.includes(name));
  return first < 0 ? keys.length : first + 1;
}

/** Return an ordering's keys, or null if order is no ordering's name or written form (of at most
 * maxKeys keys). */
export function keysOf(order, maxKeys = Infinity) {
  try {
    return parseOrder(order, maxKeys);
  } catch {
    return null;
  }
}

/** Return the name of the page's ordering whose written form order is, else order itself. */
export function namedOrder(order) {
  return Object.keys(NAMED).find((name) => NAMED[name] === order) ?? order;
}

/** Tell whether an ordering tries first the moves with the fewest onward moves (Warnsdorff's rule). */
export function fewestOnwardFirst(order) {
  const first = keysOf(order)?.[0];
  return first?.name === "onward" && !first.descending;
}

/** Tell whether an ordering has a key that reads squares' places on a board. */
export function needsBoard(order) {
  return (keysOf(order) ?? []).some(({ name }) => BOARD_KEYS.has(name));
}

/** Tell whether an ordering has the key shuffled by the seed. */
export function usesSeed(order) {
  return (keysOf(order) ?? []).some(({ name }) => name === "random");
}

/** Return the order in which the search tries the moves from u, given the squares on the path
 * when u was reached (onPath), exactly as the engine's ordering of that name or written form:
 * every move if no key reads the path, else the moves off the path. options: {rows, cols, seed,
 * start}. */
export function orderMoves(order, moves, onPath, u, options = {}) {
  const { keys, readsPath } = parsed(order);
  if (!readsPath) {
    // The same for a square whatever the path: worked out once (a call stack asks for every
    // square of the path, at every frame).
    const { seed = 0, start = 0 } = options;
    if (fixed.order !== order || fixed.moves !== moves || fixed.seed !== seed || fixed.start !== start) {
      Object.assign(fixed, { order, moves, seed, start, lists: [] });
    }
    fixed.lists[u] ??= sortMoves(keys, [...moves[u]], moves, onPath, u, options);
    return fixed.lists[u].slice();
  }
  return sortMoves(keys, moves[u].filter((w) => !onPath[w]), moves, onPath, u, options);
}

// The lists of the last ordering that does not read the path, by square (moves is the board's).
const fixed = { order: null, moves: null, seed: 0, start: 0, lists: [] };
const parsedOrders = new Map();

/** Return an ordering's keys, and whether one reads the path, parsed once. */
function parsed(order) {
  if (!parsedOrders.has(order)) {
    if (parsedOrders.size > 64) parsedOrders.clear();
    const keys = parseOrder(order);
    parsedOrders.set(order, { keys, readsPath: keys.some(({ name }) => name in PATH_KEYS) });
  }
  return parsedOrders.get(order);
}

function sortMoves(keys, tries, moves, onPath, u, options) {
  const valued = keys.map(({ name, descending }) => {
    const sign = descending ? -1 : 1;
    if (name in SQUARE_KEYS) {
      const of = SQUARE_KEYS[name];
      return descending ? (w) => -of(w, options) : (w) => of(w, options);
    }
    if (name in MOVE_KEYS) {
      const place = new Map(MOVE_KEYS[name](moves, u, options).map((w, at) => [w, at]));
      return (w) => sign * place.get(w);
    }
    const of = PATH_KEYS[name];
    return descending ? (w) => -of(moves, onPath, w) : (w) => of(moves, onPath, w);
  });
  // Array.prototype.sort is stable: ties after the last key keep the move order, as the engine's.
  if (valued.length === 1) {
    const value = new Map(tries.map((w) => [w, valued[0](w)]));
    return tries.sort((a, b) => value.get(a) - value.get(b));
  }
  if (valued.length === 2) {
    const [first, second] = valued;
    const value = new Map(tries.map((w) => [w, [first(w), second(w)]]));
    return tries.sort((a, b) => {
      const x = value.get(a), y = value.get(b);
      return x[0] - y[0] || x[1] - y[1];
    });
  }
  const value = new Map(tries.map((w) => [w, valued.map((key) => key(w))]));
  return tries.sort((a, b) => {
    const [x, y] = [value.get(a), value.get(b)];
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i] - y[i];
    return 0;
  });
}
