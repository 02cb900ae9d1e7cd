// A seeded generator of numbers in [0, 1) for the page's tests, so that a failure can be replayed.

/** Return a generator of numbers in [0, 1) from seed (mulberry32). */
export function random(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t ^= t + Math.imul(t ^ (t >>> 7), 61 | t);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}
