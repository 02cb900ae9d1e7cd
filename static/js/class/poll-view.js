// The class's question box: the instructor's tools and count, a student's prompt and answer, and
// after the reveal the share of the class who had it right, over a series too; for two rounds,
// both rounds' shares, how the answers moved between them and how sure they were.
import { controls } from "../controls.js";
import { t } from "../words/i18n.js";
import { TURNED, accuracy, lastSeries, moves, originalOf, secondsLeft, seriesGoesOn, twoRounds } from "./polls.js";
import { answersOf, nameOf } from "../lane-facts.js";
import { setText } from "../dom.js";

const percent = (share) => Math.round(share * 100);
const SHIFT_ROWS = 8; // the moves the projector lists, most students first

/** Return the poll view. */
export function createPollView(els) {
  // The instructor's count says against how many students it stands, how many answered from
  // students' seats (which no script can have), and flags answers from pages that joined after
  // the question was asked (a script speaking for many): not counted.
  function counts({ present, late, seated }) {
    const gap = t("sentence.gap");
    let said = present === null || present === undefined ? "" : gap + t("poll.present", { present });
    if (seated) said += gap + t("poll.seated", { n: seated });
    return late ? said + gap + t("poll.late", { n: late }) : said;
  }

  const COUNTING = { first: "poll.countingFirst", second: "poll.countingSecond" };

  // The instructor's line: the count, or the share right; for two rounds, the share right in each
  // round, with the details below it (how the answers moved, how sure, against how many students).
  function leaderText(poll, presenting, why) {
    const { open, result } = poll;
    if (open) {
      const params = { n: poll.answered, index: open.index, of: open.of };
      const key = open.stage === "discuss" ? "poll.discussing" : open.peer ? COUNTING[open.stage] : "poll.counting";
      return [t(key, params) + counts(poll), ""];
    }
    // In the full page a greyed Ask's reason takes the idle words' line (app.css keeps it off the
    // tools' row, which it would make wrap): the board under the box keeps its place.
    if (!result) return [presenting ? "" : why || t("poll.idle"), ""];
    const reason = why && !presenting ? t("sentence.gap") + why : "";
    const share = percent(accuracy([result]) ?? 0);
    const asFirst = firstAsked(result, poll.history);
    if (!twoRounds(result)) {
      const said = t("poll.share", { n: result.answered, right: result.right, share });
      return [said + asFirst + sureText(result) + counts(result) + reason, ""];
    }
    const [first] = result.rounds, { moved } = result;
    const shares = t("poll.shareRounds", { first: percent(accuracy([result], 0) ?? 0), firstRight: first.right,
      firstN: first.answered, share, right: result.right, n: result.answered });
    const shift = t("poll.moved", { wrongRight: moved.wrong_right, rightWrong: moved.right_wrong });
    return [shares + asFirst + reason, shift + sureText(result) + counts(result)];
  }

  // A question asked again turned says so first, and after its reveal sets its share beside the
  // share right on the question as first asked.
  function turnedText(poll) {
    const asked = poll.open ?? poll.result;
    return asked?.transfer ? t(TURNED[asked.transfer.turn]) + t("sentence.gap") : "";
  }

  function firstAsked(result, history) {
    const original = originalOf(result, history);
    return original ? t("sentence.gap") + t("poll.asFirst", { share: percent(accuracy([original]) ?? 0) }) : "";
  }

  // How sure the last round's right and wrong answers were, if the question asked.
  function sureText(result) {
    const sure = result.rounds?.at(-1).sure;
    if (!sure) return "";
    const { right, wrong } = sure, unsaid = right.unsaid + wrong.unsaid;
    const said = t("poll.sureCounts", { rightSure: right.sure, rightUnsure: right.unsure, wrongSure: wrong.sure,
      wrongUnsure: wrong.unsure });
    return t("sentence.gap") + said + (unsaid ? t("sentence.gap") + t("poll.unsaid", { n: unsaid }) : "");
  }

  function openText(poll, lane) {
    const { open, mine, first } = poll;
    const name = (square) => nameOf(lane, square);
    if (open.stage === "discuss") return first === null ? t("poll.discussNone") : t("poll.discussMine", { square: name(first) });
    if (mine === null) {
      if (!open.peer) return t("poll.tap");
      if (open.stage === "first") return t("poll.tapFirst");
      return first === null ? t("poll.tapSecondNone") : t("poll.tapSecond", { square: name(first) });
    }
    if (poll.apart) return t("poll.waitingApart", { square: name(mine) });
    if (open.stage === "second" && first !== null) return t("poll.waitingSecond", { square: name(mine), first: name(first) });
    return t(open.peer && open.stage === "first" ? "poll.waitingFirst" : "poll.waiting", { square: name(mine) });
  }

  // Between questions, the result while the board shows the class's answers, else what to do when asked.
  function studentText(poll, lane, answers) {
    const { open, result } = poll;
    if (open) return openText(poll, lane);
    if (!result || !answers) return t("poll.idleStudent");
    const params = { square: nameOf(lane, result.answer), share: percent(accuracy([result]) ?? 0) };
    // On a turned board the knight made no move: the sentence says where the search would go.
    const [missed, right, wrong] = result.transfer ? ["poll.missedTurned", "poll.rightTurned", "poll.wrongTurned"]
      : ["poll.missed", "poll.right", "poll.wrong"];
    const mine = result.mine === null || result.mine === undefined ? t(missed, params)
      : t(result.mine === result.answer ? right : wrong, { ...params, mine: nameOf(lane, result.mine) });
    const asFirst = firstAsked(result, poll.history);
    if (!twoRounds(result)) return mine + asFirst;
    const gap = t("sentence.gap");
    const yours = result.first === null || result.first === undefined || result.mine === null || result.mine === undefined
      ? "" : gap + t("poll.yourRounds", { first: nameOf(lane, result.first), mine: nameOf(lane, result.mine) });
    return mine + yours + gap + t("poll.classRounds", { first: percent(accuracy([result], 0) ?? 0), share: params.share })
      + asFirst;
  }

  function summary(poll, leading) {
    const series = lastSeries(poll.history);
    const last = series.at(-1);
    if (!last || last.of < 2) return "";
    const share = percent(accuracy(series) ?? 0);
    if (leading && series.some(twoRounds)) {
      // The first round of a one-round question is its last: its answers count in both.
      const first = percent(accuracy(series, 0) ?? 0);
      return t("poll.seriesClassRounds", { done: series.length, of: last.of, first, share });
    }
    if (leading) return t("poll.seriesClass", { done: series.length, of: last.of, share });
    const right = series.filter((r) => r.mine === r.answer).length;
    return t("poll.seriesMine", { done: series.length, of: last.of, right });
  }

  function render(state, runs) {
    const { poll, klass } = state, c = controls(state, runs);
    const leading = klass.role === "instructor", following = klass.role === "student";
    els.pollLead.hidden = !leading;
    // The instructor's box holds the tools to ask; a student's stands over the board, its answer
    // form too, all through the class: the board keeps its place and size when a question comes.
    els.poll.hidden = !leading && !following;
    if (els.poll.hidden) return;
    const goesOn = seriesGoesOn(poll.history);
    els.pollAsk.disabled = !c.ask.enabled;
    // A greyed-out Ask says why beside it.
    const why = c.ask.enabled || !c.ask.why ? "" : t(c.ask.why);
    setText(els.pollWhy, why);
    // In the full page the reason is read on the line under the tools (leaderText), and beside Ask
    // only by a screen reader, as its description: on the tools' row it would make them wrap.
    els.pollWhy.classList.toggle("sr-only", !klass.presenter);
    els.pollSeries.disabled = !c.ask.enabled || goesOn;
    const last = poll.history.at(-1);
    els.pollAsk.textContent = goesOn ? t("poll.next", { index: last.index + 1, of: last.of }) : t("poll.ask");
    els.pollReveal.hidden = els.pollCancel.hidden = !poll.open;
    els.pollReveal.disabled = els.pollCancel.disabled = !c.reveal.enabled;
    els.pollMirror.hidden = els.pollRotate.hidden = !c.transfer.enabled;
    els.pollClockStart.hidden = !c.reveal.enabled;
    // A soft timer counts down for all to see; when it ends, it says so and closes nothing.
    const timer = poll.open && poll.timer?.id === poll.open.id ? poll.timer : null;
    const left = timer && secondsLeft(timer);
    setText(els.pollClock, !timer ? "" : left ? t("poll.clockLeft", { n: left }) : t("poll.clockOut"));
    els.pollDiscuss.hidden = !c.discuss.enabled;
    els.pollSecond.hidden = !c.second.enabled;
    els.pollPeer.disabled = els.pollConfidence.disabled = !c.ask.enabled;
    els.pollResults.disabled = !c.results.enabled;
    const [said, detail] = leading ? leaderText(poll, klass.presenter, why)
      : [studentText(poll, runs.main, answersOf(runs.main, state)?.heat), ""];
    const text = turnedText(poll) + said;
    els.pollText.textContent = poll.note ? text + t("sentence.gap") + t(poll.note.id, poll.note.params) : text;
    setText(els.pollDetail, detail);
    els.pollForm.hidden = !following;
    els.pollSquare.disabled = els.pollAnswer.disabled = !c.answer.enabled;
    els.pollSure.hidden = !(following && c.answer.enabled && poll.open?.confidence);
    for (const radio of els.pollSure.querySelectorAll("input")) radio.checked = radio.value === String(poll.sure);
    els.poll.dataset.open = String(Boolean(poll.open));
    els.poll.dataset.stage = poll.open?.stage ?? "";
    els.pollSummary.textContent = summary(poll, leading);
    renderShift(leading && !poll.open ? poll.result : null, runs.main);
  }

  // The moves between the rounds, drawn again only when the result or the board's names change.
  let shown = null;
  function renderShift(result, lane) {
    const rows = twoRounds(result) ? moves(result).slice(0, SHIFT_ROWS) : [];
    const items = rows.map(([from, to, n]) => t("poll.shiftMove", { from: nameOf(lane, from), to: nameOf(lane, to), n }));
    els.pollShift.hidden = rows.length === 0;
    const key = JSON.stringify(items);
    if (key === shown) return;
    shown = key;
    els.pollShiftRows.replaceChildren(...items.map((text) => {
      const item = document.createElement("li");
      item.textContent = text;
      return item;
    }));
  }

  return { render };
}
