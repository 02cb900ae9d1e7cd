// The page's link to the server: the Socket.IO client, served by our own server.
import { io } from "/vendor/socket.io/socket.io.esm.min.js";

const ANSWER_MS = 5000;
const RECONNECT_MS = 2000;

/** The server's news of itself, whichever connection brings it: "stopping" (its goodbye). */
export const serverNews = new EventTarget();
const FULL_RETRY_MS = 20000; // a full server is tried again after 20 to 40 s, not all pages at once
let ready = Promise.resolve(); // what every connection waits for before it is made

/** Make every connection wait for a promise (the page's badge being earned: badge.js). */
export function connectAfter(promise) {
  ready = promise;
}

let awaiting = 0; // requests of every lane still waiting for the server's answer

/** Return how many requests are still waiting for the server's answer (the page's tests wait for none). */
export function unanswered() {
  return awaiting;
}

/**
 * Connect and return the connection: request() sends, listen() hands the server's events to
 * whoever takes them. link: connection(up) on the connection going up or down, error(refusal)
 * on a refusal ({code, message, values}: the server's 'error' event, or a full server's refusal
 * of the connection).
 */
export function connect(link) {
  // Each lane has a connection of its own, so the server gives each its own run.
  // WebSocket only: the server takes no long-polling, which would hold a request per page.
  const socket = io({ forceNew: true, transports: ["websocket"], autoConnect: false });
  ready.then(() => socket.connect());
  socket.on("connect", () => link.connection(true));
  // Offline, as the browser knows, no retry can reach the server: the client's own retries are
  // held (each would fail, on a phone's battery) until the browser is back online, below.
  let held = false;
  const hold = () => {
    if (socket.connected || !socket.active) return;
    held = true;
    socket.disconnect();
  };
  window.addEventListener("offline", hold);
  socket.on("disconnect", (reason) => {
    link.connection(false);
    if (!navigator.onLine) hold();
    // The client reconnects by itself after a network fault, but not when the server closed
    // the connection (a flood of requests, a restart's goodbye): try again after a pause.
    if (reason === "io server disconnect") setTimeout(() => held || socket.connect(), RECONNECT_MS);
  });
  // A server with no room for another page refuses it with a sentence, and the client does not
  // retry by itself after a refusal (it does after a network fault: socket.active).
  socket.on("connect_error", (error) => {
    if (socket.active) return;
    link.error({ message: error.message, ...error.data }); // a refusal's code and values
    setTimeout(() => socket.connect(), FULL_RETRY_MS * (1 + Math.random()));
  });
  // Back online, try at once: the client's own retries back off to 5 s and more, and a teacher
  // whose laptop found the network again would wait that long for the class.
  window.addEventListener("online", () => {
    if (held) {
      held = false;
      socket.connect();
    } else if (!socket.connected && socket.active) {
      socket.disconnect().connect();
    }
  });
  // A stopping server says goodbye, then closes the connection (the client reconnects as above).
  socket.on("server_stopping", () => serverNews.dispatchEvent(new Event("stopping")));
  socket.on("error", (payload) => link.error(payload));
  return {
    /** Tell whether the connection is up. */
    connected: () => socket.connected,
    /**
     * Hand each server event named in news (event name -> handler) to its handler, with its
     * payload. An event that asks for an acknowledgement (a run's batch, its progress) is
     * acknowledged first: that is what lets the server search the next batch while this one is applied.
     */
    listen(news) {
      for (const [event, handler] of Object.entries(news)) {
        socket.on(event, (payload, ack) => {
          if (typeof ack === "function") ack();
          handler(payload);
        });
      }
    },
    /** Send a request and resolve with the server's answer, {ok, error?}. */
    request(event, payload) {
      awaiting += 1;
      return socket
        .timeout(ANSWER_MS)
        .emitWithAck(event, payload)
        .catch(() => ({ ok: false, timedOut: true }))
        .finally(() => { awaiting -= 1; });
    },
  };
}
