// The embed's parts: on an embedded board, its Play button over the board and its link to the
// whole page; on the page itself, the embed code for its setup.
import { controls } from "../controls.js";
import { embedCode } from "./embed.js";
import { t } from "../words/i18n.js";
import { toLink } from "../settings.js";
import { setText } from "../dom.js";

/** Return the embed's view; base: the server's address as other sites reach it. */
export function createEmbedView(els, base) {
  function renderEmbedded(state, runs) {
    els.openFull.href = new URL(`/${toLink(state.settings, null)}`, location.href).href;
    if (!els.embedPlay) return;
    const play = controls(state, runs).play;
    setText(els.embedPlay, t(play.label));
    els.embedPlay.disabled = !play.enabled;
    els.embedPlay.setAttribute("aria-pressed", String(play.pressed));
  }

  function renderSnippet(state) {
    const { snippet } = state;
    els.embedControls.value = snippet.controls;
    for (const box of document.querySelectorAll("input[name=embed-panel]")) box.checked = snippet.panels.includes(box.value);
    els.embedAutoplay.checked = snippet.autoplay;
    els.embedLoop.checked = snippet.loop;
    const code = embedCode(base, state.settings, snippet, t("embed.title"));
    // Only when it changed: writing it again would drop a selection the user is making.
    if (els.embedCode.value !== code) els.embedCode.value = code;
    setText(els.embedNote, state.notes.embed ? t(state.notes.embed.id, state.notes.embed.params) : "");
  }

  return { render: (state, runs) => (state.embedded ? renderEmbedded(state, runs) : renderSnippet(state)) };
}
