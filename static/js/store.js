// The page's one state. Handlers change it with update(); views subscribe and render from it,
// at most once an animation frame, however many changes came in between (and at most once in
// the gap the state asks for: see the constructor).

export class Store extends EventTarget {
  #state;
  #queued = false;
  #renderedAt = -Infinity;
  #waiting = null; // the timer that waits out the gap before the next frame
  #gap;

  /**
   * Hold state, the page's whole state as plain data; gap(state): the fewest milliseconds from
   * one render to the next (0: every frame).
   */
  constructor(state, gap = () => 0) {
    super();
    this.#state = state;
    this.#gap = gap;
  }

  /** Return the current state (treat it as read-only: change it through update). */
  get state() {
    return this.#state;
  }

  /**
   * Merge a change into the state: an object (or a function of the state returning one) whose
   * parts replace the state's parts of the same name, each merged one level deep.
   */
  update(change) {
    const patch = typeof change === "function" ? change(this.#state) : change;
    const next = { ...this.#state };
    for (const [part, value] of Object.entries(patch)) {
      const old = next[part];
      const plain = (x) => x !== null && typeof x === "object" && !Array.isArray(x);
      next[part] = plain(old) && plain(value) ? { ...old, ...value } : value;
    }
    this.#state = next;
    this.dispatchEvent(new Event("change"));
    this.#schedule();
  }

  /** Ask for a render without a change of state (the runs' boards received events). */
  touch() {
    this.#schedule();
  }

  /** Call render(state) on each animation frame that follows a change. */
  subscribe(render) {
    this.addEventListener("render", () => render(this.#state));
  }

  #schedule() {
    const wait = this.#gap(this.#state) - (performance.now() - this.#renderedAt);
    if (this.#waiting !== null && wait <= 0) {
      // The gap closed while waiting out the old one (a pause, say): render on the next frame.
      clearTimeout(this.#waiting);
      this.#waiting = null;
      this.#queued = false;
    }
    if (this.#queued) return;
    this.#queued = true;
    const frame = () => {
      this.#queued = false;
      this.#renderedAt = performance.now();
      this.dispatchEvent(new Event("render"));
    };
    // Too soon after the last render, wait out the gap before asking for a frame: asking for the
    // frames in between would have the browser make frames with nothing new in them.
    if (wait > 0) {
      this.#waiting = setTimeout(() => {
        this.#waiting = null;
        requestAnimationFrame(frame);
      }, wait);
    } else {
      requestAnimationFrame(frame);
    }
  }
}
