// The class panel and the presenter bar: which part shows for the page's role, the code, the
// link to join and its QR code, and the class's notes.
import { t } from "../words/i18n.js";
import { readLimits } from "../settings.js";
import { setText } from "../dom.js";

/** Return a link as parts that break after its scheme and before its port, its query and each
 * further value (the ticket), each part whole on a line unless it is longer than the line. */
function breakable(link) {
  // A narrow column would otherwise break the address anywhere, inside a number or after its ?.
  const parts = link.split(/(?<=:\/\/)|(?=:\d)|(?=\/\?)|(?=&)/);
  return parts.flatMap((part, i) => {
    const span = document.createElement("span");
    span.className = "link-part";
    span.textContent = part;
    return i ? [document.createElement("wbr"), span] : [span];
  });
}

/** Scroll area into view unless its top is already on screen. */
function showBoard(area) {
  const { top } = area.getBoundingClientRect();
  if (top < 0 || top > innerHeight * 0.5) area.scrollIntoView({ block: "start" });
}

/** Return the class panel's view. */
export function createClassView(els) {
  // The server knows an address the students can reach; the page's own may be 127.0.0.1.
  const base = readLimits(document).joinBase ?? location.origin;
  let was = null; // the role rendered last

  function render(state) {
    const { role, code, ticket, presenter, note } = state.klass;
    // Joined from the class box, at the foot of a phone's page: the board is what to watch now.
    if (role === "student" && was === "none") showBoard(els.boardFrame.closest(".board-area"));
    was = role;
    // The link to type is short; the one to copy (and the QR code) carries the class's ticket,
    // which lets its students in whatever other students on their network mistype.
    const link = code ? `${base}/?class=${code}` : "";
    const full = code && ticket ? `${link}&ticket=${ticket}` : link;
    els.classNone.hidden = role !== "none";
    els.classLead.hidden = role !== "instructor";
    els.classFollow.hidden = role !== "student";
    els.classAway.hidden = role !== "left";
    for (const el of [els.leadCode, els.followCode, els.presenterCode]) setText(el, code ?? "");
    for (const [shown, text] of [[els.leadLink, full], [els.presenterLink, link], [els.presenterLinkBig, link]]) {
      if (shown.textContent !== text) shown.replaceChildren(...breakable(text));
    }
    const presenting = role === "instructor" && presenter;
    // How many follow, before any question as during one: whom a question would reach.
    const students = role === "instructor" && state.klass.students !== null ? t("class.students", {
      count: state.klass.students }) : "";
    for (const el of [els.leadStudents, els.presenterStudents]) setText(el, students);
    els.presenter.setAttribute("aria-pressed", String(presenting));
    els.presenterBar.hidden = !presenting;
    // Fetched only once presenting, and again only for another class.
    const qr = presenting ? `/class/${code}/qr.svg${ticket ? `?ticket=${ticket}` : ""}` : null;
    for (const img of [els.presenterQr, els.presenterQrBig]) {
      if (qr && img.getAttribute("src") !== qr) img.src = qr;
    }
    if (!presenting && els.presenterQrLarge.matches(":popover-open")) els.presenterQrLarge.hidePopover();
    let text = "";
    if (note) {
      const params = { ...note.params };
      if (note.id === "class.endedBecause") params.reason = params.reason ? t(params.reason) : params.raw;
      text = t(note.id, params);
    }
    setText(els.classNote, text);
  }

  return { render };
}
