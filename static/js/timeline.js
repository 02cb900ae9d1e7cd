// Every event received so far (up to a limit), so the view can step back and scrub.

const FOUND = 0x7fffffff; // "found" stored among the integer codes of visits and backtracks

export class Timeline {
  /** Keep up to limit events; older ones are let go when more arrive. */
  constructor(limit = 4_000_000) {
    this.limit = limit;
    this.reset(0);
  }

  /** Start over, the next event received being event number first. */
  reset(first) {
    this.codes = new Int32Array(Math.min(1 << 12, this.limit));
    this.first = first; // the number of the oldest event kept
    this.head = first;  // the number of events received
  }

  /** Append received wire codes. */
  push(codes) {
    this.makeRoom(this.head - this.first + codes.length);
    let at = this.head - this.first;
    for (const code of codes) this.codes[at++] = code === "found" ? FOUND : code;
    this.head += codes.length;
  }

  makeRoom(needed) {
    const kept = this.head - this.first;
    if (needed > this.limit) {
      // Let the older half go: stepping back that far is still possible.
      const drop = Math.min(kept, Math.max(needed - this.limit, this.limit >> 1));
      this.codes.copyWithin(0, drop, kept);
      this.first += drop;
      needed -= drop;
    }
    if (needed > this.codes.length) {
      const bigger = new Int32Array(Math.min(this.limit, Math.max(needed, this.codes.length * 2)));
      bigger.set(this.codes.subarray(0, this.head - this.first));
      this.codes = bigger;
    }
  }

  /** Return the wire code of event number n (0-based), which must be kept. */
  at(n) {
    const code = this.codes[n - this.first];
    return code === FOUND ? "found" : code;
  }
}
