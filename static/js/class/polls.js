// Class questions: the instructor asks where the knight goes next, each student answers with one
// square, and the reveal shows the class's answers over the board before the move plays. A
// two-round question (Peer Instruction) has the students answer alone, discuss with a neighbour,
// and answer again; the reveal shows both rounds and how the answers moved between them.
import { refusal } from "../words/refusals.js";
import { download } from "../share.js";

// open: the question asked now (its stage: first, discuss or second); mine: this student's answer
// to it in the round open, first: in the first round once that is closed; sure: how sure the
// student says it is (null: not said); timer: the soft timer the instructor started, {id, seconds,
// ends} (ends on performance.now()'s clock), or null; apart: whether it is counted
// apart (the page joined after the question was asked); answered: how many of the
// students following when it was asked (present, null if not known) have answered it, and late:
// how many who joined after (not counted), and seated: how many of those answered from students'
// seats (see the server's edge/seats.py), all the instructor's count; result: the last question
// revealed; history: every result this page saw, each with the student's own answer (mine);
// note: the last refusal.
const NO_COUNT = { answered: 0, late: 0, seated: 0, present: null };
export const NO_POLL = { open: null, mine: null, first: null, sure: null, timer: null, apart: false, ...NO_COUNT,
  result: null, history: [], note: null };

/** Return the whole seconds a soft timer has left now (0 once it has run out). */
export const secondsLeft = (timer, now = performance.now()) => Math.max(0, Math.ceil((timer.ends - now) / 1000));

/** Return the counts of an answer, news or result: answered, late, seated, present. */
const countOf = ({ answered = 0, late = 0, seated = 0, present = null }) => ({ answered, late, seated, present });

/** The words that say how a question asked again turned turns the board. */
export const TURNED = { mirror: "poll.turnedMirror", rotate: "poll.turnedRotate" };

/** Return the result a question asked again turned turns (null if it is none, or not kept). */
export function originalOf(result, history) {
  return result?.transfer ? history.find((r) => r.id === result.transfer.of) ?? null : null;
}

/** Return a result's round (0: the first, -1: the last), as a result of one round has it. */
const roundOf = (result, round) => result.rounds?.at(round) ?? result;

/** Return the share of right answers in results (in round: 0 the first, -1 the last), or null if
 * nobody answered. */
export function accuracy(results, round = -1) {
  const answered = results.reduce((sum, r) => sum + roundOf(r, round).answered, 0);
  return answered ? results.reduce((sum, r) => sum + roundOf(r, round).right, 0) / answered : null;
}

/** Tell whether a result had two rounds: the class answered again after discussing. */
export const twoRounds = (result) => (result?.rounds?.length ?? 1) > 1;

/** Return the moves between a two-round result's rounds to other squares, most students first. */
export function moves(result) {
  return (result.shift ?? []).filter(([from, to]) => from !== to).sort((a, b) => b[2] - a[2] || a[0] - b[0] || a[1] - b[1]);
}

/** Return the results of the series the last result belongs to (questions asked again turned apart). */
export function lastSeries(history) {
  const last = history.findLast((r) => !r.transfer);
  return last ? history.filter((r) => r.series === last.series && !r.transfer) : [];
}

/** Tell whether the last series asked has questions left: the next question goes on with it. */
export function seriesGoesOn(history) {
  const last = lastSeries(history).at(-1);
  return Boolean(last && last.index < last.of);
}

const SURE = ["sure", "unsure", "unsaid"];

/** Return the results as CSV: one row of anonymous tallies per question (the last round's, then
 * the first round's, the shift and how sure, for two rounds). name(square) names squares. */
export function resultsCsv(history, name) {
  const rows = [["question", "series", "in_series", "of", "event", "from", "answer", "move", "present", "answered",
    "right", "share_right", "late", "seated", "answers", "rounds", "round1_answered", "round1_right", "round1_share_right",
    "right_to_right", "wrong_to_right", "right_to_wrong", "wrong_to_wrong",
    ...["right", "wrong"].flatMap((side) => SURE.map((said) => `${said}_${side}`)), "moved", "turned_from", "turn"]];
  const share = ({ answered, right }) => (answered ? (right / answered).toFixed(3) : "");
  for (const r of history) {
    const tally = r.counts.map(([square, n]) => `${name(square)}:${n}`).join(" ");
    const first = roundOf(r, 0), two = twoRounds(r), sure = roundOf(r, -1).sure;
    const moved = two ? ["right_right", "wrong_right", "right_wrong", "wrong_wrong"].map((key) => r.moved[key]) : ["", "", "", ""];
    rows.push([r.id, r.series, r.index, r.of, r.at, name(r.square), name(r.answer), r.kind, r.present ?? "",
      r.answered, r.right, share(r), r.late ?? 0, r.seated ?? 0, tally, r.rounds?.length ?? 1,
      ...(two ? [first.answered, first.right, share(first)] : ["", "", ""]), ...moved,
      ...["right", "wrong"].flatMap((side) => SURE.map((said) => sure?.[side][said] ?? "")),
      moves(r).map(([from, to, n]) => `${name(from)}>${name(to)}:${n}`).join(" "),
      r.transfer?.of ?? "", r.transfer?.turn ?? ""]);
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

  /** Ask the class about the run's newest position: the series' next question, or the first of
   * series; peer: in two rounds; confidence: each answer says how sure it is. */
  async function ask(series, { peer = false, confidence = false } = {}) {
    runs.main.seek(runs.main.timeline.head);
    const starts = !seriesGoesOn(state().poll.history) && series > 1;
    const answer = await request("poll_open", { ...(starts ? { series } : {}), peer, confidence });
    if (refused(answer)) opened(answer.poll, countOf(answer));
  }

  /** Start a soft timer of that many seconds on the open question: nothing closes when it ends. */
  async function startTimer(seconds) {
    const open = state().poll.open;
    const answer = open && (await request("poll_timer", { id: open.id, seconds }));
    if (answer && refused(answer)) timed(answer);
  }

  // The room sees the seconds left, counted down on this page's clock from what the server said.
  let ticking = null;
  function timed({ id, seconds, left }) {
    if (state().poll.open?.id !== id) return;
    store.update({ poll: { timer: { id, seconds, ends: performance.now() + left * 1000 } } });
    clearInterval(ticking);
    ticking = setInterval(() => {
      const { timer, open } = state().poll;
      if (!timer || open?.id !== timer.id || secondsLeft(timer) === 0) clearInterval(ticking);
      store.touch();
    }, 1000);
  }

  /** Ask the question revealed last again, on the board turned ("mirror" or "rotate"). */
  async function transfer(turn, { peer = false, confidence = false } = {}) {
    const last = state().poll.history.at(-1);
    if (!last) return;
    runs.main.seek(runs.main.timeline.head); // the turned board shows where the run stands
    const answer = await request("poll_transfer", { id: last.id, turn, peer, confidence });
    if (refused(answer)) opened(answer.poll, countOf(answer));
  }

  /** Move a two-round question on to the discussion, or from it to the second round. */
  async function advance(stage) {
    const open = state().poll.open;
    const answer = open && (await request("poll_stage", { id: open.id, stage }));
    if (answer && refused(answer)) {
      staged(answer);
      store.update({ poll: countOf(answer) });
    }
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

  /** Send a student's answer to the round open, once (with how sure, if the question asks). */
  async function answer(square) {
    const { open, mine, sure } = state().poll;
    if (!open || mine !== null || open.stage === "discuss" || state().klass.role !== "student") return;
    store.update({ poll: { mine: square, apart: false, note: null } }); // shown at once; taken back if refused
    const said = open.confidence && sure !== null ? { sure } : {};
    const taken = await request("poll_answer", { id: open.id, square, round: open.round, ...said });
    const now = state().poll.open;
    if (now?.id !== open.id) return;
    // Round 1 closed while the answer was on its way: the discussion took it as the first answer.
    const moved = now.round !== open.round || now.stage === "discuss";
    if (!refused(taken)) store.update({ poll: moved ? { first: null } : { mine: null } });
    else if (taken.late && !moved) store.update({ poll: { apart: true } });
  }

  /** Keep how sure the student says it is of the answer it is about to give. */
  function choose(sure) {
    store.update({ poll: { sure } });
  }

  // The class's news.

  function opened(question, count = NO_COUNT) {
    if (state().poll.open?.id === question.id) return;
    store.update({ poll: { open: question, mine: null, first: null, sure: null, timer: null, apart: false, ...count,
      result: null, note: null } });
    if (question.timer) timed({ id: question.id, ...question.timer });
    if (state().klass.role === "student") live();
  }

  // The discussion keeps the first round's answer aside; the second round asks afresh.
  function staged({ id, stage, round }) {
    const { open, mine } = state().poll;
    if (open?.id !== id || open.stage === stage) return;
    const patch = { open: { ...open, stage, round } };
    if (stage === "discuss") Object.assign(patch, { first: mine, mine: null, apart: false });
    else Object.assign(patch, { mine: null, sure: null, apart: false, ...NO_COUNT, present: state().poll.present });
    store.update({ poll: patch });
  }

  function counted(news) {
    if (state().poll.open?.id === news.id) store.update({ poll: countOf(news) });
  }

  function revealed(result) {
    const { history, mine, first, open } = state().poll;
    if (history.some((r) => r.id === result.id)) return;
    const ours = open?.id === result.id;
    // Revealed during the discussion, the first round's answer is the last one given.
    const last = ours && open.stage === "discuss" ? first : mine;
    const kept = { ...result, mine: ours ? last : null, first: ours && twoRounds(result) ? first : null };
    store.update({ poll: { open: null, mine: null, result: kept, history: [...history, kept], ...countOf(result) } });
  }

  function closed({ id }) {
    if (state().poll.open?.id === id) store.update({ poll: { open: null, mine: null, first: null } });
  }

  /** Take the question open (and, for the instructor, the count and history) from a welcome or a claim. */
  function restored(news) {
    const patch = { open: news.poll ?? null };
    if (news.poll?.id !== state().poll.open?.id) patch.timer = null;
    if (news.answer !== undefined) Object.assign(patch, { mine: news.answer, first: news.first ?? null });
    else if (news.poll?.id !== state().poll.open?.id) Object.assign(patch, { mine: null, first: null });
    if (news.answered !== undefined) Object.assign(patch, countOf(news));
    if (news.history) patch.history = news.history;
    store.update({ poll: patch });
    if (news.poll?.timer) timed({ id: news.poll.id, ...news.poll.timer });
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
  const news = { poll_opened: opened, poll_stage: staged, poll_timer: timed, poll_count: counted, poll_revealed: revealed,
    poll_closed: closed };
  return { ask, transfer, advance, startTimer, reveal, cancel, answer, choose, restored, forget, download: downloadResults,
    news };
}
