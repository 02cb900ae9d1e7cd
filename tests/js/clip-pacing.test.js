// A clip's pacing: the video type chosen from what the encoder or the recorder takes, the video's
// frames and the events each shows, the GIF's frames and delays, and frame sizes an encoder takes.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  FPS, GIF_MAX_FRAMES, GIF_MIN_CS, HOLD_S, PACES, evenSize, gifFrame, gifPlan, gifSeconds, videoCodec, videoFrame,
  videoFrames, videoSeconds, videoType,
} from "../../static/js/clips/pacing.js";
import { clipSpan } from "../../static/js/timeline.js";

/** Return a stub of MediaRecorder.isTypeSupported that takes exactly the types given. */
const takes = (...types) => (mime) => types.includes(mime);

test("the video type is the first the recorder takes, WebM before MP4", () => {
  const all = ["video/webm;codecs=vp9", "video/webm;codecs=vp8", "video/webm", "video/mp4;codecs=avc1", "video/mp4"];
  assert.deepEqual(videoType(takes(...all)), { mime: "video/webm;codecs=vp9", ext: "webm", name: "WebM" });
  assert.deepEqual(videoType(takes("video/webm")), { mime: "video/webm", ext: "webm", name: "WebM" });
  // Safari: MP4 only.
  assert.deepEqual(videoType(takes("video/mp4", "video/mp4;codecs=avc1")),
    { mime: "video/mp4;codecs=avc1", ext: "mp4", name: "MP4" });
  assert.deepEqual(videoType(takes("video/mp4")), { mime: "video/mp4", ext: "mp4", name: "MP4" });
  assert.equal(videoType(takes()), null);
  assert.equal(videoType(takes("video/ogg")), null);
});

test("a video's frames come every 1/FPS s, the last at its very end, each showing the events come by then", () => {
  for (const pace of PACES) {
    for (const n of [1, 7, 25, 61, 1000]) {
      const frames = videoFrames(n, pace), length = videoSeconds(n, pace);
      assert.equal(length, n / pace + HOLD_S);
      const all = Array.from({ length: frames }, (_, k) => videoFrame(k, n, pace));
      assert.deepEqual(all[0], { t: 0, events: 0 }, "the clip opens on its first position");
      assert.equal(all.at(-1).t, length, "the last frame is at the end: the recorded length is the clip's");
      assert.equal(all.at(-1).events, n);
      assert.ok(all.at(-2).t < length, "one frame at the end, not two");
      all.forEach((frame, k) => {
        if (k < frames - 1) assert.equal(frame.t, k / FPS);
        assert.ok(frame.t - (all[k - 1]?.t ?? -1) > 0, "times grow");
        assert.equal(frame.events, Math.min(n, Math.floor(frame.t * pace + 1e-9)), `frame ${k}: the events by its time`);
      });
      // Every event is shown by n / pace s, and held from then on.
      assert.equal(all.find((frame) => frame.t >= n / pace).events, n);
    }
  }
  assert.equal(videoFrames(25, 5), 6 * FPS + 1); // 5 s of events, 1 s of hold, and the frame at 6 s
  assert.deepEqual(videoFrame(30, 25, 5), { t: 1, events: 5 });
  assert.deepEqual(videoFrame(7, 100, 20), { t: 7 / 30, events: 4 });
});

test("a GIF's frames each last at least 2 cs, as written, and keep the pace", () => {
  assert.deepEqual(gifPlan(25, 5), { group: 1, frames: 26, thinned: false });
  assert.deepEqual(gifPlan(25, 50), { group: 1, frames: 26, thinned: false }); // 20 ms an event
  assert.deepEqual(gifPlan(25, 100), { group: 2, frames: 14, thinned: false });
  assert.deepEqual(gifPlan(25, 200), { group: 4, frames: 8, thinned: false });
  assert.deepEqual(gifPlan(100, 500), { group: 10, frames: 11, thinned: false });
  for (const pace of [...PACES, 3, 7, 33, 333]) {
    for (const n of [1, 2, 9, 25, 64, 999, 9996]) {
      const plan = gifPlan(n, pace);
      const frames = Array.from({ length: plan.frames }, (_, j) => gifFrame(j, n, pace, plan));
      assert.equal(frames[0].events, 0);
      assert.equal(frames.at(-1).events, n);
      assert.equal(frames.at(-1).cs, HOLD_S * 100, "the last frame is held");
      assert.ok(frames.every(({ cs }) => cs >= GIF_MIN_CS && Number.isInteger(cs)), `${n} at ${pace}: ${frames}`);
      assert.ok(frames.slice(0, -1).every(({ events }, j) => events === j * plan.group && events < n));
      assert.ok(plan.frames <= GIF_MAX_FRAMES);
      // The delays add up to the events' time, give or take the last group and a rounding.
      const cs = frames.slice(0, -1).reduce((sum, frame) => sum + frame.cs, 0);
      assert.ok(Math.abs(cs - ((plan.frames - 1) * plan.group * 100) / pace) <= 0.5);
      assert.ok(cs >= Math.floor((n * 100) / pace) - 0.5 && cs <= ((n + plan.group) * 100) / pace + 0.5);
      assert.equal(gifSeconds(plan, pace), cs / 100 + HOLD_S);
      assert.equal(plan.thinned, Math.ceil(n / Math.max(1, Math.ceil((GIF_MIN_CS * pace) / 100))) + 1 > GIF_MAX_FRAMES);
    }
  }
});

test("a GIF of more frames than it may hold is thinned: larger groups, the same pace", () => {
  const plan = gifPlan(9996, 20); // 20 a second: one event a frame, 9,997 frames
  assert.equal(plan.thinned, true);
  assert.equal(plan.group, Math.ceil(9996 / (GIF_MAX_FRAMES - 1)));
  assert.equal(plan.frames, Math.ceil(9996 / plan.group) + 1);
  assert.deepEqual(gifFrame(1, 9996, 20, plan), { events: plan.group, cs: plan.group * 5 });
  assert.ok(Math.abs(gifSeconds(plan, 20) - (9996 / 20 + HOLD_S)) < plan.group / 20);
});

test("frame sizes are whole, even pixels at any scale", () => {
  assert.deepEqual(evenSize(505, 540, 2), [1010, 1080]);
  assert.deepEqual(evenSize(505, 539, 1), [506, 540]);
  assert.deepEqual(evenSize(400.5, 100.2, 1), [402, 102]);
  assert.deepEqual(evenSize(0.3, 0.2, 1), [2, 2]);
  assert.deepEqual(evenSize(220.0000000000001, 10, 1), [220, 10], "not a pixel more for a rounding's dust");
  for (const scale of [1, 1.5, 2, 3]) {
    for (let w = 1; w < 300; w += 7.3) {
      const [width, height] = evenSize(w, w / 3, scale);
      assert.ok(width % 2 === 0 && height % 2 === 0);
      assert.ok(width >= w * scale - 1e-6 && width < w * scale + 2);
      assert.ok(height >= (w / 3) * scale - 1e-6 && height < (w / 3) * scale + 2);
    }
  }
});

test("a clip begins at the first event kept, or at the one shown, and takes what follows", () => {
  const timeline = { first: 0, head: 120 };
  assert.deepEqual(clipSpan(timeline, 80, "start"), { at: 0, held: 120 });
  assert.deepEqual(clipSpan(timeline, 80, "here"), { at: 80, held: 40 });
  assert.deepEqual(clipSpan(timeline, 120, "here"), { at: 120, held: 0 });
  assert.deepEqual(clipSpan({ first: 50, head: 120 }, 60, "start"), { at: 50, held: 70 }); // earlier ones not received
});

/** Return a stub of VideoEncoder.isConfigSupported that takes the codecs given, and the configs it was asked. */
function encodes(...codecs) {
  const asked = [];
  const isConfigSupported = async (config) => {
    asked.push(config);
    return { supported: codecs.includes(config.codec), config };
  };
  return { isConfigSupported, asked };
}

test("the video codec is the first the encoder takes: H.264 (MP4), then VP9, then VP8 (WebM)", async () => {
  const config = { width: 1920, height: 1080, bitrate: 6_000_000, framerate: FPS };
  const all = encodes("vp09.00.40.08", "vp8", "avc1.640028", "avc1.4d0028", "avc1.42e028");
  // H.264 with its parameters kept apart, as MP4 keeps them.
  assert.deepEqual(await videoCodec(all.isConfigSupported, config), { codec: "avc1.640028", avc: { format: "avc" },
    track: "avc", container: "mp4", mime: "video/mp4", ext: "mp4", name: "MP4" });
  assert.deepEqual(all.asked, [{ ...config, codec: "avc1.640028", avc: { format: "avc" } }],
    "asked with the encoder's settings, once");
  // Safari before 17: only Constrained Baseline.
  const baseline = encodes("avc1.42e028");
  assert.equal((await videoCodec(baseline.isConfigSupported, config)).codec, "avc1.42e028");
  assert.deepEqual(baseline.asked.map((asked) => asked.codec), ["avc1.640028", "avc1.4d0028", "avc1.42e028"]);
  // A browser with no H.264 encoder (a Chromium built without one): WebM.
  const noH264 = encodes("vp09.00.40.08", "vp8");
  assert.deepEqual(await videoCodec(noH264.isConfigSupported, config),
    { codec: "vp09.00.40.08", track: "vp9", container: "webm", mime: "video/webm", ext: "webm", name: "WebM" });
  assert.equal(noH264.asked.at(-1).avc, undefined, "VP9 is asked of without H.264's parameters");
  assert.deepEqual(await videoCodec(encodes("vp8").isConfigSupported, config),
    { codec: "vp8", track: "vp8", container: "webm", mime: "video/webm", ext: "webm", name: "WebM" });
  assert.equal(await videoCodec(encodes().isConfigSupported, config), null);
  // A codec string the browser cannot parse is refused with a TypeError: the next is tried.
  const refuses = async (asked) => {
    if (asked.codec.startsWith("avc1")) throw new TypeError("Invalid codec string");
    return { supported: true };
  };
  assert.equal((await videoCodec(refuses, config)).codec, "vp09.00.40.08");
});
