// The user's clips of the main board's search: their choices, the making of a clip and its
// cancelling, its progress and how it went, as store updates. The clip itself: encoding.js.
import { controls } from "../controls.js";
import { download, exportName } from "../share.js";
import { encodeGif, encodeVideo, encodedType, recordVideo, takeClip } from "./encoding.js";
import { videoType } from "./pacing.js";

/**
 * Return the clip part of the page's first state: the choices, and the video type this browser
 * records (until createClips has asked what its VideoEncoder takes).
 */
export function initialClip() {
  const recorder = globalThis.MediaRecorder;
  const recorded = recorder ? videoType((mime) => recorder.isTypeSupported(mime)) : null; // {mime, ext, name}
  const video = recorded && { by: "recorder", ...recorded };
  return {
    from: "start",  // "start": the first event the page holds; "here": the event the board shows
    events: null,   // how many events (null: all from there)
    pace: 20,       // events a second
    format: video ? "video" : "gif",
    tree: true,     // the search tree beside the board (when the page has the whole of it)
    video,
    busy: null,     // "video" or "gif" while one is made
    progress: 0,    // how much of it is made, 0 to 1
    note: null,     // {id, params}: what is under way, or how the last clip went
  };
}

/** Return the clip actions on store and runs: choose(patch), make(), cancel(). */
export function createClips(store, runs) {
  let making = null; // the AbortController of the clip being made
  // The encoder is asked once, as soon as the page is drawn (asking costs a page's load some
  // milliseconds): where it takes a codec, the clip is encoded, not recorded.
  const idle = new Promise((resolve) => (window.requestIdleCallback ?? setTimeout)(resolve));
  const asked = idle.then(encodedType).catch(() => null).then((video) => {
    if (!video) return;
    store.update(({ clip }) => ({ clip: { video: { by: "encoder", ...video }, format: clip.video ? clip.format : "video" } }));
  });

  /** Change the choices: a patch of {from, events, pace, format, tree}. */
  function choose(patch) {
    store.update({ clip: { ...patch, note: null } });
  }

  /** Make the clip chosen, of the main board, and save it; the note says how it went. */
  async function make() {
    await asked; // at once, but from a page just opened
    if (!controls(store.state, runs).clip.enabled) return;
    const { from, events, pace, format, video, tree } = store.state.clip;
    const gif = format === "gif", encoded = video?.by === "encoder";
    if (!gif && !video) {
      store.update({ clip: { note: { id: "clip.noVideo" } } });
      return;
    }
    const clip = takeClip(runs.main, from, events, { tree });
    const name = `${exportName(clip.model, clip.run)}.${gif ? "gif" : video.ext}`;
    const n = clip.codes.length;
    making = new AbortController();
    const { signal } = making;
    let percent = 0;
    const progress = (fraction) => {
      // A whole percent at a time: each update renders the page.
      if (Math.floor(fraction * 100) <= percent) return;
      percent = Math.floor(fraction * 100);
      store.update({ clip: { progress: percent / 100 } });
    };
    const doing = gif ? "clip.encoding" : encoded ? "clip.encodingVideo" : "clip.recording";
    store.update({ clip: { busy: format, progress: 0, note: { id: doing,
      params: { n, format: video?.name } } } });
    let note;
    try {
      const made = gif ? await encodeGif(clip, { pace, signal, progress })
        : await (encoded ? encodeVideo : recordVideo)(clip, { type: video, pace, signal, progress });
      download(name, made.blob);
      // Pixels as written, not grouped in thousands: 1080, as a size is read.
      note = { id: gif ? "clip.savedGif" : "clip.savedVideo", params: { name, width: String(made.width),
        height: String(made.height), seconds: Math.round(made.seconds * 10) / 10, kb: Math.ceil(made.blob.size / 1024),
        frames: made.frames } };
    } catch (error) {
      note = signal.aborted ? { id: "clip.cancelled" }
        : error?.note ?? { id: "clip.failed", params: { error: error?.message ?? error } };
    } finally {
      making = null;
    }
    store.update({ clip: { busy: null, progress: 0, note } });
  }

  return { choose, make, cancel: () => making?.abort() };
}
