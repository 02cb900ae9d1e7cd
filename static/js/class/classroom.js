// Class sessions: an instructor opens or reclaims a class, students join, leave and rejoin,
// and a follower's page takes the instructor's runs; each turned into store updates.
import { serverNews } from "../connection.js";
import { controls } from "../controls.js";
import { hasWords, t } from "../words/i18n.js";
import { mirrored } from "./mirror.js";
import { refusal } from "../words/refusals.js";
import { recall, remember } from "../storage.js";

const STORED = "knights-tour-class"; // the instructor's code and token, in this browser only
// A student's voter pass, for the class it was given in: one a browser, whatever its tabs and
// reloads, so that a student answers each question once.
const VOTER = "knights-tour-voter";

/** Return this browser's voter pass for class code, or null. */
function voterFor(code) {
  try {
    const kept = JSON.parse(recall(VOTER) ?? "null");
    return kept?.code === code && typeof kept.voter === "string" ? kept.voter : null;
  } catch {
    return null;
  }
}
// The class another tab took from this one, and its ticket, in this tab only: reloaded (or
// brought back by the browser after it discarded the tab), the tab follows that class and
// never takes it back from the tab that leads it.
const DISPLACED = "knights-tour-displaced";
const PRESENTING = "knights-tour-presenting"; // the code of the class this tab shows in presenter view
const KEEP_TOKEN = new Set(["refusal.class.unavailable", "refusal.request.too_many"]);

/**
 * Return the class actions on store, runs and the playback (for the runs a class replaces); the
 * class's questions (polls), tournament and code exercise are told as the page joins, leads and leaves.
 */
export function createClassroom(store, runs, playback, limits, polls, tournament, exercise) {
  const state = () => store.state;
  const stored = () => {
    try { return JSON.parse(recall(STORED) ?? "null"); } catch { return null; }
  };
  const setClass = (klass, note = null) => store.update({ klass: { ...klass, note } });
  // A stopping server's goodbye: the page shows it until it is connected again.
  serverNews.addEventListener("stopping", () => store.update({ server: { stopping: true } }));

  // A request the server did not answer says so beside the class's buttons (a refusal says why,
  // by the server's error event).
  const unanswered = (answer) => answer.timedOut && store.update({ klass: { note: { id: "status.timedOut" } } });

  async function open() {
    const answer = await runs.main.server.request("class_open");
    if (!answer.ok) return unanswered(answer);
    remember(STORED, JSON.stringify({ code: answer.code, token: answer.token }));
    remember(DISPLACED, null, "session");
    tournament.forget();
    exercise.forget();
    setClass({ role: "instructor", code: answer.code, ticket: answer.ticket, led: true, students: answer.students ?? 0 },
      { id: "class.opened" });
    claimSecond();
  }

  /**
   * Take the class back with its token (after a reload, a lost connection or a restart of the
   * server, which opens it again), and the run the server kept for it where it is.
   */
  async function claim(code) {
    const mine = stored();
    if (mine?.code !== code) return false;
    const answer = await runs.main.server.request("class_claim", mine);
    if (answer.ok) {
      // A projector's page reloaded mid-lesson comes back in presenter view.
      const presenter = recall(PRESENTING, "session") === code;
      setClass({ role: "instructor", code, ticket: answer.ticket, led: true, students: answer.students ?? null, presenter },
        { id: "class.leadAgain", params: { code } });
      playback.reattached(answer);
      polls.restored(answer);
      tournament.claimed(answer);
      exercise.take(answer.exercise, answer.exercise_count, answer.exercise_codes);
      claimSecond();
    } else if (!answer.timedOut && !KEEP_TOKEN.has(refusal(answer).id)) {
      // Only a refusal of the token itself drops it: the others are tried again on the next connection.
      remember(STORED, null);
      setClass({ role: "none", code: null });
    }
    return answer.ok;
  }

  /**
   * Let the page's second connection run the race's other board for the class it leads (once
   * the server has it again, after a restart: led is set by the main connection's claim).
   */
  function claimSecond() {
    const mine = stored();
    if (state().klass.role === "instructor" && state().klass.led && mine && runs.second.server.connected()) {
      runs.second.server.request("class_claim", { ...mine, lane: "second" });
    }
  }

  async function join(code) {
    const wanted = String(code ?? "").trim().toUpperCase();
    if (!wanted) return;
    const before = state().klass;
    const again = before.role === "student" && before.code === wanted;
    if (state().run.status !== "idle" && before.role !== "student") playback.sendAll("stop");
    // The class's state arrives before the answer, and is taken as a student's.
    setClass({ role: "student", code: wanted, control: again ? before.control : null, ticket: again ? before.ticket : null,
      voter: (again ? before.voter : null) ?? voterFor(wanted) });
    if (!again) {
      polls.forget();
      tournament.forget();
      exercise.forget();
    }
    // The ticket of the last join lets the page wait for its class, should the server have
    // restarted; its voter pass keeps its answer to the question open.
    const { ticket, voter } = state().klass;
    const answer = await runs.main.server.request("class_join", { code: wanted, ticket: ticket ?? undefined,
      voter: voter ?? undefined });
    if (answer.ok) {
      setClass({ role: "student", code: answer.code, ticket: answer.ticket ?? state().klass.ticket,
        waiting: Boolean(answer.waiting), voter: answer.voter ?? state().klass.voter });
      if (answer.voter) remember(VOTER, JSON.stringify({ code: answer.code, voter: answer.voter }));
      if (answer.answer !== undefined) store.update({ poll: { mine: answer.answer, first: answer.first ?? null } });
      tournament.joined(answer.entry);
    } else if (!answer.timedOut) {
      const why = refusal(answer);
      // A class that is not there (an old link, a mistyped code) is no class to wait for.
      const gone = why.id === "refusal.class.no_such_class" && before.code === wanted;
      const klass = gone ? { ...before, role: "none", code: null, ticket: null } : before;
      store.update({ klass: { ...klass, note: { id: "class.joinFailed", params: { error: t(why.id, why.params) } } } });
    } else {
      unanswered(answer);
    }
  }

  async function leave() {
    const code = state().klass.code;
    await runs.main.server.request("class_leave");
    setClass({ role: "left", code }, { id: "class.left", params: { code } });
    polls.forget();
    tournament.forget();
    exercise.forget();
    playback.showIdle();
  }

  async function end() {
    const answer = await runs.main.server.request("class_end");
    if (!answer.ok) return unanswered(answer);
    remember(STORED, null);
    polls.forget();
    tournament.forget();
    exercise.forget();
    setClass({ role: "none", code: null, presenter: false }, { id: "class.ended" });
  }

  /**
   * Take up the class in the page's address, {code, ticket}, as its instructor (this browser
   * opened it) or a student: a link's ticket proves its code, which is then no guess.
   */
  function invited(klass) {
    if (!klass) return;
    const { code } = klass;
    let displaced = null;
    try { displaced = JSON.parse(recall(DISPLACED, "session") ?? "null"); } catch { /* none */ }
    if (displaced?.code === code) setClass({ role: "student", code, ticket: displaced.ticket ?? klass.ticket });
    else setClass({ role: stored()?.code === code ? "instructor" : "student", code, ticket: klass.ticket });
  }

  /** Note that the main connection dropped: the class must be claimed again before anything. */
  function disconnected() {
    if (state().klass.led) store.update({ klass: { led: false } });
    // A student's board no longer follows a search it cannot see: it shows the run as stopped.
    if (state().klass.role === "student" && ["playing", "skipping"].includes(state().run.status)) {
      store.update({ run: { status: "paused" } });
    }
  }

  /** Rejoin or reclaim the class once the connection is (back) up. */
  function reconnected() {
    store.update({ server: { stopping: false } });
    const { role, code } = state().klass;
    if (role === "instructor") claim(code);
    else if (role === "student") join(code);
  }

  // The class's news, to a follower.

  /** Take a class run's settings as the page's own, so that every field shows the run. */
  function follow(run) {
    if (!run) return;
    const graph = run.graph === "example";
    // A race's first board is the class's run; its second board's run has the other ordering.
    const racing = !graph && state().settings.mode === "race";
    store.update({ settings: {
      mode: graph ? "example" : racing ? "race" : "board", rows: run.rows, cols: run.cols, start: run.start,
      order: graph ? state().settings.order : run.order, versus: (racing && runs.second.run?.order) || state().settings.versus,
      closed: run.closed, allTours: run.all_tours,
      seed: run.seed, budget: run.budget, speed: run.speed,
    } });
  }

  /** Take a class's state, on joining it: the main lane takes its run where it is, and how it ended. */
  function classState(classNews) {
    runs.main.take(classNews);
    if (state().klass.role !== "student") return;
    store.update({ klass: { waiting: false } });
    runs.second.take(classNews.second ?? {});
    follow(runs.main.run);
    classControl(classNews);
    if (classNews.view) viewed(classNews.view);
    polls.restored(classNews);
    if (classNews.tournament) tournament.take(classNews.tournament);
    else tournament.forget(true);
    exercise.take(classNews.exercise);
  }

  /** Take the instructor's view (unless the student is reviewing on their own). */
  function viewed(view) {
    if (state().klass.role !== "student") return;
    store.update({ klass: { view } });
    if (!state().klass.reviewing) show(view);
  }

  function show(view) {
    const before = JSON.stringify(state().settings);
    store.update(mirrored(view, state(), limits));
    const main = runs.main;
    if (view.run === null) {
      if (state().run.status !== "idle" || JSON.stringify(state().settings) !== before) playback.showIdle();
    } else if (view.run === main.run?.run) { // a view of another run is of one to come or gone
      main.seek(view.at ?? main.timeline.head);
      store.touch();
    }
  }

  /** Stop reviewing: show what the instructor shows, and follow it again. */
  function backToLive() {
    const klass = state().klass;
    if (klass.role !== "student" || !klass.reviewing) return;
    store.update({ klass: { reviewing: false } });
    if (klass.view) show(klass.view);
    else runs.main.seek(runs.main.timeline.head);
    store.update({ run: { line: null, note: null } });
  }

  /** Bookmark the moment the instructor's board shows, for every student's timeline. */
  function mark(label) {
    if (!controls(state(), runs).mark.enabled) return;
    const { marks } = state();
    const at = runs.main.model.events;
    const kept = marks.filter((each) => each.at !== at);
    const text = String(label ?? "").trim().slice(0, limits.maxLabel) || t("class.markDefault", { n: kept.length + 1 });
    store.update({ marks: [...kept, { at, label: text }].sort((a, b) => a.at - b.at) });
  }

  /** Follow the class another tab or device of its instructor has taken over. */
  function displaced(news) {
    if (state().klass.role !== "instructor" || news.code !== state().klass.code) return;
    remember(DISPLACED, JSON.stringify({ code: news.code, ticket: news.ticket }), "session");
    setClass({ role: "student", code: news.code, ticket: news.ticket, control: null, presenter: false },
      { id: "class.displaced", params: { code: news.code } });
  }

  function started(run) {
    if (state().klass.role === "student") {
      store.update({ klass: { reviewing: false } });
      follow(run);
    }
  }

  function classControl(control) {
    if (state().klass.role !== "student") return;
    // A run that waits on its instructor's page (stalled, or away) shows as stopped, not searching.
    const statuses = { idle: "idle", playing: "playing", paused: "paused", skipping: "skipping", finished: "finished",
      stalled: "paused", away: "paused" };
    const patch = { klass: { control: control.state } };
    if (statuses[control.state]) patch.run = { status: statuses[control.state], note: null };
    if (control.speed !== null && control.speed !== undefined) patch.settings = { speed: control.speed };
    store.update(patch);
  }

  function classEnded(ended) {
    const was = state().klass.role;
    if (was === "instructor") remember(STORED, null);
    polls.forget();
    tournament.forget();
    exercise.forget();
    // Why it ended in the page's words (by its key), or in the server's for a key the page does not know.
    const reason = `class.ending.${ended.why}`;
    setClass({ role: "none", code: null, presenter: false }, {
      id: "class.endedBecause", params: { code: ended.code, reason: hasWords(reason) ? reason : null, raw: ended.reason },
    });
    if (was === "student") playback.showIdle();
  }

  function togglePresenter() {
    const presenter = !state().klass.presenter;
    remember(PRESENTING, presenter ? state().klass.code : null, "session");
    store.update({ klass: { presenter } });
  }

  /** Take the count of students following the class the page leads, as the server tells it. */
  function studentsCounted({ students }) {
    if (state().klass.role === "instructor") store.update({ klass: { students } });
  }

  // The class's news, by the server's name for it.
  const news = { class_state: classState, class_control: classControl, class_ended: classEnded,
    class_displaced: displaced, class_view: viewed, class_students: studentsCounted };
  return { open, join, leave, end, invited, reconnected, started, backToLive, mark, claimSecond, disconnected,
    togglePresenter, rejoin: () => join(state().klass.code), news };
}
