// How a clip is paced, as plain arithmetic: which video type this browser encodes or records, the
// video's frames and the events each one shows, the GIF's frames (events grouped so that each
// lasts long enough to be played as written) and their delays, and frame sizes an encoder takes.

export const FPS = 30;
export const HOLD_S = 1;                  // the last frame stays this long, so the end can be seen
export const PACES = [1, 2, 5, 10, 20, 50, 100, 200, 500]; // events a second
export const GIF_MIN_CS = 2;              // browsers play a GIF frame shorter than 2 cs as 10 cs
export const GIF_MAX_FRAMES = 1000;       // beyond this a GIF grows past tens of megabytes

// The first of these that the browser's VideoEncoder takes: MP4 (H.264: High, else Main, else
// Constrained Baseline, all at level 4, room for 1080p), which encodes fastest and plays in
// PowerPoint, Keynote and every browser; else WebM (VP9, else VP8). track: mediabunny's name for
// the codec; avc: H.264 with its parameters apart (avcC), as MP4 keeps them.
const VIDEO_CODECS = [
  { codec: "avc1.640028", track: "avc", container: "mp4", avc: { format: "avc" } },
  { codec: "avc1.4d0028", track: "avc", container: "mp4", avc: { format: "avc" } },
  { codec: "avc1.42e028", track: "avc", container: "mp4", avc: { format: "avc" } },
  { codec: "vp09.00.40.08", track: "vp9", container: "webm" },
  { codec: "vp8", track: "vp8", container: "webm" },
];
const CONTAINERS = { webm: { mime: "video/webm", ext: "webm", name: "WebM" },
  mp4: { mime: "video/mp4", ext: "mp4", name: "MP4" } };

// Where the browser has no VideoEncoder: the first of these that its MediaRecorder takes, WebM
// where it records WebM (Chromium, Firefox), MP4 where it records MP4 (Safari).
const VIDEO_TYPES = [
  ["video/webm;codecs=vp9", "webm", "WebM"],
  ["video/webm;codecs=vp8", "webm", "WebM"],
  ["video/webm", "webm", "WebM"],
  ["video/mp4;codecs=avc1", "mp4", "MP4"],
  ["video/mp4", "mp4", "MP4"],
];

/** Return the video type to record, {mime, ext, name}, by isTypeSupported(mime); null if none. */
export function videoType(isTypeSupported) {
  const found = VIDEO_TYPES.find(([mime]) => isTypeSupported(mime));
  return found ? { mime: found[0], ext: found[1], name: found[2] } : null;
}

/**
 * Resolve with the video type to encode, {codec, track, container, avc?, mime, ext, name}: the
 * first codec that isConfigSupported (VideoEncoder's, bound) takes with config (the encoder's
 * settings but its codec); null if none.
 */
export async function videoCodec(isConfigSupported, config) {
  for (const { codec, avc, ...rest } of VIDEO_CODECS) {
    const tried = { ...config, codec, ...(avc ? { avc } : {}) };
    let answer = null;
    try {
      answer = await isConfigSupported(tried);
    } catch {
      // A codec string the browser cannot parse is refused with a TypeError: as unsupported.
    }
    if (answer?.supported) return { codec, ...(avc ? { avc } : {}), ...rest, ...CONTAINERS[rest.container] };
  }
  return null;
}

/** Return how long a video of n events at pace events a second lasts, in seconds, its hold included. */
export function videoSeconds(n, pace) {
  return n / pace + HOLD_S;
}

/** Return how many frames a video of n events at pace has: one each 1/FPS s, and one at its very end. */
export function videoFrames(n, pace) {
  // In whole numbers: the length times FPS, n / pace * FPS + HOLD_S * FPS, rounded up.
  return Math.ceil((n * FPS + HOLD_S * FPS * pace) / pace) + 1;
}

/**
 * Return video frame k of n events at pace: {t, events}, its time in seconds and how many events
 * it shows. Frame k is at k / FPS s, but the last, at the end, so that the recorded length (the
 * time of the last frame) is the clip's; it shows every event that has come by then.
 */
export function videoFrame(k, n, pace) {
  return { t: Math.min(k / FPS, videoSeconds(n, pace)), events: Math.min(n, Math.floor((k * pace) / FPS)) };
}

/**
 * Return how a GIF of n events at pace is cut into frames: {group, frames, thinned}. Each frame
 * but the last shows group more events and lasts group / pace s, at least GIF_MIN_CS; the first
 * shows none, the last all n (held HOLD_S). At most GIF_MAX_FRAMES: past that, groups are
 * larger (thinned) and the frames last longer, so the GIF still lasts about n / pace s.
 */
export function gifPlan(n, pace) {
  let group = Math.max(1, Math.ceil((GIF_MIN_CS * pace) / 100));
  let thinned = false;
  if (Math.ceil(n / group) + 1 > GIF_MAX_FRAMES) {
    group = Math.ceil(n / (GIF_MAX_FRAMES - 1));
    thinned = true;
  }
  return { group, frames: Math.ceil(n / group) + 1, thinned };
}

/**
 * Return GIF frame j of n events at pace, cut by plan: {events, cs}, how many events it shows and
 * how long it lasts in hundredths of a second (a GIF's unit). The frames' times are rounded to
 * the unit as they add up, so the GIF keeps its pace however many frames it has.
 */
export function gifFrame(j, n, pace, plan) {
  if (j >= plan.frames - 1) return { events: n, cs: HOLD_S * 100 };
  const at = (i) => Math.round((i * plan.group * 100) / pace);
  return { events: j * plan.group, cs: at(j + 1) - at(j) };
}

/** Return how long a GIF cut by plan (see gifPlan) at pace lasts, in seconds, its hold included. */
export function gifSeconds(plan, pace) {
  return Math.round(((plan.frames - 1) * plan.group * 100) / pace) / 100 + HOLD_S;
}

/** Return a width x height (CSS pixels) at scale as whole, even pixels, as H.264 needs: [w, h]. */
export function evenSize(width, height, scale) {
  const even = (x) => 2 * Math.ceil((x * scale) / 2 - 1e-9);
  return [Math.max(2, even(width)), Math.max(2, even(height))];
}
