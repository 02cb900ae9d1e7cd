// What a strip shows, worked out from its state alone: each ordering's row of boards and its tally.

// How a board's search ended (server/engine/survey.py), and "lost" when its helper process ended.
export const STRIP_OUTCOMES = ["clean", "backtracked", "stopped", "none", "lost"];

/**
 * Return each ordering's row of a strip: [{order, cells: [{board, index, cell}], tally}], cell
 * being the board's end ({outcome, backtracks, events}) or null while it waits, and tally the
 * count of each outcome, with waiting and boards (all of them).
 */
export function stripRows(strip) {
  const { orders, boards, cells } = strip;
  return orders.map((order, o) => {
    const row = boards.map((board, b) => {
      const index = b * orders.length + o;
      return { board, index, cell: cells[index] ?? null };
    });
    const tally = Object.fromEntries([...STRIP_OUTCOMES, "waiting"].map((outcome) => [outcome, 0]));
    for (const { cell } of row) tally[cell ? cell.outcome : "waiting"] += 1;
    tally.boards = boards.length;
    return { order, cells: row, tally };
  });
}
