// The page's side of the code lab's sandbox: a frame with no origin of its own (pages/codelab.py) in
// which a worker runs the student's Python. The page fetches what the worker needs (Pyodide's
// files, the lab's Python, the worker's script: each named by its content, so a second visit
// takes them from the browser's cache) and hands it over; only the frame's messages are heard.

import { fits } from "./messages.js";
import { keepSnapshot, snapshotOf } from "./snapshots.js";

async function bytes(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return response.arrayBuffer();
}

// Pyodide's large files, handed over after the rest: the worker starts, and reads Pyodide's
// modules, while these are still being read from the browser's cache and copied to the frame.
const LARGE = new Set(["pyodide.asm.wasm", "python_stdlib.zip"]);

/** Resolve with {name: bytes} of those of Pyodide's files (urls.pyodide: the server's list) wanted. */
async function files(urls, wanted) {
  const names = Object.keys(urls.pyodide).filter(wanted); // pages/codelab.py's list
  const read = await Promise.all(names.map((name) => bytes(urls.pyodide[name])));
  return Object.fromEntries(names.map((name, i) => [name, read[i]]));
}

/**
 * Fetch what the sandbox's worker needs, from the URLs the page's limits give (urls), in two parts:
 * {first: the worker's script, the lab's Python and Pyodide's smaller files; rest: its large files
 * and the snapshot of Python's memory kept from an earlier visit, or null}.
 */
function gather(urls) {
  const first = Promise.all([
    fetch(urls.worker).then((r) => r.text()),
    fetch(urls.python).then((r) => r.json()),
    files(urls, (name) => !LARGE.has(name)),
  ]).then(([worker, python, pyodide]) => ({ worker, python, pyodide }));
  const rest = Promise.all([files(urls, (name) => LARGE.has(name)), snapshotOf(version(urls))])
    .then(([pyodide, snapshot]) => ({ pyodide, snapshot }));
  return { first, rest };
}

/** Return the version a snapshot of Python's memory belongs to: Pyodide's files' names and the lab's Python's. */
function version(urls) {
  return [...Object.values(urls.pyodide), urls.python].sort().join(" ");
}

/**
 * Open the sandbox and return {post(message), restart()}: hear(message) is given each of the
 * worker's messages, failed(error) the reason the sandbox could not be set up.
 */
export function openSandbox(urls, hear, failed) {
  const frame = document.createElement("iframe");
  frame.sandbox = "allow-scripts";
  frame.hidden = true;
  frame.setAttribute("aria-hidden", "true");
  frame.src = urls.frame;
  const kit = gather(urls);
  kit.first.catch(failed);
  kit.rest.catch(failed);
  // Handed over, not copied: the page keeps none of it.
  const handOver = (part) => [part.snapshot, ...Object.values(part.pyodide)].filter(Boolean);
  const send = (type, part) => frame.contentWindow.postMessage({ type, ...part }, "*", handOver(part));
  addEventListener("message", (event) => {
    if (event.source !== frame.contentWindow || typeof event.data?.type !== "string") return;
    const { type } = event.data;
    if (type === "frame") {
      kit.first.then((part) => { send("kit", part); return kit.rest; })
        .then((part) => send("kit-rest", part), () => {}); // a failure is told once, above
    }
    else if (type === "snapshot" && fits(event.data, 0)) keepSnapshot(version(urls), event.data.bytes);
    else if (type !== "snapshot") hear(event.data);
  });
  document.body.append(frame);
  const post = (message) => frame.contentWindow?.postMessage(message, "*");
  return { post, restart: () => post({ type: "restart" }) };
}
