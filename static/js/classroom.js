// Class sessions: an instructor opens or reclaims a class, students join, leave and rejoin,
// and a follower's page takes the instructor's runs; each turned into store updates.

const STORED = "knights-tour-class"; // the instructor's code and token, in this browser only
const ENDED = {
  "the instructor ended the class": "class.reasonEnded",
  "the instructor left": "class.reasonLeft",
  "the class was idle": "class.reasonIdle",
};

/** Return the class actions on store, runs and the playback (for the runs a class replaces). */
export function createClassroom(store, runs, playback) {
  const state = () => store.state;
  const stored = () => {
    try { return JSON.parse(localStorage.getItem(STORED) ?? "null"); } catch { return null; }
  };
  const setClass = (klass, note = null) => store.update({ klass: { ...klass, note } });

  async function open() {
    const answer = await runs.main.server.request("class_open");
    if (!answer.ok) return;
    localStorage.setItem(STORED, JSON.stringify({ code: answer.code, token: answer.token }));
    setClass({ role: "instructor", code: answer.code }, { id: "class.opened" });
  }

  async function claim(code) {
    const mine = stored();
    if (mine?.code !== code) return false;
    const answer = await runs.main.server.request("class_claim", mine);
    if (answer.ok) setClass({ role: "instructor", code }, { id: "class.leadAgain", params: { code } });
    else {
      localStorage.removeItem(STORED);
      setClass({ role: "none", code: null });
    }
    return answer.ok;
  }

  async function join(code) {
    const wanted = String(code ?? "").trim().toUpperCase();
    if (!wanted) return;
    const before = state().klass;
    if (state().run.status !== "idle" && before.role !== "student") playback.sendAll("stop");
    // The class's state arrives before the answer, and is taken as a student's.
    setClass({ role: "student", code: wanted, control: null });
    const answer = await runs.main.server.request("class_join", { code: wanted });
    if (answer.ok) setClass({ role: "student", code: answer.code });
    else store.update({ klass: { ...before, note: { id: "class.joinFailed", params: { error: answer.error ?? "" } } } });
  }

  async function leave() {
    const code = state().klass.code;
    await runs.main.server.request("class_leave");
    setClass({ role: "left", code }, { id: "class.left", params: { code } });
    playback.showIdle();
  }

  async function end() {
    if (!(await runs.main.server.request("class_end")).ok) return;
    localStorage.removeItem(STORED);
    setClass({ role: "none", code: null, presenter: false }, { id: "class.ended" });
  }

  /** Take up the class in the page's address, as its instructor (this browser opened it) or a student. */
  function invited(code) {
    if (code) setClass({ role: stored()?.code === code ? "instructor" : "student", code });
  }

  /** Rejoin or reclaim the class once the connection is (back) up. */
  function reconnected() {
    const { role, code } = state().klass;
    if (role === "instructor") claim(code);
    else if (role === "student") join(code);
  }

  // The class's news, to a follower.

  /** Take a class run's settings as the page's own, so that every field shows the run. */
  function follow(run) {
    if (!run) return;
    const graph = run.graph === "example";
    store.update({ settings: {
      mode: graph ? "example" : "board", rows: run.rows, cols: run.cols, start: run.start,
      order: graph ? state().settings.order : run.order, closed: run.closed, allTours: run.all_tours,
      seed: run.seed, budget: run.budget, speed: run.speed,
    } });
  }

  function classState(classNews) {
    if (state().klass.role !== "student") return;
    follow(runs.main.run);
    classControl(classNews);
  }

  function started(run) {
    if (state().klass.role === "student") follow(run);
  }

  function classControl(control) {
    if (state().klass.role !== "student") return;
    const statuses = { idle: "idle", playing: "playing", paused: "paused", skipping: "skipping", finished: "finished" };
    const patch = { klass: { control: control.state } };
    if (statuses[control.state]) patch.run = { status: statuses[control.state], note: null };
    if (control.speed !== null && control.speed !== undefined) patch.settings = { speed: control.speed };
    store.update(patch);
  }

  function classEnded(ended) {
    const was = state().klass.role;
    if (was === "instructor") localStorage.removeItem(STORED);
    setClass({ role: "none", code: null, presenter: false }, {
      id: "class.endedBecause", params: { code: ended.code, reason: ENDED[ended.reason] ?? null, raw: ended.reason },
    });
    if (was === "student") playback.showIdle();
  }

  function togglePresenter() {
    store.update({ klass: { presenter: !state().klass.presenter } });
  }

  return { open, join, leave, end, invited, reconnected, classState, started, classControl, classEnded,
    togglePresenter, rejoin: () => join(state().klass.code) };
}
