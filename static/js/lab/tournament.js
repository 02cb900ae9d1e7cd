// A class's tournament: the instructor opens it (boards, start, budget), each student enters one
// ordering under a nickname or none, and the standings fill in as the server searches each
// entry's boards. The instructor's page keeps the entries, to bring them back after a restart.
import { tidyForm } from "../orderings/library.js";
import { refusal } from "../words/refusals.js";
import { download } from "../share.js";
import { recall, remember } from "../storage.js";

// The instructor's tournament as its entries were (not their boards' ends), kept in the browser
// for its class: a page reloaded while the server restarted still brings it back.
const KEPT = "knights-tour-tournament";

// A board's end, as the server writes it in an entry's outcomes (server/classes/tournament/tournaments.py).
export const OUTCOME_CODES = { c: "clean", b: "backtracked", s: "stopped", n: "none", l: "lost" };
const WAITING = ".";

/**
 * The tournament's state: number, the class's how-manieth (0: none yet); open, whether it takes
 * entries; rules {smallest, largest, budget, start, seats}; opened, the millisecond it opened;
 * present, how many students followed the class then (null: not known); removed, the ids of the
 * entries the instructor removed; entries, by id, each as the server sends it {id, name, hidden,
 * order, submitted, late, seated, outcomes, backtracks}; mine, this student's entry id; setup,
 * the instructor's fields; note, the last word on it ({id, params} or null).
 */
export const NO_TOURNAMENT = {
  number: 0, open: false, rules: null, opened: null, present: null, removed: [], entries: {}, mine: null,
  note: null, setup: { smallest: 5, largest: 50, budget: 10000, start: "corner", seats: false },
};

/** Return the ordering a student would enter: the composer's, written tidily, or null while it is no ordering. */
export function entryOrder(orderings) {
  return orderings.typed === null ? tidyForm(orderings.draft || "moves") : null;
}

/** Return an entry's tally: boards searched, clean, backtracked, stopped, none, and backtracks in all. */
export function tally(entry) {
  const counts = { boards: entry.outcomes.length, searched: 0, clean: 0, backtracked: 0, stopped: 0, none: 0,
    lost: 0, backtracks: 0 };
  [...entry.outcomes].forEach((code, i) => {
    if (code === WAITING) return;
    counts.searched += 1;
    counts[OUTCOME_CODES[code] ?? "lost"] += 1;
    counts.backtracks += entry.backtracks[i] ?? 0;
  });
  return counts;
}

/**
 * Return the standings: each entry with its tally and rank, best first. More boards solved
 * without a backtrack ranks first; then fewer backtracks in all; then the earlier entry. Entries
 * level on all three share a rank. Late entries (their students joined after it opened) are
 * ranked apart, among themselves, below the others.
 */
export function standings(entries) {
  const all = Object.values(entries);
  return [...ranked(all.filter((entry) => !entry.late)), ...ranked(all.filter((entry) => entry.late))];
}

function ranked(entries) {
  const rows = entries.map((entry) => ({ ...entry, tally: tally(entry) }));
  const key = (row) => [-row.tally.clean, row.tally.backtracks, row.submitted];
  rows.sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    return x[0] - y[0] || x[1] - y[1] || x[2] - y[2] || (a.id < b.id ? -1 : 1);
  });
  let rank = 0;
  return rows.map((row, i) => {
    const same = i > 0 && key(rows[i - 1]).every((part, j) => part === key(row)[j]);
    rank = same ? rank : i + 1;
    return { ...row, rank };
  });
}

/** Return an entry's outcomes with one board's end changed. */
function withCell(entry, index, code, backtracks) {
  const outcomes = entry.outcomes.slice(0, index) + code + entry.outcomes.slice(index + 1);
  const counts = entry.backtracks.slice();
  counts[index] = backtracks;
  return { ...entry, outcomes, backtracks: counts };
}

/** Return the entries after a news of the standings: rows new or changed, those removed, then boards' ends. */
export function applyNews(entries, news) {
  const next = { ...entries };
  for (const row of news.entries) next[row.id] = row;
  for (const id of news.removed ?? []) delete next[id];
  for (const [id, index, code, backtracks] of news.cells) {
    if (next[id]) next[id] = withCell(next[id], index, code, backtracks);
  }
  return next;
}

const quoted = (text) => (/[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text);

/** Return the standings as CSV: one row per entry, best first. anonymous names a nameless entry. */
export function standingsCsv(rows, anonymous) {
  const head = ["rank", "nickname", "ordering", "clean", "backtracked", "stopped", "no_tour", "backtracks",
    "boards_searched", "boards", "entered", "late"];
  const lines = [head, ...rows.map((row) => [row.rank, quoted(row.hidden ? "" : row.name ?? anonymous),
    quoted(row.order), row.tally.clean, row.tally.backtracked, row.tally.stopped, row.tally.none, row.tally.backtracks,
    row.tally.searched, row.tally.boards, new Date(row.submitted).toISOString(), row.late ? "yes" : "no"])];
  return lines.map((line) => line.join(",")).join("\r\n") + "\r\n";
}

/** Return the tournament's actions on store; server is the main lane's connection. */
export function createTournament(store, server) {
  const state = () => store.state.tournament;
  const set = (patch) => store.update({ tournament: patch });
  const told = (answer) => {
    if (!answer.ok && !answer.timedOut) set({ note: refusal(answer) });
    else if (answer.timedOut) set({ note: { id: "tournament.noAnswer" } });
    return answer.ok;
  };

  /** Return what the server needs to bring the tournament back: its rules, and its entries but their boards. */
  function kept() {
    const { number, open, rules, opened, present, removed, entries } = state();
    const rows = Object.values(entries).map(({ id, order, name, title, submitted, hidden, late, seated }) =>
      ({ id, order, name, title: title ?? null, submitted, hidden, late: late === true, seated: seated === true }));
    return { ...rules, restore: { tournament: number, open, opened, present, removed, entries: rows } };
  }

  /** Keep the instructor's tournament in the browser, for its class. */
  function keep() {
    if (store.state.klass.role === "instructor" && state().number) {
      remember(KEPT, JSON.stringify({ code: store.state.klass.code, ...kept() }));
    }
  }

  /** Take a whole tournament as the server tells it. */
  function take(news) {
    if (!news) return;
    const { tournament: number, open, smallest, largest, budget, start, seats = false } = news;
    const entries = Object.fromEntries(news.entries.map((row) => [row.id, row]));
    set({ number, open, rules: { smallest, largest, budget, start, seats }, entries, opened: news.opened ?? null,
      present: news.present ?? null, removed: news.removed ?? [] });
    keep();
  }

  return {
    /** Change the instructor's setup fields (a patch of them). */
    setup(patch) {
      set({ setup: { ...state().setup, ...patch } });
    },

    /** Open a tournament with the setup's rules. */
    async open() {
      const answer = await server.request("tournament_open", state().setup);
      if (told(answer)) { take(answer); set({ note: { id: "tournament.opened" } }); }
    },

    async close() {
      if (told(await server.request("tournament_close", {}))) set({ open: false, note: { id: "tournament.closed" } });
    },

    async hide(entry, hidden) {
      told(await server.request("tournament_hide", { entry, hidden }));
    },

    /** Remove an entry, and take no other from its student. */
    async remove(entry) {
      if (told(await server.request("tournament_remove", { entry }))) set({ note: { id: "tournament.removedOne" } });
    },

    /** Enter the student's ordering, with the name they gave it (or none), under a nickname ("" for none). */
    async enter(order, name, title = null) {
      set({ note: null });
      const answer = await server.request("tournament_enter", { order, name: name || null, title: title || null });
      if (told(answer)) set({ mine: answer.entry, note: { id: "tournament.entered" } });
    },

    /** Take the id a student's page was given as it joined (its entry's, should it enter). */
    joined(entry) {
      if (entry) set({ mine: entry });
    },

    /**
     * Take the tournament from the answer to the instructor's claim; after a restart the server
     * has none, and the page brings back the one it kept.
     */
    claimed(answer) {
      if (answer.tournament) { take(answer.tournament); return; }
      let before = state().number ? kept() : null;
      if (!before) {
        try { before = JSON.parse(recall(KEPT) ?? "null"); } catch { before = null; }
        if (before?.code !== answer.code) return;
        delete before.code;
      }
      server.request("tournament_open", before).then((again) => {
        if (!told(again)) return;
        take(again);
        set({ note: { id: "tournament.restored" } });
      });
    },

    /** Forget the tournament (the class ended, or the page left it); with keepMine, the class has none
     * now (its server restarted), and the student's entry id stays for when it is back. */
    forget(keepMine = false) {
      set({ ...NO_TOURNAMENT, setup: state().setup, mine: keepMine ? state().mine : null });
    },

    /** Download the standings as a CSV file, named for the class. */
    download(anonymous) {
      const blob = new Blob([standingsCsv(standings(state().entries), anonymous)], { type: "text/csv" });
      download(`knights-tour-tournament-${store.state.klass.code ?? "class"}-${state().number}.csv`, blob);
    },

    news: {
      tournament: take,
      tournament_news(news) {
        if (news.tournament !== state().number) return; // of an earlier one, or before the page knew of it
        const gone = news.removed ?? [];
        const changed = news.entries.length || gone.length || news.open !== state().open;
        set({ open: news.open, entries: applyNews(state().entries, news), removed: [...state().removed, ...gone] });
        if (changed) keep();
      },
    },
    take,
  };
}
