// The server's refusals in the page's language: each sentence the server may send a page (see
// docs/protocol.md) matched to a message id and the values it names; any other is quoted.

const REFUSALS = [
  [/^there is no class with that code/, "refusal.noClass"],
  [/^too many wrong class codes: wait (?<seconds>\d+) second/, "refusal.waitCodes"],
  [/^too many wrong class codes from your network: wait (?<seconds>\d+) second/, "refusal.waitNetwork"],
  [/^that token does not match the class/, "refusal.token"],
  [/^you are following class (?<code>\w+)/, "refusal.following"],
  [/^you already lead class (?<code>\w+)/, "refusal.alreadyLead"],
  [/^this class is led through another server/, "refusal.otherServer"],
  [/^classes are unavailable right now/, "refusal.queue"],
  [/^too many requests/, "refusal.rate"],
  [/^disconnected for sending too many requests/, "refusal.flood"],
  [/^that request is too large/, "refusal.tooLarge"],
  [/^there is no run to/, "refusal.noRun"],
  [/^the server could not handle that request/, "refusal.failed"],
  [/^you do not lead a class/, "refusal.notLeading"],
  [/^a question is open already/, "refusal.pollOpen"],
  [/^a question is open: /, "refusal.pollWait"],
  [/^questions are asked about a knight's board/, "refusal.pollGraph"],
  [/^the search has ended: there is no next move/, "refusal.pollEnded"],
  [/^the tour is complete/, "refusal.pollTour"],
  [/^there is no open question/, "refusal.pollNone"],
  [/^that question is closed/, "refusal.pollClosed"],
  [/^you have answered this question already/, "refusal.pollAnswered"],
  [/^you are not following a class/, "refusal.notFollowing"],
  [/^square must be a square of the board/, "refusal.pollSquare"],
  [/^the server is full: it serves at most (?<count>[\d,]+) connections/, "refusal.full"],
];

/** Return the message id and values of a server's refusal, to say it in the page's language. */
export function refusal(message) {
  for (const [pattern, id] of REFUSALS) {
    const found = pattern.exec(message);
    if (found) {
      const params = { ...found.groups };
      if (params.seconds !== undefined) params.n = Number(params.seconds);
      return { id, params };
    }
  }
  return { id: "refusal.other", params: { message } };
}
