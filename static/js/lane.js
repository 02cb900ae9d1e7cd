// One run as the page sees it: its own connection, the events received, and the model the
// view shows (which can lag behind what was received, when the user steps back).
import { connect } from "./connection.js";
import { apply, copyModel, createModel, fromSnapshot, rewind } from "./model.js";
import { knightMoves } from "./orderings/orderings.js";
import { refusal } from "./words/refusals.js";
import { Timeline } from "./timeline.js";
import { SearchTree } from "./tree/tree.js";

// What makes two runs the same search (and the same events, given the same seed).
const RUN_KEYS = ["graph", "rows", "cols", "start", "order", "closed", "all_tours", "seed"];

export class Lane {
  /**
   * Open a connection for one run. hooks, each called with this lane's news: connection(up),
   * started(run), changed(), progress(snapshot), finished(result), note(id, params) (a refusal,
   * or a request the server did not answer), lost() (a batch missed: a follower asks for the
   * board again). partner(): for the main lane, the lane a class's news of its race's other
   * board goes to. A class's and its questions' news are not a lane's: see listen() in connection.js.
   * wrap(connection): the connection the lane uses, made from its own (on the main lane, the code
   * lab's, which plays the student's own runs: codelab/lab.js).
   */
  constructor(hooks, partner = null, wrap = (connection) => connection) {
    this.hooks = hooks;
    this.run = null;      // the settings of the run shown, with its id
    this.result = null;   // the 'finished' of the run, once it has ended
    this.model = createModel(1, 1, 0);
    this.timeline = new Timeline();
    // The search tree of the events received, and of skips' outlines; whole only while no event
    // was missed without one (whole).
    this.tree = new SearchTree(1);
    // The events received before a skip's jump, so that step back and scrub still reach them,
    // oldest first: each {first, head, at(n), end, next}, end the model after its last event and
    // next the model where the events received after the jump begin.
    this.earlier = [];
    this.graph = null;    // {names, moves} of the example graph, when the run is on it
    // gate(model): whether the event after the view's position may be shown now; a question
    // about it (predict mode) holds the view there until it is answered.
    this.gate = null;
    this.server = wrap(connect({
      connection: (up) => hooks.connection(up),
      error: (error) => { const { id, params } = refusal(error); hooks.note(id, params); },
    }));
    // A class's room sends the race's other board (lane "second") on this same connection.
    const lane = (news) => (news.lane === "second" && partner ? partner() : this);
    this.server.listen({
      started: (run) => lane(run).started(run),
      events: (batch) => lane(batch).received(batch),
      progress: (snapshot) => lane(snapshot).progressed(snapshot),
      finished: (result) => lane(result).ended(result),
      snapshot: (snapshot) => lane(snapshot).caughtUp(snapshot), // where a class's fast run is now
    });
  }

  /** Show an empty board (or graph: {names, moves}) before any run. */
  showEmpty(model, graph = null) {
    this.run = null;
    this.result = null;
    this.model = model;
    this.graph = graph;
    this.timeline = new Timeline();
    this.tree = new SearchTree(model.squares);
    this.earlier = [];
  }

  /** Return each square's moves (the example graph's edges, or the board's knight moves). */
  moves() {
    if (this.graph) return this.graph.moves;
    const { rows, cols } = this.model;
    if (this.knightMoves?.rows !== rows || this.knightMoves?.cols !== cols) {
      this.knightMoves = Object.assign(knightMoves(rows, cols), { rows, cols });
    }
    return this.knightMoves;
  }

  /** Return what the lane shows, to be put back by restore(). */
  stash() {
    const { run, result, model, timeline, tree, graph, earlier } = this;
    return { run, result, model, timeline, tree, graph, earlier };
  }

  /** Show again what stash() returned (a finished run: nothing more will arrive for it). */
  restore(saved) {
    Object.assign(this, saved);
  }

  /** Ask the server for a run with these settings; resolve with whether it began. */
  start(settings) {
    return this.send("start", settings);
  }

  /** Send a request (start, pause, resume, step, skip, speed, stop); resolve with its ok. */
  async send(event, payload) {
    const answer = await this.server.request(event, payload);
    if (answer.timedOut) this.hooks.note("status.timedOut");
    return answer.ok;
  }

  /** Tell whether the view shows everything received. */
  atHead() {
    return this.model.events === this.timeline.head;
  }

  /** Return the part of the events kept before a skip's jump that the view is in, or null. */
  shownEarlier() {
    const at = this.model.events;
    if (at >= this.timeline.first) return null;
    return this.earlier.find((part) => part.first <= at && at <= part.head) ?? null;
  }

  /** Return the first event number the view can go back to. */
  earliest() {
    return this.earlier.length ? this.earlier[0].first : this.timeline.first;
  }

  /** Return the wire code of event number n, if it was received and is kept; else null. */
  codeAt(n) {
    const t = this.timeline;
    if (n >= t.first && n < t.head) return t.at(n);
    const part = this.earlier.find((each) => each.first <= n && n < each.head);
    return part ? part.at(n) : null;
  }

  /** Move the view one event forward through what was received; return whether it moved. */
  forward() {
    if (this.atHead()) return false;
    const part = this.shownEarlier();
    if (part && this.model.events === part.head) this.model = copyModel(part.next); // over the skip's jump
    else apply(this.model, part ? part.at(this.model.events) : this.timeline.at(this.model.events));
    return true;
  }

  /** Tell whether the gate holds the view before an event received. */
  held() {
    return !this.atHead() && Boolean(this.gate) && !this.gate(this.model);
  }

  /** Move the view one event forward unless the gate holds it there; return whether it moved. */
  advance() {
    return !this.held() && this.forward();
  }

  /** Move the view one event back; return whether it moved. */
  back() {
    // The timeline let its oldest events go since the jump: what came before it is out of reach.
    if (this.earlier.at(-1)?.next?.events < this.timeline.first) this.earlier = [];
    const at = this.model.events;
    const part = this.shownEarlier() ?? (at > this.timeline.first ? this.timeline : null);
    if (part && at > part.first) {
      rewind(this.model, part, at - 1);
      return true;
    }
    // Back over a skip's jump: to the last event received before it.
    const before = this.earlier.findLast((each) => each.head < at);
    if (!before) return false;
    this.model = copyModel(before.end);
    return true;
  }

  /** Move the view to event number target (within what is kept; in a skip's jump, to its nearer end). */
  seek(target) {
    let goal = Math.max(this.earliest(), Math.min(this.timeline.head, target));
    const jump = this.earlier.map((part, i) => [part.head, this.earlier[i + 1]?.first ?? this.timeline.first])
      .find(([from, to]) => from < goal && goal < to);
    if (jump) goal = goal - jump[0] <= jump[1] - goal ? jump[0] : jump[1];
    while (this.model.events < goal) this.forward();
    while (this.model.events > goal) this.back();
  }

  /** Return the wire code of the last event the view shows, or null. */
  lastShown() {
    return this.model.events > 0 ? this.codeAt(this.model.events - 1) : null;
  }

  started(run) {
    if (this.continues(run)) {
      this.run = run;
      this.result = null;
    } else this.begin(run);
    this.hooks.started(run);
  }

  /**
   * Tell whether run goes on with the search shown: the same one, resumed at an event this
   * lane holds (after the server lost the run it came from).
   */
  continues(run) {
    const shown = this.run;
    return Boolean(run.resume_at && shown && this.timeline.head >= run.resume_at && !this.result
      && RUN_KEYS.every((key) => shown[key] === run[key]));
  }

  begin(run) {
    this.run = run;
    this.result = null;
    this.graph = run.graph === "example" ? { names: run.names, moves: run.moves } : null;
    this.model = createModel(run.rows, run.cols, run.start, run.closed);
    this.timeline = new Timeline();
    this.tree = new SearchTree(this.model.squares);
    this.earlier = [];
  }

  received(batch) {
    if (batch.run !== this.run?.run) return; // left over from a run that was replaced
    // A follower who joined late may be sent events its snapshot already holds, or (if a
    // batch was lost to it) find a gap: then it asks for the board again.
    const overlap = this.timeline.head - (batch.first ?? this.timeline.head);
    if (overlap < 0) { this.hooks.lost(); return; }
    const codes = overlap ? batch.events.slice(overlap) : batch.events;
    if (!codes.length) return;
    const following = this.atHead();
    this.timeline.push(codes);
    if (this.tree.whole) this.tree.push(codes);
    if (following) {
      for (const code of codes) {
        if (this.held()) break;
        apply(this.model, code);
      }
    }
    this.hooks.changed();
  }

  /**
   * Replace the model with a server snapshot: the events in between were not received. A jump
   * forward (a skip's) keeps the events received before it, for step back and scrub.
   */
  adopt(snapshot, path = snapshot.path) {
    const { rows, cols, start, closed } = this.run;
    const t = this.timeline, forward = snapshot.events > t.head;
    if (forward && t.head > t.first) this.earlier.push(this.keep());
    else if (snapshot.events < t.first) this.earlier = []; // the timeline starts over from there
    this.model = fromSnapshot(rows, cols, start, { ...snapshot, path }, closed);
    // The events in between are not here: a skip's outline stands for them, if it begins where
    // the tree ends.
    if (this.tree.whole && snapshot.outline) this.tree.whole = this.tree.outline(snapshot.outline, snapshot.path);
    else if (snapshot.events !== t.head) this.tree.whole = false;
    t.jump(snapshot.events, path.length);
    // The last part kept before a jump goes on where the latest snapshot is.
    const last = this.earlier.at(-1);
    if (last && forward) last.next = copyModel(this.model);
  }

  /** Return the events the timeline holds, and the model after the last, as a part of earlier. */
  keep() {
    const t = this.timeline, first = t.first, head = t.head;
    const codes = Array.from({ length: head - first }, (_, i) => t.at(first + i));
    // The model after the last event received, from the view's (which may be before a jump).
    const end = copyModel(this.model.events >= first ? this.model : this.earlier.at(-1).next);
    while (end.events < head) apply(end, t.at(end.events));
    return { first, head, at: (n) => codes[n - first], end, next: null };
  }

  /**
   * Take a class's state: its run where it is (keeping what this lane holds of the same run),
   * and how it ended. A class with no run (its server restarted) leaves the lane as it is.
   */
  take(state) {
    if (!state.run) return;
    if (state.run.run !== this.run?.run) this.begin(state.run);
    if (state.snapshot && state.snapshot.events > this.timeline.head) this.adopt(state.snapshot);
    if (state.result) this.ended(state.result);
  }

  caughtUp(snapshot) {
    if (snapshot.run !== this.run?.run) return;
    this.adopt(snapshot);
    this.hooks.changed();
  }

  progressed(snapshot) {
    if (snapshot.run !== this.run?.run) return;
    this.adopt(snapshot);
    this.hooks.progress(snapshot);
  }

  ended(result) {
    if (result.run !== this.run?.run) return;
    this.result = result;
    // After a skip, or when every tour was sought, the board shows the result's own path.
    const shown = result.tour && !result.path.length ? result.tour : result.path;
    if (this.timeline.head !== result.events || shown !== result.path) {
      this.adopt(result, shown);
      this.model.justFound = result.found && shown.length === this.model.squares;
    }
    this.hooks.finished(result);
  }
}
