// A clip of a lane's search, made off the page from a copy of its model: a video encoded frame by
// frame by the browser's VideoEncoder as fast as it goes, through mediabunny, into an MP4 or WebM
// file (where the browser has no VideoEncoder: recorded by MediaRecorder, in real time), or an
// animated GIF, encoded as fast as it goes by gifenc. Each library is loaded only when it is
// needed. Each frame is painted from the model at its own simulated time, so fades and glides
// are smooth and the same every time. The page's views, its model and its
// connection are never touched.
import { t } from "../words/i18n.js";
import { orderLabel } from "../orderings/words.js";
import { apply, copyModel, rewind } from "../model.js";
import { squareName } from "../notation.js";
import { FPS, gifFrame, gifPlan, videoCodec, videoFrame, videoFrames, videoSeconds } from "./pacing.js";
import { clipSpan } from "../timeline.js";
import { Film } from "./film.js";

// Both are laid out in a 960 x 540 box, caption included. The video, at 2 pixels a CSS pixel,
// fits a 1920 x 1080 slide at 1:1 (a square board comes out about 960 x 1080) and keeps the
// board's own shape, so it sits on any slide layout without bars; the type is as large against
// the board as on the page. The GIF, at 1, is a quarter of the pixels, to keep the file small.
const VIDEO = { width: 960, height: 540, scale: 2 };
const GIF = { width: 960, height: 540, scale: 1, read: true };
const BITRATE = 6_000_000; // flat colours and sharp digits, at 30 frames a second
// The recorder drops what it is still encoding when it stops, and on a busy machine its encoder
// can be a second or more behind (a first 1080p frame, in VP9): it hands over what it has written
// this often, and is stopped only once that holds every frame asked for, or has held the same
// number for two turns (the frames it dropped do not come back), or after the longest wait.
const SLICE_MS = 200;
const SETTLE_MS = 5000;
const GIFENC = "/vendor/gifenc/gifenc.esm.js";
const MEDIABUNNY = "/vendor/mediabunny/mediabunny.min.mjs";
const KEY_EVERY_S = 2; // a key frame every 2 s, so that a player seeks quickly

/** An error of a clip with the note that tells the user of it: {id, params}. */
export class ClipError extends Error {
  constructor(id, params = {}) {
    super(id);
    this.note = { id, params };
  }
}

/**
 * Resolve with the video type this browser encodes with its VideoEncoder (see
 * pacing.videoCodec), asked of the largest frame a clip has; null if it has none or takes none.
 */
export async function encodedType() {
  const encoder = globalThis.VideoEncoder;
  if (!encoder?.isConfigSupported) return null;
  return videoCodec((config) => encoder.isConfigSupported(config), encoderConfig(VIDEO.width * VIDEO.scale,
    VIDEO.height * VIDEO.scale));
}

/** Return the encoder's settings for frames of width x height, but the codec. */
function encoderConfig(width, height) {
  return { width, height, bitrate: BITRATE, framerate: FPS, latencyMode: "quality" };
}

/** Return the film a clip is painted on, laid out in box (VIDEO's or GIF's), its tree beside the board if it has one. */
function filmOf(clip, box) {
  return new Film(clip.model.rows, clip.model.cols, { ...box, tree: clip.tree !== null });
}

/**
 * Return what a clip of lane needs, taken at once so that the run may go on (or be reset) while
 * the clip is made: a copy of the model at the clip's first event (from "start" or "here"), the
 * codes of the n events after it (all that the lane holds if n is null; never more), the run's
 * settings, and its search tree if asked for and the lane has the whole of it (else null). The
 * tree is the lane's own: it only grows, and a new run makes a new one.
 */
export function takeClip(lane, from, n, { tree = false } = {}) {
  const { timeline } = lane;
  const { at, held } = clipSpan(timeline, lane.model.events, from);
  const count = Math.min(n ?? held, held);
  const model = rewind(copyModel(lane.model), timeline, at);
  const codes = Array.from({ length: count }, (_, i) => timeline.at(at + i));
  return { model, codes, run: lane.run, tree: tree && lane.tree.whole ? lane.tree : null };
}

/**
 * Encode clip as a video of type (see pacing.videoCodec) at pace events a second, each frame with
 * its own time, as fast as the browser encodes; progress(fraction) is told as it goes, and signal
 * (an AbortSignal) stops it with no file. Resolve with {blob, width, height, seconds, frames};
 * reject with a ClipError if the encoder fails or the file is not whole.
 */
export async function encodeVideo(clip, { type, pace, signal, progress }) {
  const n = clip.codes.length, length = videoSeconds(n, pace), frames = videoFrames(n, pace);
  const film = filmOf(clip, VIDEO);
  const player = new ClipPlayer(clip, film, pace, { speed: pace });
  const { width, height } = film.canvas;
  const { Output, BufferTarget, CanvasSource, Mp4OutputFormat, WebMOutputFormat, Quality } = await import(MEDIABUNNY);
  const format = type.container === "mp4" ? new Mp4OutputFormat({ fastStart: "in-memory" }) : new WebMOutputFormat();
  const output = new Output({ format, target: new BufferTarget() });
  let written = 0, end = -1;
  const us = (k) => Math.round(videoFrame(k, n, pace).t * 1e6); // frame k's time, in microseconds
  const source = new CanvasSource(film.canvas, {
    codec: type.track, fullCodecString: type.codec, quality: new Quality({ bitrate: BITRATE }),
    keyFrameInterval: KEY_EVERY_S, latencyMode: "quality",
    onEncodedPacket: (packet) => {
      written++;
      end = Math.max(end, Math.round(packet.timestamp * 1e6));
    },
  });
  output.addVideoTrack(source); // no frameRate: it would move the last frame, at the clip's end, onto a 1/30 s step
  try {
    await output.start();
    for (let k = 0; k < frames; k++) {
      signal.throwIfAborted();
      const frame = videoFrame(k, n, pace);
      player.show(frame.events, frame.t * 1000);
      // Each frame lasts until the next; the last, at the clip's end, marks it and lasts nothing.
      const timestamp = us(k), duration = k + 1 < frames ? us(k + 1) - timestamp : 0;
      await source.add(timestamp / 1e6, duration / 1e6); // waits while the encoder is behind
      progress((k + 1) / frames);
      await breathe(signal);
    }
    await output.finalize();
  } catch (error) {
    if (output.state !== "finalized") await output.cancel().catch(() => {});
    if (signal.aborted) throw error;
    throw new ClipError("clip.videoFailed", { error: error?.message ?? String(error) });
  }
  const { buffer } = output.target;
  // Every frame came out of the encoder, the last at the clip's end, into a file that has bytes.
  if (written !== frames || end !== us(frames - 1) || !buffer?.byteLength) {
    throw new ClipError("clip.videoIncomplete", { frames: written, of: frames });
  }
  return { blob: new Blob([buffer], { type: type.mime }), width, height, seconds: length, frames };
}

/**
 * Record clip as a video of type ({mime, ext, name}: see pacing.videoType) at pace events a
 * second; progress(fraction) is told as it goes, and signal (an AbortSignal) stops it with no
 * file. Resolve with {blob, width, height, seconds}. It takes as long as the video lasts: for a
 * browser with no VideoEncoder.
 */
export async function recordVideo(clip, { type, pace, signal, progress }) {
  const n = clip.codes.length, length = videoSeconds(n, pace), frames = videoFrames(n, pace);
  const film = filmOf(clip, VIDEO);
  const player = new ClipPlayer(clip, film, pace, { speed: pace });
  // No frame is taken but those asked for: each is the painted one, at the time it is asked.
  const stream = film.canvas.captureStream(0);
  const [track] = stream.getVideoTracks();
  const recorder = new MediaRecorder(stream, { mimeType: type.mime, videoBitsPerSecond: BITRATE });
  const chunks = [];
  recorder.addEventListener("dataavailable", (event) => event.data.size && chunks.push(event.data));
  const stopped = new Promise((resolve) => recorder.addEventListener("stop", resolve));
  let failure = null; // the recorder's error: it stops, and would leave a file cut short
  recorder.addEventListener("error", (event) => { failure = event.error ?? new Error("The recorder failed."); });
  recorder.start(SLICE_MS);
  const clock = new RecordingClock(recorder);
  try {
    for (let k = 0; k < frames; k++) {
      const frame = videoFrame(k, n, pace);
      await clock.until(frame.t * 1000, signal);
      if (failure) throw failure;
      player.show(frame.events, frame.t * 1000);
      track.requestFrame();
      progress(frame.t / length);
    }
    await settle(chunks, frames, signal);
  } finally {
    clock.stop();
    if (recorder.state !== "inactive") recorder.stop();
    await stopped;
    track.stop();
  }
  if (failure) throw failure;
  const blob = await remuxed(new Blob(chunks), type);
  // A file of headers alone plays as nothing: not a clip.
  if (!blob) throw new ClipError("clip.videoIncomplete", { frames: 0, of: frames });
  return { blob, width: film.canvas.width, height: film.canvas.height, seconds: length };
}

/**
 * Resolve once the recorder's chunks hold frames (as many as it was asked for), or have held as
 * many for two slices, or after SETTLE_MS; reject with signal's reason if it aborts first.
 */
async function settle(chunks, frames, signal) {
  const until = performance.now() + SETTLE_MS;
  let held = 0, same = 0;
  while (performance.now() < until) {
    await sleep(SLICE_MS, signal);
    const now = await recordedFrames(new Blob(chunks));
    same = now > 0 && now === held ? same + 1 : 0;
    held = now;
    if (held >= frames || same >= 2) return;
  }
}

/**
 * Resolve with a recorded video (a Blob of the recorder's slices, which carry no length and no
 * index) written again, its frames as they are, into a file of type that players can seek in;
 * null if it holds no frame.
 */
async function remuxed(recorded, type) {
  const { Input, Output, Conversion, BlobSource, BufferTarget, ALL_FORMATS, Mp4OutputFormat, WebMOutputFormat } =
    await import(MEDIABUNNY);
  if (!(await recordedFrames(recorded))) return null;
  const input = new Input({ source: new BlobSource(recorded), formats: ALL_FORMATS });
  const format = type.ext === "mp4" ? new Mp4OutputFormat({ fastStart: "in-memory" }) : new WebMOutputFormat();
  const output = new Output({ format, target: new BufferTarget() });
  try {
    const conversion = await Conversion.init({ input, output });
    await conversion.execute();
  } catch (error) {
    throw new ClipError("clip.videoFailed", { error: error?.message ?? String(error) });
  } finally {
    input.dispose();
  }
  return new Blob([output.target.buffer], { type: type.mime });
}

/** Resolve with how many frames a recorded video file (a Blob) holds, read by mediabunny; 0 if none can be read. */
async function recordedFrames(blob) {
  const { Input, BlobSource, ALL_FORMATS, EncodedPacketSink } = await import(MEDIABUNNY);
  const input = new Input({ source: new BlobSource(blob), formats: ALL_FORMATS });
  try {
    const track = await input.getPrimaryVideoTrack();
    if (!track) return 0;
    const sink = new EncodedPacketSink(track);
    let count = 0;
    for (let packet = await sink.getFirstPacket({ metadataOnly: true }); packet;
      packet = await sink.getNextPacket(packet, { metadataOnly: true })) count++;
    return count;
  } catch {
    return 0; // a file cut short in its headers: nothing of it plays
  } finally {
    input.dispose();
  }
}

/**
 * Encode clip as an animated GIF at pace events a second (see pacing.gifPlan), as fast as it
 * goes, letting the page breathe between frames; progress and signal as for recordVideo.
 * Resolve with {blob, width, height, seconds, frames, plan}.
 */
export async function encodeGif(clip, { pace, signal, progress }) {
  const { GIFEncoder, quantize, applyPalette } = await import(GIFENC);
  const n = clip.codes.length, plan = gifPlan(n, pace);
  // The GIF's frames jump from one to the next, so the knight does too: a glide would show it
  // a whole frame on the square it left.
  const film = filmOf(clip, GIF);
  const player = new ClipPlayer(clip, film, pace, { speed: 0 });
  const { width, height } = film.canvas;
  const gif = GIFEncoder();
  let ms = 0, before = null;
  for (let j = 0; j < plan.frames; j++) {
    signal.throwIfAborted();
    const frame = gifFrame(j, n, pace, plan);
    player.show(frame.events, ms);
    const { data } = film.ctx.getImageData(0, 0, width, height);
    const pixels = new Uint32Array(data.buffer);
    // Each frame is kept under the next (disposal 1), which draws only what changed.
    const { index, ...colours } = indexed(pixels, before, quantize, applyPalette);
    gif.writeFrame(index, width, height, { ...colours, delay: frame.cs * 10, dispose: 1 });
    before = pixels;
    ms += frame.cs * 10;
    progress((j + 1) / plan.frames);
    await breathe(signal);
  }
  gif.finish();
  return { blob: new Blob([gif.bytesView()], { type: "image/gif" }), width, height, seconds: ms / 1000,
    frames: plan.frames, plan };
}

/**
 * Return a frame's pixels (RGBA, one number each) as a GIF frame's {index, palette, transparent,
 * transparentIndex}: the first whole; each next one with only the pixels that changed since the
 * frame before, in a palette of their own, and the rest transparent. A move changes a square or
 * two of a board, so the frames shrink to little more than that, in colours chosen for it alone.
 */
function indexed(pixels, before, quantize, applyPalette) {
  if (!before) {
    const rgba = new Uint8Array(pixels.buffer);
    const palette = quantize(rgba, 256);
    return { index: applyPalette(rgba, palette), palette };
  }
  let count = 0;
  for (let i = 0; i < pixels.length; i++) if (pixels[i] !== before[i]) count++;
  const changed = new Uint32Array(count), at = new Uint32Array(count);
  for (let i = 0, k = 0; i < pixels.length; i++) {
    if (pixels[i] !== before[i]) [changed[k], at[k++]] = [pixels[i], i];
  }
  const rgba = new Uint8Array(changed.buffer);
  const palette = count ? quantize(rgba, 255) : [];
  const colours = count ? applyPalette(rgba, palette) : [];
  // The smallest table (a power of two) with room for one more entry: the transparent one.
  const size = 2 ** Math.max(1, Math.ceil(Math.log2(palette.length + 1)));
  while (palette.length < size) palette.push([0, 0, 0]);
  const index = new Uint8Array(pixels.length).fill(size - 1);
  for (let k = 0; k < count; k++) index[at[k]] = colours[k];
  return { index, palette, transparent: true, transparentIndex: size - 1 };
}

/** The clip's own copy of the model, moved forward and painted by a film, with its caption. */
class ClipPlayer {
  constructor(clip, film, pace, { speed }) {
    Object.assign(this, { clip, film, pace, shown: 0 });
    const { model, run } = clip;
    this.last = model.events + clip.codes.length;
    // The tree is drawn on the scale of its last frame: each node keeps its place as the clip
    // grows it (and a frame changes only what the events changed, as a GIF's frames want).
    this.lastVisits = Math.max(1, model.visits + clip.codes.filter((code) => code >= 0).length);
    this.scene = { model, hints: [], degrees: null, hold: false, deadEnd: null, answers: null, speed,
      reducedMotion: false };
    const start = squareName(model.path[0] ?? run.start, model.rows, model.cols);
    this.title = () => t("clip.captionTitle", { order: orderLabel(run.order, []), rows: model.rows, cols: model.cols,
      start });
    film.note(this.scene, 0); // so that the clip's first event is seen as a change
  }

  /** Apply the clip's events up to its events-th, each at its own time, and paint as at now (ms). */
  show(events, now) {
    const { model, codes } = this.clip;
    while (this.shown < events) {
      apply(model, codes[this.shown++]);
      this.film.note(this.scene, (this.shown / this.pace) * 1000);
    }
    const tree = this.clip.tree && { tree: this.clip.tree, visits: model.visits, length: model.path.length,
      squares: model.squares, from: 0, to: this.lastVisits, pointed: -1, parting: -1 };
    this.film.frame(this.scene, now, [this.title(), t("clip.captionCount", {
      at: model.events, of: this.last, visits: model.visits, backtracks: model.backtracks })], tree);
  }
}

/**
 * Real time for the recorder, from its start, stopped with it while the page is hidden: a hidden
 * page's timers are slowed to a crawl, and the frames would come late.
 */
class RecordingClock {
  constructor(recorder) {
    this.recorder = recorder;
    this.origin = performance.now();
    this.hiddenSince = null;
    this.wake = () => {};
    this.changed = () => this.visibility();
    document.addEventListener("visibilitychange", this.changed);
    this.visibility();
  }

  visibility() {
    const now = performance.now();
    if (document.hidden && this.hiddenSince === null) {
      this.hiddenSince = now;
      if (this.recorder.state === "recording") this.recorder.pause();
    } else if (!document.hidden && this.hiddenSince !== null) {
      this.origin += now - this.hiddenSince;
      this.hiddenSince = null;
      if (this.recorder.state === "paused") this.recorder.resume();
      this.wake();
    }
  }

  /** Resolve at ms of the clip's time (hidden spans left out); reject if signal aborts first. */
  async until(ms, signal) {
    for (;;) {
      signal.throwIfAborted();
      if (this.hiddenSince !== null) {
        await new Promise((resolve, reject) => {
          this.wake = resolve;
          signal.addEventListener("abort", () => reject(signal.reason), { once: true });
        });
        continue;
      }
      const wait = this.origin + ms - performance.now();
      if (wait <= 0) return;
      await sleep(wait, signal);
    }
  }

  stop() {
    document.removeEventListener("visibilitychange", this.changed);
  }
}

/**
 * Resolve once the page has had a turn to handle input and paint; reject with signal's reason if
 * it aborts first. A message, not a timer: a hidden page's timers wait a second or more.
 */
function breathe(signal) {
  return new Promise((resolve, reject) => {
    signal.throwIfAborted();
    const { port1, port2 } = new MessageChannel();
    const abort = () => {
      port1.close();
      reject(signal.reason);
    };
    port1.onmessage = () => {
      port1.close();
      signal.removeEventListener("abort", abort);
      resolve();
    };
    signal.addEventListener("abort", abort, { once: true });
    port2.postMessage(null);
  });
}

/** Resolve after ms milliseconds; reject with signal's reason if it aborts first. */
function sleep(ms, signal) {
  return new Promise((resolve, reject) => {
    signal.throwIfAborted();
    const abort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", abort);
      resolve();
    }, ms);
    signal.addEventListener("abort", abort, { once: true });
  });
}
