// The code lab's state and actions: the student's code and exercise, the sandbox that runs it
// (made the first time the lab opens: a page without the lab loads none of Python, nor the lab's
// run and sandbox, a chunk of their own), and what its last run said. The runs themselves go
// through the main lane, as the server's do.
import { labPlays } from "./where.js";

// status: closed (never opened), loading (Python is on its way), ready, failed (text says why).
// checking: a check of the code (a class's exercise) is under way, off the board.
export const NO_LAB = { open: false, exercise: null, code: "", status: "closed", text: null, loadedMs: null,
  canHold: true, lines: {}, result: null, quiet: false, checking: false };
// A search with no event for this long is said to be running without a move.
const QUIET_MS = 2000;
const RUN_EVENTS = new Set(["start", "pause", "resume", "step", "speed", "skip", "stop"]);

/** Return the exercise of the lab's limits named id (the first if none is). */
export function exerciseOf(limits, id) {
  return limits.lab.exercises.find((each) => each.id === id) ?? limits.lab.exercises[0];
}

/**
 * Return the lab: open(id), close(), choose(id), edit(code), check(board) and uncheck() (a class's
 * exercise: checked(result) is told each check's result), the facts the page asks of it (active(),
 * payload(), parting(), waiting()), and connect(socket), which wraps the main lane's connection so
 * that a run of the student's code is played from the lab.
 */
export function createLab(store, limits, checked = () => {}) {
  const update = (patch) => store.update({ lab: patch });
  let quiet = null;

  function heardAt() {
    clearTimeout(quiet);
    if (store.state.lab.quiet) update({ quiet: false });
    quiet = setTimeout(() => update({ quiet: true }), QUIET_MS);
  }

  const news = {
    loaded: ({ ms, canHold }) => update({ status: "ready", loadedMs: ms, canHold }),
    lines: (lines) => { heardAt(); if (JSON.stringify(lines) !== JSON.stringify(store.state.lab.lines)) update({ lines }); },
    done: (result) => { clearTimeout(quiet); update({ result, quiet: false }); },
    checked: (result) => { update({ result, checking: false }); checked(result); },
    problem: (text) => { clearTimeout(quiet); update({ status: "failed", text, quiet: false, checking: false }); },
  };

  let handlers = {}; // the main lane's, for the run source once it is made
  let source = null; // the run source, once the lab's modules are loaded
  let made = null; // the promise of it
  const failed = (error) => update({ status: "failed", text: String(error?.message ?? error) });
  /** Return the promise of the run source, loading the lab's modules and opening its sandbox the first time. */
  function sourced() {
    if (made) return made;
    update({ status: "loading" });
    made = Promise.all([import("./lab-run.js"), import("./sandbox.js")]).then(([{ createLabRun }, { openSandbox }]) => {
      const sandbox = openSandbox(limits.lab.urls, (message) => source.heard(message), failed);
      source = createLabRun({
        post: sandbox.post,
        // The worker is ended, and made again with Python loaded afresh.
        restart: () => { update({ status: "loading" }); sandbox.restart(); },
      }, news);
      source.listen(handlers);
      return source;
    });
    made.catch((error) => { made = null; failed(error); }); // opened again, it tries again
    return made;
  }
  /** Ask the run source, once there is one (a lab that could not be loaded says so, and refuses). */
  const ask = (event, payload) => (source ? source.request(event, payload)
    : sourced().then((it) => it.request(event, payload), () => ({ ok: false })));

  return {
    /** Open the lab, on exercise id (the last one chosen, when not given). */
    open(id = null) {
      const lab = store.state.lab;
      const exercise = exerciseOf(limits, id ?? lab.exercise);
      sourced();
      if (id !== null || !lab.code) this.choose(exercise.id);
      update({ open: true });
    },
    close() { update({ open: false }); },
    choose(id) {
      const exercise = exerciseOf(limits, id);
      update({ exercise: exercise.id, code: limits.lab.code, result: null });
      // An exercise may come with the board it is quick on; the student can change it after. A
      // class's student keeps the class's board: their exercise's is the instructor's.
      if (store.state.klass.role !== "student") {
        store.update({ settings: { closed: exercise.closed, allTours: exercise.allTours, ...exercise.board } });
      }
    },
    /** Open the lab on a class's exercise id, keeping the code the student has written. */
    take(id) {
      sourced();
      const { lab } = store.state;
      const exercise = exerciseOf(limits, id);
      if (!lab.code) this.choose(exercise.id);
      update({ open: true, exercise: exercise.id, result: lab.exercise === exercise.id ? lab.result : null });
    },
    /** Search the student's code on board ({rows, cols, start}) off the board, for its verdict. */
    check(board) {
      const { lab } = store.state;
      const exercise = exerciseOf(limits, lab.exercise);
      update({ checking: true, result: null });
      ask("check", { ...board, code: lab.code, order: exercise.order, closed: exercise.closed, all_tours: exercise.allTours })
        .then((answer) => answer.ok || update({ checking: false }));
    },
    uncheck() { update({ checking: false }); ask("uncheck"); },
    edit(code) { update({ code, result: null }); },
    /** Return how many events came before the first where the student's search parted from the engine's. */
    parting: () => store.state.lab.result?.differs?.[0] ?? 0,
    /** Tell whether the page's runs are the lab's. */
    active: () => labPlays(store.state),
    /** Return how many of the student's events wait to be shown (for the tests: bounded). */
    waiting: () => source?.waiting() ?? 0,
    /** Return the settings of a run of the student's code (payload: the page's own for a run). */
    payload(common) {
      const { lab } = store.state;
      const exercise = exerciseOf(limits, lab.exercise);
      update({ result: null });
      heardAt(); // a run that makes no event at all is said to be running without a move
      return { ...common, order: exercise.order, code: lab.code };
    },
    /** Wrap a connection: the runs of the student's code go to the lab, the rest to socket. */
    connect(socket) {
      let local = false;
      return {
        ...socket,
        listen(more) {
          socket.listen(more);
          handlers = { ...handlers, ...more };
          source?.listen(more);
        },
        request(event, payload) {
          if (event === "start") {
            const wanted = typeof payload?.code === "string";
            // The run replaced is ended where it was, the server's or the lab's.
            if (wanted !== local && local) ask("stop");
            else if (wanted !== local) socket.request("stop");
            local = wanted;
          }
          if (local && RUN_EVENTS.has(event)) return ask(event, payload);
          return socket.request(event, payload);
        },
      };
    },
  };
}
