// The code lab's worker: Pyodide running a student's code in a realm that holds nothing of the
// page, each batch of the search's events sent to the page, and the search held (WebAssembly's
// promise integration suspends the Python mid-recursion) while the page has two batches it has
// not taken, as the server holds a run for its acknowledgements.
"use strict";

// Everything here is in this function's scope, not the worker's global one: the student's code
// reaches the worker's globals (Pyodide's js module), and must not reach the key or the run.
(() => {
// The worker's own postMessage, taken before any student's code could put another in its place.
const post = self.postMessage.bind(self);
let key = null; // the frame's key for this worker's messages

const WINDOW = 2; // batches the page may hold unacknowledged
// Without promise integration the search cannot be held: it runs on, up to this many events.
const UNHELD_CAP = 2000000;
let pyodide = null;
let labRun = null;
let canHold = false;
let resume = null; // resolves the wait of a search held by a full window
let current = null; // the id of the run under way, or null
let queue = Promise.resolve();
// What the student's code printed, its last lines kept for the page.
const OUTPUT_LINES = 200;
let output = [];
let unacked = 0;
let unheld = 0; // the events of the run under way, where the search cannot be held
let batch = 256;
let ready = Promise.reject(new Error("Python was not loaded."));
ready.catch(() => {});

function send(message) {
  post({ ...message, key });
}

// Pyodide's large files and the snapshot, which come after the rest: resolved by their message.
let rested = null;
const rest = new Promise((resolve) => { rested = resolve; });

async function load({ pyodide: files, python }) {
  const began = performance.now();
  const types = { wasm: "application/wasm", mjs: "text/javascript", zip: "application/zip" };
  const urls = {};
  const blobs = (named) => {
    for (const [name, bytes] of Object.entries(named)) {
      urls[name] = URL.createObjectURL(new Blob([bytes], { type: types[name.split(".").pop()] ?? "" }));
    }
  };
  blobs(files);
  // Pyodide fetches its files by name; each is already here, as a blob. Nothing else can be
  // fetched: the frame's policy allows no connection, and after loading fetch is gone.
  const blobFetch = self.fetch.bind(self);
  self.fetch = (url) => {
    const text = String(url);
    const name = text.startsWith("blob:") ? null : text.split("/").pop();
    return blobFetch(name ? urls[name] : text);
  };
  const [{ loadPyodide }, asm] = await Promise.all([import(urls["pyodide.mjs"]), import(urls["pyodide.asm.mjs"])]);
  const { pyodide: large, snapshot } = await rest;
  rested = null;
  blobs(large);
  const options = {
    indexURL: "lab:/", createPyodideModule: asm.default, stdLibURL: urls["python_stdlib.zip"],
    lockFileContents: await (await blobFetch(urls["pyodide-lock.json"])).text(),
  };
  // Python's start-up (most of a load's seconds) is skipped with a snapshot of its memory just
  // after an earlier start, the lab's Python imported, which the page keeps: made here, before
  // any student's code ran.
  pyodide = null;
  if (snapshot) {
    try {
      pyodide = await loadPyodide({ ...options, _loadSnapshot: new Uint8Array(snapshot) });
    } catch {
      send({ type: "snapshot", bytes: null }); // the page forgets a snapshot that did not load
    }
  }
  if (!pyodide) {
    pyodide = await loadPyodide({ ...options, _makeSnapshot: true });
    for (const [path, source] of Object.entries(python)) {
      pyodide.FS.mkdirTree(`/home/pyodide/${path.split("/").slice(0, -1).join("/")}`);
      pyodide.FS.writeFile(`/home/pyodide/${path}`, source);
    }
    pyodide.runPython("import server.codelab.runner");
    const bytes = pyodide.makeMemorySnapshot().slice().buffer; // a copy, its own to hand over
    post({ type: "snapshot", key, bytes }, [bytes]);
  }
  for (const url of Object.values(urls)) URL.revokeObjectURL(url);
  const printed = (line) => { output.push(String(line).slice(0, 500)); if (output.length > OUTPUT_LINES) output.shift(); };
  pyodide.setStdout({ batched: printed });
  pyodide.setStderr({ batched: printed });
  self.fetch = () => Promise.reject(new TypeError("The code lab has no network."));
  pyodide.runPython(GLUE);
  labRun = pyodide.globals.get("lab_run");
  canHold = typeof WebAssembly.Suspending === "function" && typeof labRun.callPromising === "function";
  send({ type: "loaded", ms: performance.now() - began, canHold });
}

// The Python side: the lab's runner, handing its batches to hand() below, which answers with the
// next batch's size, or with a promise of it while the page's window is full.
const GLUE = `
import js
from pyodide.ffi import run_sync, to_js
from server.codelab.runner import Run

def lab_run(code, rows, cols, start, order, closed, all_tours, batch, hand):
    def handed(codes, lines):
        answer = hand(to_js(codes), to_js(lines, dict_converter=js.Object.fromEntries))
        return answer if isinstance(answer, int) else run_sync(answer)
    result = Run(code, rows, cols, start, order, closed=closed, all_tours=all_tours).go(handed, batch)
    return to_js(result, dict_converter=js.Object.fromEntries)
`;

function hand(codes, lines) {
  if (current === null) return 0; // abandoned: the search stops at once
  send({ type: "events", id: current, events: codes, lines });
  unacked += 1;
  if (!canHold) {
    unheld += codes.length;
    return unheld >= UNHELD_CAP ? 0 : batch;
  }
  if (unacked < WINDOW) return batch;
  return new Promise((resolve) => { resume = (size = batch) => resolve(size); });
}

async function run({ id, code, rows, cols, start, order, closed, allTours }) {
  unacked = 0;
  unheld = 0;
  current = id;
  output = [];
  const args = [code, rows, cols, start, order, closed, allTours, batch, hand];
  try {
    const result = canHold ? await labRun.callPromising(...args) : labRun(...args);
    send({ type: "done", id, result, output });
  } catch (error) {
    send({ type: "crashed", id, text: String(error?.message ?? error) });
  }
  current = null;
}

/** Let a held search go, telling it to stop: its run has been left. */
function abandon() {
  current = null;
  if (resume) {
    const go = resume;
    resume = null;
    go(0);
  }
}

self.onmessage = ({ data }) => {
  if (data?.type === "load") {
    if (key !== null) return; // loaded once, before any student's code
    key = data.key;
    ready = load(data);
    ready.catch((error) => send({ type: "crashed", text: String(error?.message ?? error) }));
  } else if (data?.type === "rest" && rested) {
    rested(data); // once, while Python loads: never after a student's code could send one
  } else if (data?.type === "run") {
    batch = data.batch ?? batch;
    // One run at a time: one left is still stopping when the next may arrive.
    queue = queue.then(() => ready).then(() => run(data), () => {});
  } else if (data?.type === "abandon") {
    abandon();
  } else if (data?.type === "ack") {
    unacked -= 1;
    if (Number.isInteger(data.batch) && data.batch > 0) batch = data.batch;
    if (resume && unacked < WINDOW) {
      const go = resume;
      resume = null;
      go();
    }
  }
};
})();
