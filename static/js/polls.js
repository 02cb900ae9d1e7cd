// Class questions: the instructor asks where the knight goes next, each student answers with one
// square, and the reveal shows the class's answers over the board before the move plays.
import { refusal } from "./refusals.js";
import { download } from "./share.js";

// open: the question asked now; mine: this student's answer to it, apart: whether it is counted
// apart (the page joined after the question was asked); answered: how many of the
// students following when it was asked (present, null if not known) have answered it, and late:
// how many who joined after (not counted), both the instructor's count; result: the last question
// revealed; history: every result this page saw, each with the student's own answer (mine);
// note: the last refusal.
const NO_COUNT = { answered: 0, late: 0, present: null };
export const NO_POLL = { open: null, mine: null, apart: false, ...NO_COUNT, result: null, history: [], note: null };

/** Return the counts of an answer, news or result: answered, late, present. */
const countOf = ({ answered = 0, late = 0, present = null }) => ({ answered, late, present });

/** Return the share of right answers in results, or null if nobody answered. */
export function accuracy(results) {
  const answered = results.reduce((sum, r) => sum + r.answered, 0);
  return answered ? results.reduce((sum, r) => sum + r.right, 0) / answered : null;
}

/** Return the results of the series the last result belongs to. */
export function lastSeries(history) {
  const last = history.at(-1);
  return last ? history.filter((r) => r.series === last.series) : [];
}

/** Tell whether the last series asked has questions left: the next question goes on with it. */
export function seriesGoesOn(history) {
  const last = history.at(-1);
  return Boolean(last && last.index < last.of);
}

/** Return the results as CSV: one row of anonymous tallies per question. name(square) names squares. */
export function resultsCsv(history, name) {
  const rows = [["question", "series", "in_series", "of", "event", "from", "answer", "move", "present", "answered",
    "right", "share_right", "late", "answers"]];
  for (const r of history) {
    const share = r.answered ? (r.right / r.answered).toFixed(3) : "";
    const tally = r.counts.map(([square, n]) => `${name(square)}:${n}`).join(" ");
    rows.push([r.id, r.series, r.index, r.of, r.at, name(r.square), name(r.answer), r.kind, r.present ?? "",
      r.answered, r.right, share, r.late ?? 0, tally]);
  }
  return rows.map((row) => row.join(",")).join("\r\n") + "\r\n";
}

/** Return the class question actions on store and runs; live() takes a student back to live. */
export function createPolls(store, runs, live) {
  const state = () => store.state;
  const request = (event, payload) => runs.main.server.request(event, payload);
  // A refusal shows where its reader looks: the student's question box, the instructor's status line.
  const refused = (answer) => {
    if (!answer.ok && !answer.timedOut) {
      const note = refusal(answer);
      store.update(state().klass.role === "student" ? { poll: { note } } : { run: { note } });
    }
    return answer.ok;
  };

  /** Ask the class about the run's newest position: the series' next question, or the first of series. */
  async function ask(series) {
    runs.main.seek(runs.main.timeline.head);
    const answer = await request("poll_open", !seriesGoesOn(state().poll.history) && series > 1 ? { series } : {});
    if (refused(answer)) opened(answer.poll, countOf(answer));
  }

  // The instructor's page is told by the answers to its requests; the room, by the server's news.
  async function reveal() {
    const open = state().poll.open;
    const answer = open && (await request("poll_reveal", { id: open.id }));
    if (answer && refused(answer)) revealed(answer.result);
  }

  async function cancel() {
    const open = state().poll.open;
    if (open && refused(await request("poll_cancel", { id: open.id }))) closed(open);
  }

  /** Send a student's answer to the question open, once. */
  async function answer(square) {
    const { open, mine } = state().poll;
    if (!open || mine !== null || state().klass.role !== "student") return;
    store.update({ poll: { mine: square, apart: false, note: null } }); // shown at once; taken back if refused
    const taken = await request("poll_answer", { id: open.id, square });
    if (!refused(taken)) store.update({ poll: { mine: null } });
    else if (taken.late && state().poll.open?.id === open.id) store.update({ poll: { apart: true } });
  }

  // The class's news.

  function opened(question, count = NO_COUNT) {
    if (state().poll.open?.id === question.id) return;
    store.update({ poll: { open: question, mine: null, apart: false, ...count, result: null, note: null } });
    if (state().klass.role === "student") live();
  }

  function counted(news) {
    if (state().poll.open?.id === news.id) store.update({ poll: countOf(news) });
  }

  function revealed(result) {
    const { history, mine, open } = state().poll;
    if (history.some((r) => r.id === result.id)) return;
    const kept = { ...result, mine: open?.id === result.id ? mine : null };
    store.update({ poll: { open: null, mine: null, result: kept, history: [...history, kept], ...countOf(result) } });
  }

  function closed({ id }) {
    if (state().poll.open?.id === id) store.update({ poll: { open: null, mine: null } });
  }

  /** Take the question open (and, for the instructor, the count and history) from a welcome or a claim. */
  function restored(news) {
    const patch = { open: news.poll ?? null };
    if (news.answer !== undefined) patch.mine = news.answer;
    else if (news.poll?.id !== state().poll.open?.id) patch.mine = null;
    if (news.answered !== undefined) Object.assign(patch, countOf(news));
    if (news.history) patch.history = news.history;
    store.update({ poll: patch });
  }

  function forget() {
    store.update({ poll: NO_POLL });
  }

  /** Download the results as a CSV file. */
  function downloadResults(name) {
    const blob = new Blob([resultsCsv(state().poll.history, name)], { type: "text/csv" });
    download(`knights-tour-class-${state().klass.code ?? "results"}.csv`, blob);
  }

  // The questions' news, by the server's name for it.
  const news = { poll_opened: opened, poll_count: counted, poll_revealed: revealed, poll_closed: closed };
  return { ask, reveal, cancel, answer, restored, forget, download: downloadResults, news };
}
