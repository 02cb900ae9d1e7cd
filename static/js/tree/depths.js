// The depths of a search tree's nodes held one by one, in the order the search made them, and
// the questions about them that the tree's shape comes down to: the first node after one that
// goes so deep or so shallow, the last before it, the lowest and highest depth of a run of nodes.
// A depth is a byte (for boards of up to 255 squares), kept in chunks with the node's square.
//
// Searches over the depths take O(log n): blocks of BLOCK << l nodes keep their lowest and
// highest depth, level by level, once they are whole.

const CHUNK_BITS = 20;         // depths are kept in chunks of a million nodes: growing copies none
const CHUNK = 1 << CHUNK_BITS;
const BLOCK_BITS = 6;          // the smallest block summed up: 64 nodes
export const BLOCK = 1 << BLOCK_BITS;

export class NodeDepths {
  /** Start over: no nodes, for a board of this many squares. */
  reset(squares) {
    this.squares = squares;
    this.Depths = squares < 256 ? Uint8Array : Uint16Array;
    this.chunks = [];
    this.squareChunks = []; // node k's square, in chunks as the depths
    this.size = 0;    // nodes
    this.exact = 0;   // nodes held one by one (with their depths): the first ones
    this.low = [];    // low[l][i]: the lowest depth of whole block i of level l (BLOCK << l nodes)
    this.high = [];
  }

  add(depth, square) {
    this.exact++;
    const k = this.size++;
    if ((k & (CHUNK - 1)) === 0) {
      this.chunks.push(new this.Depths(CHUNK));
      this.squareChunks.push(new this.Depths(CHUNK)); // a square's number is below the squares too
    }
    this.chunks[k >> CHUNK_BITS][k & (CHUNK - 1)] = depth;
    this.squareChunks[k >> CHUNK_BITS][k & (CHUNK - 1)] = square;
    // Whole blocks are summed up as they end: once every BLOCK nodes, twice as rarely a level up.
    for (let l = 0, end = k + 1; end % (BLOCK << l) === 0; l++) {
      const half = (BLOCK << l) >> 1, start = end - (BLOCK << l);
      const [low, high] = l === 0 ? this.scan(start, end) : this.pair(l - 1, start / half);
      if (!this.low[l]) {
        this.low[l] = [];
        this.high[l] = [];
      }
      this.low[l].push(low);
      this.high[l].push(high);
    }
  }

  pair(l, i) {
    return [Math.min(this.low[l][i], this.low[l][i + 1]), Math.max(this.high[l][i], this.high[l][i + 1])];
  }

  /** Return the square of node k, one of those held one by one. */
  squareOf(k) {
    return this.squareChunks[k >> CHUNK_BITS][k & (CHUNK - 1)];
  }

  /** Return node k's depth. */
  depthOf(k) {
    return this.chunks[k >> CHUNK_BITS][k & (CHUNK - 1)];
  }

  /** Return the lowest and highest depth of nodes from to to (not included), read one by one. */
  scan(from, to) {
    let low = Infinity, high = -Infinity;
    for (let k = from; k < to; k++) {
      const d = this.depthOf(k);
      if (d < low) low = d;
      if (d > high) high = d;
    }
    return [low, high];
  }

  /** Return the level of the largest whole block that starts at node k and ends by node to, or -1. */
  blockAt(k, to) {
    if (k % BLOCK) return -1;
    let l = -1;
    while ((k % (BLOCK << (l + 1))) === 0 && k + (BLOCK << (l + 1)) <= Math.min(to, this.exact)
      && this.low[l + 1] && (k >> (BLOCK_BITS + l + 1)) < this.low[l + 1].length) l++;
    return l;
  }

  /** Return the level of the largest whole block that ends at node k (not included), or -1. */
  blockBefore(k) {
    if (k % BLOCK) return -1;
    let l = -1;
    while ((k % (BLOCK << (l + 1))) === 0 && k - (BLOCK << (l + 1)) >= 0
      && this.low[l + 1] && ((k >> (BLOCK_BITS + l + 1)) - 1) < this.low[l + 1].length) l++;
    return l;
  }

  /** Return [lowest, highest] depth of the nodes from to to (not included); [Infinity, -Infinity] for none. */
  range(from, to) {
    let low = Infinity, high = -Infinity;
    for (let k = from; k < Math.min(to, this.exact);) {
      const l = this.blockAt(k, to);
      if (l < 0) {
        const d = this.depthOf(k++);
        if (d < low) low = d;
        if (d > high) high = d;
      } else {
        const i = k >> (BLOCK_BITS + l);
        if (this.low[l][i] < low) low = this.low[l][i];
        if (this.high[l][i] > high) high = this.high[l][i];
        k += BLOCK << l;
      }
    }
    return [low, high];
  }

  /** Return the first node after k held one by one whose depth is at most depth, or exact if none is. */
  nextAtMost(k, depth) {
    const found = this.first(k + 1, this.exact, (low) => low <= depth);
    return found < 0 ? this.exact : found;
  }

  /** Return the first node from k to to (not included) whose depth is at least depth, or -1. */
  nextAtLeast(k, to, depth) {
    return this.first(k, to, (low, high) => high >= depth);
  }

  /**
   * Return the first node from k to to (not included) that holds(depth, depth), or -1, where
   * holds(low, high) says whether a stretch of nodes with these depths may hold one.
   */
  first(k, to, holds) {
    for (let j = k; j < Math.min(to, this.exact);) {
      const l = this.blockAt(j, to);
      if (l < 0) {
        const d = this.depthOf(j);
        if (holds(d, d)) return j;
        j += 1;
      } else if (!holds(this.low[l][j >> (BLOCK_BITS + l)], this.high[l][j >> (BLOCK_BITS + l)])) {
        j += BLOCK << l;
      } else {
        // The node is in this block: look in its halves, first half first.
        for (let m = l - 1; m >= 0; m--) {
          const i = j >> (BLOCK_BITS + m);
          if (!holds(this.low[m][i], this.high[m][i])) j += BLOCK << m;
        }
        for (const end = j + BLOCK; j < end; j++) {
          const d = this.depthOf(j);
          if (holds(d, d)) return j;
        }
      }
    }
    return -1;
  }

  /** Return the last node before k whose depth is at most depth, or -1 if none. */
  lastAtMost(k, depth) {
    for (let j = k; j > 0;) {
      const l = this.blockBefore(j);
      if (l < 0) {
        if (this.depthOf(j - 1) <= depth) return j - 1;
        j -= 1;
      } else if (this.low[l][(j >> (BLOCK_BITS + l)) - 1] > depth) {
        j -= BLOCK << l;
      } else {
        // The node is in this block: look in its halves, second half first.
        for (let m = l - 1; m >= 0; m--) {
          if (this.low[m][(j >> (BLOCK_BITS + m)) - 1] > depth) j -= BLOCK << m;
        }
        for (const start = j - BLOCK; j > start; j--) if (this.depthOf(j - 1) <= depth) return j - 1;
      }
    }
    return -1;
  }
}
