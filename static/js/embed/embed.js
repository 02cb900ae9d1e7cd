// The board in another site's page: the iframe code the page gives for its setup, and what an
// embedded board does on its own (play once it can, start again when it ends).
import { toLink } from "../settings.js";

/** The choices for the embed code the page gives, before the user makes any. */
export const SNIPPET = { controls: "minimal", panels: [], autoplay: true, loop: false };

const LOOP_PAUSE_MS = 3000; // the finished tour stays this long before the search starts again
// The frame's size in CSS pixels: the board, a column for the panels beside it, the controls'
// row under it (minimal) or their column beside it (full).
const BOARD = 480, PANELS = 360, CONTROLS_ROW = 64, CONTROLS_COLUMN = 320, FULL_HEIGHT = 720;

/** Return the embed's address, on base (the server's origin), for settings and the snippet's choices. */
export function embedAddress(base, settings, snippet) {
  const params = new URLSearchParams(toLink(settings, null));
  params.set("controls", snippet.controls);
  if (snippet.panels.length) params.set("panels", snippet.panels.join(","));
  if (snippet.autoplay) params.set("autoplay", "true");
  if (snippet.loop) params.set("loop", "true");
  return `${base}/embed?${params}`;
}

/** Return a frame's [width, height] that fits the snippet's board, panels and controls. */
export function frameSize(snippet) {
  const panels = snippet.panels.length ? PANELS : 0;
  if (snippet.controls === "full") return [BOARD + panels + CONTROLS_COLUMN, FULL_HEIGHT];
  return [BOARD + panels, BOARD + (snippet.controls === "minimal" ? CONTROLS_ROW : 0)];
}

const SWITCHES = ["true", "1", "yes", "false", "0", "no", ""]; // what the server reads autoplay and loop as

/** Return the embed options of address search that the embed could not use (see embedded), as "key=value". */
export function embedIgnored(search, embedded) {
  const params = new URLSearchParams(search);
  const ignored = [];
  const given = (key) => params.get(key);
  if (params.has("controls") && given("controls") !== embedded.controls) ignored.push(`controls=${given("controls")}`);
  const panels = (given("panels") ?? "").split(",").filter((name) => name && !embedded.panels.includes(name));
  if (panels.length) ignored.push(`panels=${panels.join(",")}`);
  if (params.has("lang") && given("lang") !== embedded.language) ignored.push(`lang=${given("lang")}`);
  for (const key of ["autoplay", "loop"]) {
    if (params.has(key) && !SWITCHES.includes(given(key).toLowerCase())) ignored.push(`${key}=${given(key)}`);
  }
  return ignored;
}

const escape = (text) => text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

/** Return the <iframe> HTML of the embed (its title in the page's language). */
export function embedCode(base, settings, snippet, title) {
  const [width, height] = frameSize(snippet);
  return `<iframe src="${escape(embedAddress(base, settings, snippet))}" width="${width}" height="${height}" ` +
    `title="${escape(title)}" style="border: 0; max-width: 100%;" loading="lazy" allow="clipboard-write"></iframe>`;
}

/**
 * Play an embedded board on its own, as its address asks: once the connection is up (autoplay),
 * and again a moment after each end (loop). Not for a reader who asks for less motion: they press Play.
 */
export function playOnItsOwn(store, runs, playback, reducedMotion) {
  const { autoplay, loop } = store.state.embedded;
  let started = false, again = null;
  store.addEventListener("change", () => {
    const { connection, run, settings } = store.state;
    if (reducedMotion.matches) return;
    if (autoplay && !started && connection === "up" && run.status === "idle") {
      started = true;
      playback.playOrPause();
    }
    const ended = run.status === "finished" && !run.replaying && runs.main.atHead();
    if (!loop || !ended || again) return;
    again = setTimeout(async () => {
      again = null;
      const still = store.state.run;
      if (still.status !== "finished" || still.replaying || !runs.main.atHead()) return;
      // One board replays what it received; a race runs both searches again.
      if (settings.mode !== "race") await playback.seekFirst();
      playback.playOrPause();
    }, LOOP_PAUSE_MS);
  });
}
