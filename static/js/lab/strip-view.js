// The strip: its setup's fields, each ordering's row of boards (each a link to its run), the
// tally of each row, and the verdict that compares them.
import { t } from "../words/i18n.js";
import { orderLabel } from "../orderings/words.js";
import { squareName } from "../notation.js";
import { NAMED } from "../orderings/orderings.js";
import { toLink } from "../settings.js";
import { MAX_COMPARED } from "./strip.js";
import { stripRows } from "./strip-facts.js";
import { setText, setValue } from "../dom.js";

/** Return a board's end in words. */
function outcomeWords(cell) {
  return cell ? t(`strip.outcome.${cell.outcome}`, { n: cell.backtracks }) : t("strip.outcome.waiting");
}

/** Return a row's tally in words. */
function tallyWords(tally) {
  return t("strip.tally", tally) + (tally.none ? t("strip.tallyNone", tally) : "")
    + (tally.waiting ? t("strip.tallyWaiting", tally) : "");
}

/**
 * Return a board's cell: a link to its run when the page can run it (limits: the server's), else
 * its words alone; every: the strip tries every square of one board, and its cells name squares.
 */
export function boardCell(limits, { board, cell }, order, settings, every) {
  const { rows, cols, start } = board;
  const name = `${rows} × ${cols}`;
  const words = t("strip.cell", { board: name, start: squareName(start, rows, cols), outcome: outcomeWords(cell) });
  const runnable = rows <= limits.maxSide && cols <= limits.maxSide;
  const el = document.createElement(runnable ? "a" : "span");
  if (runnable) {
    // A search stopped at the budget opens stopped where the strip's stopped: its events are its budget.
    const budget = cell?.outcome === "stopped" ? cell.events ?? null : null;
    el.href = toLink({ ...settings, mode: "board", rows, cols, start, order, budget }, null);
    Object.assign(el, { target: "_blank", rel: "noopener" }); // the strip stays open in its tab
  }
  el.className = `strip-cell cell-${cell ? cell.outcome : "waiting"}`;
  el.textContent = every ? squareName(start, rows, cols) : String(rows);
  el.title = runnable ? words : `${words}. ${t("strip.tooBig", { board: name, max: limits.maxSide })}`;
  el.setAttribute("aria-label", el.title);
  const item = document.createElement("li");
  item.append(el);
  return item;
}

/** Return the strip's view; limits are the server's (the largest board a run may have). */
export function createStripView(els, limits) {
  let shownRows = null;
  let shownChoices = "";
  let shownFrom = [];
  function render(state) {
    // The strip reads nothing of a run: while a search plays, each frame leaves it as it is.
    const from = [state.strip, state.settings, state.orderings, state.connection, state.view.language];
    if (from.every((part, i) => part === shownFrom[i])) return;
    shownFrom = from;
    const { strip, settings, orderings } = state;
    const { setup } = strip;
    const connected = state.connection === "up";
    setValue(els.stripFrom, String(setup.from));
    setValue(els.stripTo, String(setup.to));
    setValue(els.stripBudget, String(setup.budget));
    els.stripEvery.checked = setup.every;
    setText(els.stripEveryLabel, t("strip.every", { rows: settings.rows, cols: settings.cols }));
    els.stripFrom.disabled = els.stripTo.disabled = setup.every;
    els.stripRun.disabled = strip.running || !connected || settings.mode === "example";
    els.stripStop.disabled = !strip.running;

    // The orderings to compare with: the page's named ones and the student's kept ones.
    const choices = [...Object.keys(NAMED), ...orderings.library.map(({ form }) => form)]
      .filter((order) => order !== settings.order);
    const key = JSON.stringify([choices, setup.compared, orderings.library, state.view.language]);
    if (key !== shownChoices) {
      shownChoices = key;
      els.stripCompared.replaceChildren(...choices.map((order) => {
        const label = document.createElement("label");
        label.className = "check";
        const box = document.createElement("input");
        box.type = "checkbox";
        box.value = order;
        box.checked = setup.compared.includes(order);
        box.disabled = !box.checked && setup.compared.length >= MAX_COMPARED;
        label.append(box, ` ${orderLabel(order, orderings.library)}`);
        return label;
      }));
    }

    const rows = stripRows(strip);
    const done = Object.keys(strip.cells).length, total = strip.orders.length * strip.boards.length;
    const note = strip.note ? t(strip.note.id, { ...strip.note.params, what: strip.note.params?.what && t(strip.note.params.what) })
      : strip.running ? t("strip.running", { done, total }) : "";
    setText(els.stripNote, note);
    const verdict = strip.boards.length && strip.boards[0].start !== strip.boards.at(-1).start
      ? "strip.verdictEvery" : "strip.verdict";
    const verdicts = rows.map(({ order, tally }, i) => t(i ? "strip.verdictOther" : verdict,
      { name: orderLabel(order, orderings.library), ...tally }));
    setText(els.stripVerdict, verdicts.join(t("list.semicolon")));

    const drawn = [strip.cells, strip.id, strip.orders, orderings.library, state.view.language];
    if (shownRows && drawn.every((part, i) => part === shownRows[i])) return;
    shownRows = drawn;
    els.stripRows.replaceChildren(...rows.map(({ order, cells, tally }) => {
      const row = document.createElement("div");
      row.className = "strip-row";
      const title = document.createElement("h3");
      title.textContent = orderLabel(order, orderings.library);
      const sum = document.createElement("p");
      sum.className = "strip-tally";
      sum.textContent = tallyWords(tally);
      const list = document.createElement("ol");
      list.className = "strip-cells";
      list.append(...cells.map((each) => boardCell(limits, each, order, settings, setup.every)));
      row.append(title, sum, list);
      return row;
    }));
  }

  return { render };
}
