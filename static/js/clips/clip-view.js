// The clip's controls: the choices, what the clip will be, the button that makes it, its progress
// while it is made and how it went, all from the state.
import { controls } from "../controls.js";
import { t } from "../words/i18n.js";
import { GIF_MAX_FRAMES, PACES, gifPlan, gifSeconds, videoSeconds } from "./pacing.js";
import { clipSpan } from "../timeline.js";
import { setText } from "../dom.js";

/** Return a length of time in the page's words: 6.5 s, or 8 min 21 s. */
function duration(seconds) {
  if (seconds < 60) return t("count.seconds", { seconds: Math.round(seconds * 10) / 10 });
  const whole = Math.round(seconds);
  return t("clip.minutes", { minutes: Math.floor(whole / 60), seconds: whole % 60 });
}

/** Return what the clip chosen will be, or why none can be made, in a sentence or two. */
function plan(state, held, enabled) {
  const { clip } = state;
  if (state.settings.mode === "example") return t("clip.notExample");
  if (held === 0) return t(clip.from === "here" ? "clip.nothingHere" : "clip.nothing");
  if (!enabled) return "";
  const n = Math.min(clip.events ?? held, held);
  if (clip.format === "video") {
    if (!clip.video) return t("clip.noVideo");
    const id = clip.video.by === "recorder" ? "clip.planVideoRecorded" : "clip.planVideo";
    return t(id, { n, format: clip.video.name, length: duration(videoSeconds(n, clip.pace)) });
  }
  const cut = gifPlan(n, clip.pace);
  return t(cut.thinned ? "clip.planGifThinned" : "clip.planGif", { n, frames: cut.frames, max: GIF_MAX_FRAMES,
    group: cut.group, length: duration(gifSeconds(cut, clip.pace)) });
}

/** Return the clip's view. */
export function createClipView(els) {
  const radios = [...els.clipSetup.querySelectorAll("input[name=clip-from]")];
  let pacesIn = "";

  /** Write the paces' options in the page's language (once a language). */
  function renderPaces(language) {
    if (language === pacesIn) return;
    pacesIn = language;
    els.clipPace.replaceChildren(...PACES.map((pace) => new Option(t("clip.paceValue", { n: pace }), String(pace))));
  }

  function render(state, runs) {
    const { clip } = state;
    const main = runs.main;
    const { held } = clipSpan(main.timeline, main.model.events, clip.from);
    const { enabled } = controls(state, runs).clip;
    const busy = clip.busy !== null;
    renderPaces(state.view.language);
    for (const radio of radios) radio.checked = radio.value === clip.from;
    els.clipEvents.max = String(Math.max(1, held));
    els.clipEvents.placeholder = t("clip.eventsAll", { n: held });
    // Not while the user types in it: the field keeps their text until they leave it.
    if (document.activeElement !== els.clipEvents) els.clipEvents.value = clip.events === null ? "" : String(clip.events);
    els.clipPace.value = String(clip.pace);
    setText(els.clipFormatVideo, clip.video ? t("clip.video", { format: clip.video.name }) : t("clip.videoNone"));
    els.clipFormatVideo.disabled = !clip.video;
    els.clipFormat.value = clip.format;
    els.clipTree.checked = clip.tree;
    for (const input of [...radios, els.clipEvents, els.clipPace, els.clipFormat, els.clipTree]) input.disabled = busy;
    els.clipMake.hidden = busy;
    els.clipMake.disabled = !enabled;
    els.clipProgress.hidden = !busy;
    els.clipCancel.hidden = !busy;
    els.clipProgress.value = clip.progress;
    setText(els.clipPlan, busy ? "" : plan(state, held, enabled));
    setText(els.clipNote, clip.note ? t(clip.note.id, clip.note.params) : "");
  }

  return { render };
}
