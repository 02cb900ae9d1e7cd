// A student's own search as a run the page plays: the same requests (start, pause, resume, step,
// speed, skip, stop) and the same news (started, events, finished) as a run the server streams,
// so that every view follows it as it follows the server's. The events come from the sandbox's
// worker in batches; this paces them at the run's speed and acknowledges each batch once all of
// its events are shown: the worker, holding at most two batches unacknowledged (the server's
// window), searches the next while this one is shown, and waits when two are.

import { fits } from "./messages.js";

const TICK_MS = 100; // how often events go to the page at speeds above 10 a second
// A run left while it searches is told to stop; a worker that has not stopped by then (the
// student's code is in a loop of its own, with no event) is ended and made again.
const LEAVE_MS = 100;

let runs = 0;

/** Return the worker's message that searches a run's settings as run id, in batches of batch. */
const runMessage = (id, settings, batch) => ({ type: "run", id, code: settings.code, rows: settings.rows,
  cols: settings.cols, start: settings.start, order: settings.order, closed: Boolean(settings.closed),
  allTours: Boolean(settings.all_tours), batch });

/** Return a done message's result, with what the student's code printed as text. */
const resultOf = (message) => ({ ...message.result,
  output: Array.isArray(message.output) ? message.output.map(String) : [] });

/** Return the size of the worker's batches at a speed (events a second; 0: as fast as taken). */
export function batchFor(speed) {
  if (speed > 0 && speed <= 10) return 1;
  if (speed > 0 && speed <= 2000) return 64;
  return 4096;
}

/**
 * Return a run source over sandbox ({post(message), restart()}, its messages given to heard()).
 * lab: the lab's own news: loaded(), lines(lines), done(result), checked(result), problem(text).
 */
export function createLabRun(sandbox, lab) {
  let news = {};
  // The run: its id, squares, status and speed; its events received and not yet shown (queue from
  // at), how many were shown (sent), where each batch not yet acknowledged ends (ends), its lines.
  let run = null;
  let timer = null;
  let leaving = null; // {id, timer}: a run left, waited for to stop
  let next = null; // the run message to send once the worker is free
  let checking = null; // {id, squares}: a check of the student's code, searched off the board

  /** Send the worker a run once it has no other (a run left may still be stopping). */
  function begin(message) {
    if (leaving) next = message;
    else sandbox.post(message);
  }

  function freed(restart) {
    clearTimeout(leaving.timer);
    leaving = null;
    if (restart) sandbox.restart();
    if (next) sandbox.post(next);
    next = null;
  }

  /** Tell the worker to stop the run id; end it if it has not within LEAVE_MS. */
  function abandon(id) {
    sandbox.post({ type: "abandon" });
    leaving = { id, timer: setTimeout(() => freed(true), LEAVE_MS) };
  }

  /** Leave the run under way: told to stop, its worker ended if it does not within LEAVE_MS. */
  function leave() {
    if (!run || run.result) return;
    if (leaving) { // the run was never sent, waiting for another to stop: it is dropped unbegun
      next = null;
      return;
    }
    abandon(run.id);
  }

  const emit = (event, payload) => news[event]?.(payload);

  function clear() {
    clearTimeout(timer);
    timer = null;
  }

  /** Send the page up to n events of the queue; return how many went. */
  function release(n) {
    const r = run;
    const count = Math.min(n, r.queue.length - r.at);
    if (count <= 0) return 0;
    const events = r.queue.slice(r.at, r.at + count);
    r.at += count;
    emit("events", { run: r.id, first: r.sent, events });
    r.sent += count;
    lab.lines(r.lines);
    // What was sent is gone from here; each batch shown whole is acknowledged.
    if (r.at >= r.queue.length) { r.queue = []; r.at = 0; }
    while (r.ends.length && r.ends[0] <= r.sent) {
      r.ends.shift();
      sandbox.post({ type: "ack", batch: r.batch });
    }
    if (r.result && r.at >= r.queue.length) finish();
    return count;
  }

  function finish() {
    const r = run;
    const { result } = r;
    clear();
    r.status = "finished";
    emit("finished", { run: r.id, found: result.tours > 0, tours: result.tours, path: result.path,
      tour: result.tour, events: result.events, visits: r.visits, backtracks: r.backtracks, stopped: null });
    lab.done(result);
  }

  function tick() {
    timer = null;
    const r = run;
    if (!r || r.status !== "playing") return;
    const speed = r.speed;
    if (speed > 0 && speed <= 10) {
      release(1);
      timer = setTimeout(tick, 1000 / speed);
      return;
    }
    if (speed === 0) {
      release(Infinity); // and each batch as it comes (heard): nothing to wait for here
      return;
    }
    release(Math.max(1, Math.round((speed * TICK_MS) / 1000)));
    timer = setTimeout(tick, TICK_MS);
  }

  function play() {
    clear();
    run.status = "playing";
    tick();
  }

  const requests = {
    start(settings) {
      clear();
      leave();
      runs += 1;
      const speed = settings.speed;
      run = { id: `lab-${runs}`, squares: settings.rows * settings.cols, status: settings.paused ? "paused" : "playing", speed, queue: [], at: 0, sent: 0,
        lines: {}, result: null, ends: [], batch: batchFor(speed), visits: 0, backtracks: 0 };
      emit("started", { run: run.id, rows: settings.rows, cols: settings.cols, start: settings.start,
        order: settings.order, speed, paused: Boolean(settings.paused), closed: Boolean(settings.closed),
        all_tours: Boolean(settings.all_tours), seed: 0, budget: null, graph: "knight" });
      begin(runMessage(run.id, settings, run.batch));
      if (run.status === "playing") play();
      return { ok: true, run: run.id };
    },
    pause() { if (run?.status === "playing") { clear(); run.status = "paused"; } return { ok: true }; },
    resume() { if (run?.status === "paused") play(); return { ok: true }; },
    step() {
      if (!run || run.status === "finished") return { ok: true };
      clear();
      run.status = "paused";
      if (!release(1)) run.stepWanted = true; // the next event is still being searched
      return { ok: true };
    },
    speed({ speed }) {
      if (run) {
        run.speed = speed;
        run.batch = batchFor(speed);
        if (run.status === "playing") play();
      }
      return { ok: true };
    },
    skip() { if (run && run.status !== "finished") { run.speed = 0; run.batch = batchFor(0); play(); } return { ok: true }; },
    stop() {
      clear();
      leave();
      run = null;
      return { ok: true };
    },
    /** Search the student's code to its end off the board (a class's exercise): only its result counts. */
    check(settings) {
      if (checking || leaving || (run && !run.result)) return { ok: false };
      runs += 1;
      checking = { id: `check-${runs}`, squares: settings.rows * settings.cols };
      begin(runMessage(checking.id, settings, batchFor(0)));
      return { ok: true, run: checking.id };
    },
    uncheck() {
      if (checking) abandon(checking.id);
      checking = null;
      return { ok: true };
    },
  };

  /** Take a message of the check under way: each batch acknowledged at once, its result kept. */
  function checked(message) {
    if (!fits(message, checking.squares)) return;
    if (message.type === "events") sandbox.post({ type: "ack", batch: batchFor(0) });
    else if (message.type === "crashed") { checking = null; lab.problem(message.text); }
    else if (message.type === "done" && message.result) {
      checking = null;
      lab.checked(resultOf(message));
    }
  }

  /** Take a message of the worker's (one that does not fit its type is dropped: messages.js). */
  function heard(message) {
    const r = run;
    if (leaving && message.id === leaving.id && (message.type === "done" || message.type === "crashed")) {
      freed(false); // the run left has stopped: the worker is free, with Python still loaded
      return;
    }
    if (checking && message.id === checking.id) { checked(message); return; }
    if (!fits(message, r?.squares ?? 0)) return;
    if (message.type === "loaded") { lab.loaded(message); return; }
    if (message.type === "crashed" && (!message.id || message.id === r?.id)) { lab.problem(message.text); return; }
    if (!r || r.status === "finished" || message.id !== r.id) return;
    if (message.type === "events" && Array.isArray(message.events)) {
      for (const code of message.events) {
        if (code === "found") continue;
        if (code >= 0) r.visits += 1; else r.backtracks += 1;
      }
      r.queue.push(...message.events);
      r.lines = message.lines ?? r.lines;
      // The batch is acknowledged once its last event is shown (the total sent by then).
      r.ends.push(r.sent + r.queue.length - r.at);
      if (r.stepWanted) { r.stepWanted = false; release(1); }
      if (r.status === "playing" && r.speed === 0) release(Infinity);
    } else if (message.type === "done" && message.result) {
      r.result = resultOf(message);
      if (r.at >= r.queue.length) finish();
    }
  }

  return {
    heard,
    connected: () => true,
    listen(handlers) { news = { ...news, ...handlers }; },
    request(event, payload) { return Promise.resolve(requests[event]?.(payload ?? {}) ?? { ok: false }); },
    /** Return how many events wait here to be shown (at most two batches: the worker waits then). */
    waiting: () => (run ? run.queue.length - run.at : 0),
  };
}
