// Play one search to its end against a running server, as its page would: node search.mjs URL.
// It loads the page and the scripts it names, then streams the naive 5x5 search from a corner
// over Socket.IO (WebSocket only, every batch acknowledged) and checks what arrived.
import { io } from "socket.io-client";

const url = process.argv[2];
const DEADLINE_MS = 60_000;
// The textbook's naive search from square 0 of 5x5 to its first tour.
const EXPECTED = { events: 9996, visits: 5010, backtracks: 4985 };

function fail(message) {
  console.error(`run path: ${message}`);
  process.exit(1);
}

async function fetchOk(path) {
  const answer = await fetch(url + path);
  if (!answer.ok) fail(`GET ${path} answered ${answer.status}`);
  return answer.text();
}

const page = await fetchOk("/");
const scripts = [...page.matchAll(/<script[^>]+src="([^"]+)"/g)].map((found) => found[1]);
if (!scripts.length) fail("the page names no script");
for (const script of scripts) await fetchOk(script);
await fetchOk("/vendor/socket.io/socket.io.esm.min.js");

const socket = io(url, { transports: ["websocket"], reconnection: false });
const timer = setTimeout(() => fail(`no tour within ${DEADLINE_MS / 1000} s`), DEADLINE_MS);
let received = 0;
let visits = 0;
let backtracks = 0;
socket.on("connect_error", (error) => fail(`could not connect: ${error.message}`));
socket.on("events", (batch, ack) => {
  if (batch.first !== received) fail(`a batch began at event ${batch.first}, after ${received}`);
  for (const event of batch.events) {
    if (event === "found") continue;
    if (event >= 0) visits += 1;
    else backtracks += 1;
  }
  received += batch.events.length;
  ack();
});
socket.on("finished", (summary) => {
  clearTimeout(timer);
  socket.close();
  const got = { events: received, visits, backtracks };
  for (const key of Object.keys(EXPECTED)) {
    if (got[key] !== EXPECTED[key] || summary[key] !== EXPECTED[key]) {
      fail(`expected ${JSON.stringify(EXPECTED)}, streamed ${JSON.stringify(got)}, summary ${JSON.stringify(summary)}`);
    }
  }
  if (!summary.found || summary.tour.length !== 25) fail(`no tour in ${JSON.stringify(summary)}`);
  console.log(`run path: the page and ${scripts.length} script(s) served; a naive 5x5 search streamed to its tour (${received} events)`);
});
socket.on("connect", async () => {
  const answer = await socket.timeout(10_000).emitWithAck("start", { rows: 5, cols: 5, start: 0, order: "naive", speed: 0 });
  if (!answer.ok) fail(`start was refused: ${JSON.stringify(answer)}`);
});
