// Where the instructor's boxes stand: the class's question and the page's asks (a change to
// confirm, the undo offer) at the top of the lesson's column on a wide screen, so that none of them
// (a question's tools, rounds, timer, reveal, asking again; a change asked mid-run) takes the
// board's height, and the board never jumps on the projector; above the board elsewhere (a phone,
// the lesson hidden, a race), where a student's stay too. On the projector the tournament's
// standings stand in the lesson's column as well, which gives way to them while they are unfolded.

/** Keep doc's instructor boxes where the body's data say they belong, now and as they change. */
export function placeQuestion(doc = document) {
  const body = doc.body;
  const boxes = ["pending", "undo-bar", "poll"].map((id) => doc.getElementById(id));
  const tournament = doc.getElementById("tournament");
  const lesson = doc.querySelector(".lesson");
  const home = doc.createComment(" the question's place above the board ");
  const tournamentHome = doc.createComment(" the tournament's place under the board ");
  boxes[0].before(home);
  tournament.before(tournamentHome);
  const wide = matchMedia("(min-width: 761px)");

  function place() {
    const { leading, lesson: shown, mode, presenter } = body.dataset;
    const aside = leading === "true" && shown === "true" && mode !== "race" && wide.matches;
    if (aside && boxes[0].parentElement !== lesson) lesson.prepend(...boxes);
    else if (!aside && home.nextSibling !== boxes[0]) home.after(...boxes);
    const standings = aside && presenter === "true";
    if (standings && tournament.parentElement !== lesson) boxes.at(-1).after(tournament);
    else if (!standings && tournamentHome.nextSibling !== tournament) tournamentHome.after(tournament);
  }

  new MutationObserver(place).observe(body, { attributes: true,
    attributeFilter: ["data-leading", "data-lesson", "data-mode", "data-presenter"] });
  wide.addEventListener("change", place);
  place();
}
