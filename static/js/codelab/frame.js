// The code lab's sandbox frame: no origin of its own, no connection allowed (its policy). It makes
// the worker that runs a student's Python from the script the page hands over, and passes
// messages between the two; ending the worker ends whatever the student's code was doing.
let worker = null;
// What the page handed over: {worker: the script, pyodide: {name: bytes}, python}, then (rest)
// Pyodide's large files and the snapshot of Python's memory: {pyodide, snapshot}.
let kit = null;
let rest = null;

function make() {
  worker?.terminate();
  const script = URL.createObjectURL(new Blob([kit.worker], { type: "text/javascript" }));
  worker = new Worker(script);
  URL.revokeObjectURL(script);
  // The worker's own messages carry this key, given before any student's code runs there and
  // kept out of that code's reach; a message the student's code posts itself has none.
  const key = crypto.randomUUID();
  worker.onmessage = (event) => {
    const { key: given, ...message } = event.data ?? {};
    if (given !== key) return;
    if (message.type === "snapshot") rest.snapshot = message.bytes; // the next worker starts from it
    parent.postMessage(message, "*");
  };
  worker.onerror = (event) => {
    event.preventDefault();
    parent.postMessage({ type: "crashed", text: String(event.message) }, "*");
  };
  worker.postMessage({ type: "load", key, pyodide: kit.pyodide, python: kit.python });
  if (rest) worker.postMessage({ type: "rest", ...rest });
}

addEventListener("message", (event) => {
  if (event.source !== parent) return;
  const message = event.data;
  if (message?.type === "kit" && !kit) {
    kit = message;
    make();
  } else if (message?.type === "kit-rest" && kit && !rest) {
    rest = { pyodide: message.pyodide, snapshot: message.snapshot };
    worker.postMessage({ type: "rest", ...rest });
  } else if (message?.type === "restart" && kit) {
    make();
  } else {
    worker?.postMessage(message);
  }
});
parent.postMessage({ type: "frame" }, "*");
