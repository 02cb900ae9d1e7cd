// The class's question box: the instructor's tools and count, a student's prompt and answer, and
// after the reveal the share of the class who had it right, over a series too.
import { controls } from "../controls.js";
import { t } from "../i18n.js";
import { accuracy, lastSeries, seriesGoesOn } from "../polls.js";
import { answersOf, nameOf } from "../lane-facts.js";

const percent = (share) => Math.round(share * 100);

/** Return the poll view. */
export function createPollView(els) {
  // The instructor's count says against how many students it stands, and flags answers from
  // pages that joined after the question was asked (a script speaking for many): not counted.
  function counts({ present, late }) {
    const gap = t("sentence.gap");
    const of = present === null || present === undefined ? "" : gap + t("poll.present", { present });
    return late ? of + gap + t("poll.late", { n: late }) : of;
  }

  function leaderText(poll, presenting) {
    const { open, result } = poll;
    if (open) return t("poll.counting", { n: poll.answered, index: open.index, of: open.of }) + counts(poll);
    if (result) {
      const share = t("poll.share", { n: result.answered, right: result.right, share: percent(accuracy([result]) ?? 0) });
      return share + counts(result);
    }
    return presenting ? "" : t("poll.idle");
  }

  function studentText(poll, lane) {
    const { open, result, mine } = poll;
    if (open && mine === null) return t("poll.tap");
    if (open) return t(poll.apart ? "poll.waitingApart" : "poll.waiting", { square: nameOf(lane, mine) });
    if (!result) return "";
    const params = { square: nameOf(lane, result.answer), share: percent(accuracy([result]) ?? 0) };
    if (result.mine === null || result.mine === undefined) return t("poll.missed", params);
    return t(result.mine === result.answer ? "poll.right" : "poll.wrong", { ...params, mine: nameOf(lane, result.mine) });
  }

  function summary(poll, leading) {
    const series = lastSeries(poll.history);
    const last = series.at(-1);
    if (!last || last.of < 2) return "";
    if (leading) return t("poll.seriesClass", { done: series.length, of: last.of, share: percent(accuracy(series) ?? 0) });
    const right = series.filter((r) => r.mine === r.answer).length;
    return t("poll.seriesMine", { done: series.length, of: last.of, right });
  }

  function render(state, runs) {
    const { poll, klass } = state, c = controls(state, runs);
    const leading = klass.role === "instructor", following = klass.role === "student";
    els.pollLead.hidden = !leading;
    // The instructor's box holds the tools to ask; a student's stands over the board while a
    // question is open, and while the board shows its answers.
    els.poll.hidden = !leading && !(following && (poll.open || answersOf(runs.main, state)?.heat));
    if (els.poll.hidden) return;
    const goesOn = seriesGoesOn(poll.history);
    els.pollAsk.disabled = !c.ask.enabled;
    els.pollSeries.disabled = !c.ask.enabled || goesOn;
    const last = poll.history.at(-1);
    els.pollAsk.textContent = goesOn ? t("poll.next", { index: last.index + 1, of: last.of }) : t("poll.ask");
    els.pollReveal.hidden = els.pollCancel.hidden = !poll.open;
    els.pollReveal.disabled = els.pollCancel.disabled = !c.reveal.enabled;
    els.pollResults.disabled = !c.results.enabled;
    const text = leading ? leaderText(poll, klass.presenter) : studentText(poll, runs.main);
    els.pollText.textContent = poll.note ? text + t("sentence.gap") + t(poll.note.id, poll.note.params) : text;
    els.pollForm.hidden = !following || !poll.open;
    els.pollSquare.disabled = els.pollAnswer.disabled = !c.answer.enabled;
    els.poll.dataset.open = String(Boolean(poll.open));
    els.pollSummary.textContent = summary(poll, leading);
  }

  return { render };
}
