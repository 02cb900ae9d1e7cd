// The page's link to the server: the Socket.IO client, served by our own server.
import { io } from "/vendor/socket.io/socket.io.esm.min.js";

const ANSWER_MS = 5000;
const RECONNECT_MS = 2000;

/** The server's news of itself, whichever connection brings it: "stopping" (its goodbye). */
export const serverNews = new EventTarget();
const FULL_RETRY_MS = 20000; // a full server is tried again after 20 to 40 s, not all pages at once

/** Connect, route the server's events to handlers and return a request function. */
export function connect(handlers) {
  // Each lane has a connection of its own, so the server gives each its own run.
  // WebSocket only: the server takes no long-polling, which would hold a request per page.
  const socket = io({ forceNew: true, transports: ["websocket"] });
  socket.on("connect", () => handlers.connection(true));
  socket.on("disconnect", (reason) => {
    handlers.connection(false);
    // The client reconnects by itself after a network fault, but not when the server closed
    // the connection (a flood of requests, a restart's goodbye): try again after a pause.
    if (reason === "io server disconnect") setTimeout(() => socket.connect(), RECONNECT_MS);
  });
  // A server with no room for another page refuses it with a sentence, and the client does not
  // retry by itself after a refusal (it does after a network fault: socket.active).
  socket.on("connect_error", (error) => {
    if (socket.active) return;
    handlers.error(error.message);
    setTimeout(() => socket.connect(), FULL_RETRY_MS * (1 + Math.random()));
  });
  // A stopping server says goodbye, then closes the connection (the client reconnects as above).
  socket.on("server_stopping", () => serverNews.dispatchEvent(new Event("stopping")));
  socket.on("started", handlers.started);
  // Acknowledging a batch is what lets the server send the next one: acknowledged first, the
  // server searches the next batch while this one is applied.
  socket.on("events", (batch, ack) => {
    if (ack) ack();
    handlers.events(batch);
  });
  socket.on("progress", (snapshot, ack) => {
    if (ack) ack();
    handlers.progress(snapshot);
  });
  socket.on("finished", handlers.finished);
  // A class's room (or its instructor) is sent these; none of them asks for an acknowledgement.
  for (const event of ["class_state", "class_control", "class_ended", "class_displaced", "class_view", "snapshot",
    "poll_opened", "poll_count", "poll_revealed", "poll_closed"]) {
    socket.on(event, (payload) => handlers[event](payload));
  }
  socket.on("error", (payload) => handlers.error(payload.message));
  return {
    /** Tell whether the connection is up. */
    connected: () => socket.connected,
    /** Send a request and resolve with the server's answer, {ok, error?}. */
    request(event, payload) {
      return socket
        .timeout(ANSWER_MS)
        .emitWithAck(event, payload)
        .catch(() => ({ ok: false, timedOut: true }));
    },
  };
}
