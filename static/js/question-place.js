// Where the class's question stands on the instructor's page: at the top of the lesson's column on
// a wide screen, so that no stage of a question (its tools, rounds, timer, reveal, asking again)
// takes the board's height, and the board never jumps on the projector; above the board elsewhere
// (a phone, the lesson hidden, a race), where a student's stays too.

/** Keep doc's question box where the body's data say it belongs, now and as they change. */
export function placeQuestion(doc = document) {
  const body = doc.body;
  const poll = doc.getElementById("poll");
  const lesson = doc.querySelector(".lesson");
  const home = doc.createComment(" the question's place above the board ");
  poll.before(home);
  const wide = matchMedia("(min-width: 761px)");

  function place() {
    const { leading, lesson: shown, mode } = body.dataset;
    const aside = leading === "true" && shown === "true" && mode !== "race" && wide.matches;
    if (aside && poll.parentElement !== lesson) lesson.prepend(poll);
    else if (!aside && home.nextSibling !== poll) home.after(poll);
  }

  new MutationObserver(place).observe(body, { attributes: true,
    attributeFilter: ["data-leading", "data-lesson", "data-mode"] });
  wide.addEventListener("change", place);
  place();
}
