// The class tournament: the instructor's setup and tools, a student's entry, their rank and own
// boards, and the standings (on the projector, the first ten).
import { t } from "../words/i18n.js";
import { keyWords, orderLabel } from "../orderings/words.js";
import { NAMED, idleFrom, keysOf } from "../orderings/orderings.js";
import { OUTCOME_CODES, entryOrder, standings } from "./tournament.js";
import { setText, setValue } from "../dom.js";
import { boardCell } from "./strip-view.js";

const SHOWN = 10; // rows a student's page and the projector show: the leaders, then one's own

/** Return the square a tournament's board of side n starts from (server/wire.py TournamentRules). */
const startOf = (n, start) => (start === "corner" ? 0 : Math.floor(n / 2) * n + Math.floor(n / 2));

/** Return a button of a standings row: action is what it does (watch, race, hide), words its full name. */
function rowButton(label, words, action) {
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = t(label);
  button.setAttribute("aria-label", words);
  button.dataset.action = action;
  return button;
}

/** Return the tournament's view; limits are the server's. */
export function createTournamentView(els, limits) {
  let shownFrom = [];
  let wasNumber = 0;

  function nameOf(row, mine) {
    const name = row.hidden ? t("tournament.hiddenName") : row.name ?? t("tournament.anonymous");
    return row.id === mine ? `${name} (${t("tournament.you")})` : name;
  }

  function tableRow(row, { mine, leading, library }) {
    const tr = document.createElement("tr");
    tr.dataset.entry = row.id;
    tr.className = [row.id === mine && "tournament-me", row.late && "tournament-late"].filter(Boolean).join(" ");
    // Its author's name for a composed ordering, which the whole class reads; else the viewer's words.
    const label = row.title ?? orderLabel(row.order, library);
    // A late entry's rank is among the late ones, and says so.
    const rank = row.late ? t("tournament.lateRank", { rank: row.rank }) : String(row.rank);
    const cells = [["rank", rank], ["name", nameOf(row, mine)], ["order", label],
      ["clean", String(row.tally.clean)], ["backtracks", row.tally.backtracks.toLocaleString()],
      ["searched", `${row.tally.searched}/${row.tally.boards}`]];
    for (const [column, text] of cells) {
      const td = document.createElement(column === "name" ? "th" : "td");
      if (column === "name") td.scope = "row";
      td.className = `col-${column}`;
      td.textContent = text;
      if (column === "order") {
        // A composed ordering's written form beside its name: the class reads how it was made.
        if (!Object.hasOwn(NAMED, row.order) && label !== row.order) {
          const code = document.createElement("code");
          code.textContent = row.order;
          td.append(" ", code);
        }
        // An entry whose later keys decide nothing searches as its first keys alone: say so.
        const keys = keysOf(row.order) ?? [];
        const idle = idleFrom(keys, limits.neverTie);
        if (idle < keys.length) {
          const why = document.createElement("small");
          why.className = "tournament-idle";
          why.textContent = t("tournament.idleKeys", { key: keyWords(keys[idle - 1]) });
          td.append(" ", why);
        }
      }
      tr.append(td);
    }
    if (leading) {
      const td = document.createElement("td");
      td.className = "col-actions";
      const who = row.name && !row.hidden ? row.name : t("tournament.entryRanked", { rank: row.rank });
      td.append(
        rowButton("tournament.watch", t("tournament.watchLabel", { name: who }), "watch"),
        rowButton("tournament.race", t("tournament.raceLabel", { name: who }), "race"),
        rowButton(row.hidden ? "tournament.show" : "tournament.hide",
          t(row.hidden ? "tournament.showLabel" : "tournament.hideLabel", { rank }), "hide"),
        rowButton("tournament.remove", t("tournament.removeLabel", { rank }), "remove"),
      );
      tr.append(td);
    }
    return tr;
  }

  function render(state) {
    // The tournament reads nothing of a run: a playing search's frames leave it as it is.
    const from = [state.tournament, state.klass.role, state.klass.presenter, state.klass.led, state.orderings,
      state.settings, state.connection, state.view.language];
    if (from.every((part, i) => part === shownFrom[i])) return;
    shownFrom = from;
    const { tournament, klass, orderings } = state;
    const leading = klass.role === "instructor", following = klass.role === "student";
    const presenting = leading && klass.presenter;
    const { number, open, rules, entries, mine, note } = tournament;
    els.tournament.hidden = Boolean(state.embedded) || !(leading && !presenting) && !((following || presenting) && number);
    if (els.tournament.hidden) return;
    // A new tournament opens itself on every page in the class; the instructor folds it at will.
    if (number !== wasNumber) {
      if (number && !leading) els.tournament.open = true;
      wasNumber = number;
    }
    setText(els.tournamentHint, presenting ? "" : t(leading ? "tournament.hintLead" : "tournament.hintStudent"));
    els.tournamentLead.hidden = !leading || presenting;
    const connected = state.connection === "up";
    const { setup } = tournament;
    setValue(els.tournamentSmallest, String(setup.smallest));
    setValue(els.tournamentLargest, String(setup.largest));
    setValue(els.tournamentBudget, String(setup.budget));
    setValue(els.tournamentStart, setup.start);
    els.tournamentSeats.checked = setup.seats;
    els.tournamentOpen.disabled = !connected || !klass.led || open;
    els.tournamentClose.disabled = !connected || !open;
    els.tournamentCsv.disabled = !Object.keys(entries).length;

    const order = entryOrder(orderings);
    els.tournamentEntry.hidden = !following || !number;
    setText(els.tournamentYours, order ? t("tournament.yours", { name: orderLabel(order, orderings.library) }) : "");
    els.tournamentEnter.disabled = !connected || !open || order === null;

    setText(els.tournamentNote, note ? t(note.id, { ...note.params, what: note.params?.what && t(note.params.what) }) : "");

    const rows = standings(entries);
    const boards = rules ? rules.largest - rules.smallest + 1 : 0;
    const searched = rows.reduce((sum, row) => sum + row.tally.searched, 0);
    setText(els.tournamentRules, rules ? [t("tournament.rules", { ...rules, budget: rules.budget.toLocaleString(),
      start: t(`tournament.start.${rules.start}`) }), rules.seats ? t("tournament.seatsRule") : ""].join(" ").trim() : "");
    // Beside the entries, the students who were there: a hundred entries from thirty students
    // is a script's, and the late ones are counted apart.
    const late = rows.filter((row) => row.late).length;
    const status = number ? [t(open ? "tournament.statusOpen" : "tournament.statusClosed",
      { n: rows.length, searched, total: rows.length * boards }),
    tournament.present === null ? "" : t("tournament.present", { n: tournament.present, entered: rows.length - late }),
    late ? t("tournament.lateCount", { n: late }) : ""] : [t("tournament.none")];
    setText(els.tournamentStatus, status.filter(Boolean).join(" "));

    const me = rows.find((row) => row.id === mine);
    let myWords = "";
    if (following && number) {
      if (!me) myWords = t("tournament.notEntered");
      else if (!me.tally.searched) myWords = t("tournament.mineWaiting");
      else {
        const alike = rows.filter((row) => Boolean(row.late) === Boolean(me.late)).length;
        myWords = t(me.late ? "tournament.mineLate" : "tournament.mine", { rank: me.rank, of: alike, ...me.tally,
          backtracks: me.tally.backtracks.toLocaleString() });
      }
    }
    setText(els.tournamentMine, myWords);
    els.tournamentCells.hidden = !me;
    els.tournamentCells.replaceChildren(...(me ? [...me.outcomes].map((code, i) => {
      const n = rules.smallest + i;
      const cell = OUTCOME_CODES[code] ? { outcome: OUTCOME_CODES[code], backtracks: me.backtracks[i] } : null;
      return boardCell(limits, { board: { rows: n, cols: n, start: startOf(n, rules.start) }, cell }, me.order,
        state.settings, false);
    }) : []));

    // The instructor's own page lists every entry; the projector and a student's page the first
    // ten, and a student's own row below them.
    const short = !leading || presenting;
    const shown = short ? rows.filter((row, i) => i < SHOWN || row.id === mine) : rows;
    const context = { mine: following ? mine : null, leading: leading && !presenting, library: orderings.library };
    els.tournamentActionsHead.hidden = !context.leading;
    // The rows are drawn again as boards end: a row's button that had the focus gives it to its
    // successor, so that a keyboard user is not thrown out of the table twice a second.
    const focused = els.tournamentRows.contains(document.activeElement) ? document.activeElement : null;
    const was = focused && { entry: focused.closest("tr")?.dataset.entry, action: focused.dataset.action };
    els.tournamentRows.replaceChildren(...shown.map((row) => tableRow(row, context)));
    if (was) {
      const row = [...els.tournamentRows.rows].find((each) => each.dataset.entry === was.entry);
      row?.querySelector(`button[data-action="${was.action}"]`)?.focus();
    }
    els.tournamentTable.hidden = !rows.length;
    setText(els.tournamentMore, rows.length > shown.length ? t("tournament.more", { n: rows.length - shown.length }) : "");
  }

  return { render };
}
