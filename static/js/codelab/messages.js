// What the page takes from the code lab's sandbox. The student's code runs there and could post
// anything the worker can (forged messages lack the frame's key, but it can reach the worker's
// own way of sending): so each message's shape is checked against the run's board, and one that
// does not fit is dropped, never shown.

const MAX_BATCH = 16384;
const MAX_SNAPSHOT = 256 * 1024 * 1024; // Python's memory just after its start (about 31 MB)
const MAX_TEXT = 2000;
const MAX_LINES = 200;
const whole = (n, low = 0) => Number.isInteger(n) && n >= low;
const codeOn = (squares) => (code) => code === "found" || (Number.isInteger(code) && code >= -squares && code < squares);
const squaresOn = (squares) => (list) => Array.isArray(list) && list.length <= squares
  && list.every((v) => Number.isInteger(v) && v >= 0 && v < squares);
const text = (value) => typeof value === "string" && value.length <= MAX_TEXT;
const maybe = (check) => (value) => value === null || value === undefined || check(value);

function linesOk(lines) {
  return lines !== null && typeof lines === "object" && Object.entries(lines).length <= 3
    && Object.entries(lines).every(([kind, line]) => ["visit", "backtrack"].includes(kind) && whole(line, 1));
}

function problemOk(problem) {
  return typeof problem.why === "string" && /^lab\.[A-Za-z]+$/.test(problem.why) && maybe(whole)(problem.line)
    && maybe(text)(problem.text) && maybe(whole)(problem.at) && maybe((c) => Number.isInteger(c))(problem.code);
}

function resultOk(result, squares) {
  const code = codeOn(squares), board = squaresOn(squares);
  return result !== null && typeof result === "object" && whole(result.events) && whole(result.tours)
    && board(result.path) && maybe(board)(result.tour) && typeof result.order === "string" && whole(result.matched)
    && maybe((d) => Array.isArray(d) && d.length === 3 && whole(d[0]) && maybe(code)(d[1]) && maybe(code)(d[2]))(result.differs)
    && maybe((p) => typeof p === "object" && problemOk(p))(result.problem);
}

/** Return whether a message of the sandbox's fits its type, for a run on a board of squares squares. */
export function fits(message, squares) {
  switch (message.type) {
    case "loaded": return typeof message.ms === "number" && typeof message.canHold === "boolean";
    case "crashed": return text(message.text);
    case "snapshot": return message.bytes === null || (message.bytes instanceof ArrayBuffer && message.bytes.byteLength <= MAX_SNAPSHOT);
    case "events": return typeof message.id === "string" && Array.isArray(message.events)
      && message.events.length <= MAX_BATCH && message.events.every(codeOn(squares)) && linesOk(message.lines ?? {});
    case "done": return typeof message.id === "string" && resultOk(message.result, squares)
      && Array.isArray(message.output ?? []) && (message.output ?? []).length <= MAX_LINES && (message.output ?? []).every(text);
    default: return false;
  }
}
