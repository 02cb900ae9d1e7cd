// The drawer of presenter view: the class's tools (timeline, settings, bookmark, the questions'
// series, rounds and results) over the side columns, so the instructor changes anything without leaving
// the projector's view. It lies over the lesson and the class's link, never over the board, and
// the board keeps its size: opening it mid-run must not make the board jump on the projector.

/** Wire the drawer of presenter view in doc: its button, its Close button and Escape. */
export function presenterDrawer(doc = document) {
  const body = doc.body;
  const toggle = doc.getElementById("drawer-toggle");
  const close = doc.getElementById("drawer-close");
  const slot = doc.getElementById("drawer-poll-tools");
  // The question's series and results live over the board, hidden in presenter view: the drawer
  // holds them while it is open, and gives them back where they were.
  const borrowed = [doc.getElementById("poll-options"), doc.getElementById("poll-results")].map((el) => {
    const home = doc.createComment(` ${el.id || el.className} `);
    el.before(home);
    return { el, home };
  });

  const isOpen = () => body.dataset.drawer === "open";

  function open() {
    body.dataset.drawer = "open";
    toggle.setAttribute("aria-expanded", "true");
    for (const { el } of borrowed) slot.append(el);
    close.focus();
  }

  function shut() {
    if (!isOpen()) return;
    const focused = doc.getElementById("panel").contains(doc.activeElement);
    delete body.dataset.drawer;
    toggle.setAttribute("aria-expanded", "false");
    for (const { el, home } of borrowed) home.after(el);
    if (focused && toggle.offsetParent) toggle.focus();
  }

  toggle.addEventListener("click", () => (isOpen() ? shut() : open()));
  close.addEventListener("click", shut);
  doc.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && isOpen() && !event.defaultPrevented) {
      event.preventDefault();
      shut();
    }
  });
  // Leaving presenter view (by its button, or the class ending) closes the drawer.
  new MutationObserver(() => {
    if (body.dataset.presenter !== "true") shut();
  }).observe(body, { attributes: true, attributeFilter: ["data-presenter"] });
}
