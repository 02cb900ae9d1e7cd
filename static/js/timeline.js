// Every event received so far (up to a limit), so the view can step back and scrub; and the depth
// of the path over the whole run, summed up in at most BUCKETS buckets, so a chart can show it at
// any point of the timeline.
//
// The depth history is a pyramid of levels: level l sums up 2^l events a bucket and holds the
// buckets of the run's first BUCKETS * 2^l events. Only the highest level grows; a lower one is
// kept as it was when it filled, so that stepping back shows exactly what going forward showed.
// A bucket cut short by the view's position is summed up again from the kept codes.

const FOUND = 0x7fffffff; // "found" stored among the integer codes of visits and backtracks
const BUCKETS = 1024;     // the most buckets depths() returns

/** Return how much the event with this stored code changes the path's depth. */
function step(code) {
  return code === FOUND ? 0 : code >= 0 ? 1 : -1;
}

/** Return the summary of a and then b, either of which may be null (no events). */
function merge(a, b) {
  if (!a || !b) return a || b;
  return {
    from: a.from, to: b.to, open: a.open, last: b.last,
    low: Math.min(a.low, b.low), high: Math.max(a.high, b.high),
  };
}

/** Return a bucket as depths() gives it. */
function shown({ from, to, low, high, last }) {
  return { from, to, low, high, last };
}

// One level of the pyramid: each bucket sums up the events from its first (from, where the depth
// is open) to its last (to), as the lowest, highest and last depth; from = -1 marks a bucket
// that a jump passed over.
class Level {
  constructor(stride) {
    this.stride = stride;
    this.count = 0; // buckets in use
    this.from = new Float64Array(BUCKETS);
    this.to = new Float64Array(BUCKETS);
    this.open = new Int32Array(BUCKETS);
    this.low = new Int32Array(BUCKETS);
    this.high = new Int32Array(BUCKETS);
    this.last = new Int32Array(BUCKETS);
  }

  /** Return bucket k's summary, or null if it is empty. */
  get(k) {
    if (this.from[k] < 0) return null;
    return {
      from: this.from[k], to: this.to[k], open: this.open[k],
      low: this.low[k], high: this.high[k], last: this.last[k],
    };
  }

  /** Store a summary (or null, for none) as bucket k. */
  set(k, sum) {
    this.from[k] = sum ? sum.from : -1;
    if (!sum) return;
    this.to[k] = sum.to;
    this.open[k] = sum.open;
    this.low[k] = sum.low;
    this.high[k] = sum.high;
    this.last[k] = sum.last;
  }
}

export class Timeline {
  /** Keep up to limit events; older ones are let go when more arrive. */
  constructor(limit = 4_000_000) {
    this.limit = limit;
    this.levels = [];
    this.reset(0);
  }

  /**
   * Start over (a new run, or a fresh start): forget the events and the depth history. The next
   * event received is event number first; before it, the path is depth squares long.
   */
  reset(first, depth = 0) {
    this.codes = new Int32Array(Math.min(1 << 12, this.limit));
    this.first = first;      // the number of the oldest event kept
    this.head = first;       // the number of events received
    this.depth = depth;      // the path's depth after head events
    this.firstDepth = depth; // ... after first events
    this.origin = first;     // where the depth history begins
    this.live = this.level(0);
    this.live.count = 0;
    this.end = first - 1;    // the last event number of the live level's last bucket
    // The events before the oldest kept one in its bucket, summed up, in the level of the
    // oldest kept event: no other level's bucket can hold both it and an event the view shows.
    this.pre = null;
    this.record(first, depth);
  }

  /**
   * Go on from a server's snapshot: the events before event number first were not received, and
   * after them the path is depth squares long. The kept events are let go; the depth history is
   * kept, as far as event number first. (A snapshot from before the oldest kept event starts over.)
   */
  jump(first, depth) {
    if (first < this.first) {
      this.reset(first, depth);
      return;
    }
    let lastBefore = this.head;
    if (first <= this.head) {
      this.truncate(first);
      lastBefore = first - 1;
    }
    this.record(first, depth);
    this.moveFirst(first, lastBefore);
    this.first = this.head = first;
    this.depth = this.firstDepth = depth;
  }

  /** Append received wire codes. */
  push(codes) {
    if (codes.length > this.limit) {
      // Room is made for at most the limit at a time.
      for (let i = 0; i < codes.length; i += this.limit) this.push(codes.slice(i, i + this.limit));
      return;
    }
    this.makeRoom(this.head - this.first + codes.length);
    let at = this.head - this.first, n = this.head, depth = this.depth;
    for (const code of codes) {
      const stored = code === "found" ? FOUND : code;
      this.codes[at++] = stored;
      depth += step(stored);
      this.record(++n, depth);
    }
    this.head = n;
    this.depth = depth;
  }

  /** Return the wire code of event number n (0-based), which must be kept. */
  at(n) {
    const code = this.codes[n - this.first];
    return code === FOUND ? "found" : code;
  }

  /** Return the path's depth after event number n, which must be kept (first to head). */
  depthAt(n) {
    const u = Math.max(this.first, Math.min(this.head, n));
    const level = this.levels[this.levelFor(u)];
    return this.partial(level, this.bucketOf(level, u), u).last;
  }

  /**
   * Return the depth history from the run's start up to event number upTo (first to head), as at
   * most BUCKETS buckets {from, to, low, high, last}: event numbers, and the lowest, highest and
   * last depth between them - the same buckets as when the view first reached upTo.
   */
  depths(upTo = this.head) {
    if (upTo < this.first) return this.wholeBuckets(upTo);
    const u = Math.max(this.first, Math.min(this.head, upTo));
    const level = this.levels[this.levelFor(u)];
    const cut = this.bucketOf(level, u);
    const buckets = [];
    for (let k = 0; k < cut; k++) {
      if (level.from[k] >= 0) buckets.push(shown(level.get(k)));
    }
    const partial = this.partial(level, cut, u);
    if (partial) buckets.push(shown(partial));
    return buckets;
  }

  /**
   * Return the history's whole buckets up to event number upTo, before the oldest kept event (a
   * view of the events a lane kept from before a jump): the codes that would finish its last
   * bucket are not here.
   */
  wholeBuckets(upTo) {
    const level = this.levels[this.levelFor(Math.max(upTo, this.origin))];
    const cut = Math.min(level.count, this.bucketOf(level, upTo)), buckets = [];
    for (let k = 0; k < cut; k++) {
      if (level.from[k] >= 0) buckets.push(shown(level.get(k)));
    }
    return buckets;
  }

  makeRoom(needed) {
    const kept = this.head - this.first;
    if (needed > this.limit) {
      // Let the older half go: stepping back that far is still possible.
      const drop = Math.min(kept, Math.max(needed - this.limit, this.limit >> 1));
      const first = this.first + drop;
      this.moveFirst(first, first - 1);
      this.firstDepth = this.collect(this.first, this.firstDepth, first, first).last;
      this.codes.copyWithin(0, drop, kept);
      this.first = first;
      needed -= drop;
    }
    if (needed > this.codes.length) {
      const bigger = new Int32Array(Math.min(this.limit, Math.max(needed, this.codes.length * 2)));
      bigger.set(this.codes.subarray(0, this.head - this.first));
      this.codes = bigger;
    }
  }

  /** Add the depth after event number n, which follows every event the history holds. */
  record(n, depth) {
    if (n > this.end) {
      this.openBucket(n, depth);
      return;
    }
    const level = this.live, k = level.count - 1;
    level.to[k] = n;
    level.last[k] = depth;
    if (depth < level.low[k]) level.low[k] = depth;
    if (depth > level.high[k]) level.high[k] = depth;
  }

  openBucket(n, depth) {
    while (n - this.origin >= BUCKETS * this.live.stride) this.levelUp();
    const level = this.live, k = this.bucketOf(level, n);
    for (let skipped = level.count; skipped < k; skipped++) level.from[skipped] = -1;
    level.set(k, { from: n, to: n, open: depth, low: depth, high: depth, last: depth });
    level.count = k + 1;
    this.end = this.origin + (k + 1) * level.stride - 1;
  }

  /** Start a level of buckets twice as long, from the live one, which stays as it is. */
  levelUp() {
    const lower = this.live, upper = this.level(this.levels.indexOf(lower) + 1);
    upper.count = Math.ceil(lower.count / 2);
    for (let k = 0; k < upper.count; k++) {
      upper.set(k, merge(lower.get(2 * k), 2 * k + 1 < lower.count ? lower.get(2 * k + 1) : null));
    }
    this.live = upper;
  }

  /** Drop the depth history from event number n on (first <= n <= head). */
  truncate(n) {
    const level = this.levels[this.levelFor(n)], k = this.bucketOf(level, n);
    const kept = this.partial(level, k, n - 1);
    level.count = k;
    if (kept) level.set(level.count++, kept);
    this.live = level;
    this.end = this.origin + level.count * level.stride - 1;
  }

  /**
   * Before event number first becomes the oldest kept one, while the codes from the current
   * oldest on are still kept, sum up the events of its bucket that come before it: the history
   * holds them up to lastBefore (first - 1, or earlier after a gap).
   */
  moveFirst(first, lastBefore) {
    const level = this.levels[this.levelFor(first)];
    const start = this.origin + this.bucketOf(level, first) * level.stride;
    this.pre = start <= this.first
      ? merge(this.pre, this.collect(this.first, this.firstDepth, this.first, lastBefore))
      : this.collect(this.first, this.firstDepth, start, lastBefore);
  }

  /**
   * Return the summary of bucket k's events up to event number upTo (at least first - 1), or
   * null if it has none.
   */
  partial(level, k, upTo) {
    const whole = k < level.count ? level.get(k) : null;
    if (!whole || whole.to <= upTo) return whole;
    if (whole.from > upTo) return null;
    if (whole.from >= this.first) return this.collect(whole.from, whole.open, whole.from, upTo);
    // The bucket holds the oldest kept event: what came before it is summed up in pre.
    return merge(this.pre, this.collect(this.first, this.firstDepth, this.first, upTo));
  }

  /**
   * Return the summary of the events from number from to number to (or null if to < from),
   * replaying the kept codes from event number start (at least first), where the depth is depth.
   */
  collect(start, depth, from, to) {
    if (to < from) return null;
    const codes = this.codes, offset = this.first;
    for (let n = start; n < from; n++) depth += step(codes[n - offset]);
    let low = depth, high = depth;
    const open = depth;
    for (let n = from; n < to; n++) {
      depth += step(codes[n - offset]);
      if (depth < low) low = depth;
      if (depth > high) high = depth;
    }
    return { from, to, open, low, high, last: depth };
  }

  /** Return level l of the pyramid, made if need be. */
  level(l) {
    while (this.levels.length <= l) this.levels.push(new Level(2 ** this.levels.length));
    return this.levels[l];
  }

  /** Return the level the history is summed up in when it reaches event number n. */
  levelFor(n) {
    let l = 0;
    while (n - this.origin >= BUCKETS * 2 ** l) l++;
    return l;
  }

  bucketOf(level, n) {
    return Math.floor((n - this.origin) / level.stride);
  }
}

// A clip's span of the timeline: the page's controls read it, below the clips that make one.
/**
 * Return where a clip from "start" (the first event the timeline keeps) or from "here" (shown,
 * the view's event) begins, and how many events the timeline holds after it: {at, held}.
 */
export function clipSpan({ first, head }, shown, from) {
  const at = from === "here" ? shown : first;
  return { at, held: Math.max(0, head - at) };
}
