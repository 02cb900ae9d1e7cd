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

/** Fetch what the sandbox's worker needs, from the URLs the page's limits give (urls). */
async function gather(urls) {
  const names = Object.keys(urls.pyodide); // the server's list of Pyodide's files (pages/codelab.py)
  const [worker, python, snapshot, ...files] = await Promise.all([
    fetch(urls.worker).then((r) => r.text()),
    fetch(urls.python).then((r) => r.json()),
    snapshotOf(version(urls)),
    ...names.map((name) => bytes(urls.pyodide[name])),
  ]);
  return { worker, python, snapshot, pyodide: Object.fromEntries(names.map((name, i) => [name, files[i]])) };
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
  kit.catch(failed);
  addEventListener("message", (event) => {
    if (event.source !== frame.contentWindow || typeof event.data?.type !== "string") return;
    const { type } = event.data;
    // Handed over, not copied: the page keeps none of it.
    const handOver = (made) => [made.snapshot, ...Object.values(made.pyodide)].filter(Boolean);
    if (type === "frame") kit.then((made) => frame.contentWindow.postMessage({ type: "kit", ...made }, "*", handOver(made)));
    else if (type === "snapshot" && fits(event.data, 0)) keepSnapshot(version(urls), event.data.bytes);
    else if (type !== "snapshot") hear(event.data);
  });
  document.body.append(frame);
  const post = (message) => frame.contentWindow?.postMessage(message, "*");
  return { post, restart: () => post({ type: "restart" }) };
}
