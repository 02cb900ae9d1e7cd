// The class panel and the presenter bar: which part shows for the page's role, the code and
// the link to join, and the class's notes.
import { t } from "../i18n.js";

/** Return the class panel's view. */
export function createClassView(els) {
  function render(state) {
    const { role, code, presenter, note } = state.klass;
    const link = code ? `${location.origin}/?class=${code}` : "";
    els.classNone.hidden = role !== "none";
    els.classLead.hidden = role !== "instructor";
    els.classFollow.hidden = role !== "student";
    els.classAway.hidden = role !== "left";
    els.leadCode.textContent = els.followCode.textContent = els.presenterCode.textContent = code ?? "";
    els.leadLink.textContent = els.presenterLink.textContent = link;
    const presenting = role === "instructor" && presenter;
    els.presenter.setAttribute("aria-pressed", String(presenting));
    els.presenterBar.hidden = !presenting;
    let text = "";
    if (note) {
      const params = { ...note.params };
      if (note.id === "class.endedBecause") params.reason = params.reason ? t(params.reason) : params.raw;
      text = t(note.id, params);
    }
    els.classNote.textContent = text;
  }

  return { render };
}
