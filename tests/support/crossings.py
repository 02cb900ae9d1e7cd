"""The states a lesson reaches and the actions a user takes there, for the table of crossings."""

import re

from playwright.sync_api import expect

from server.wire import SPEED_STEPS

from .page import FASTEST, STEP, laid_out, open_tournament, press

# Words of a refusal or an error the user did not cause (status line, the class note).
REFUSAL = re.compile(r"no run to control|could not|error|refused|failed|not allowed", re.IGNORECASE)
LANES = ["#status", "#class-note", "#line-note", "#order-note"]


def box(page):
    """Return the board's box as page lays it out, or None when it is not shown."""
    return laid_out(page)


# What a page shows that a cell checks, read in one call: the texts of its status lines that read
# as a refusal or an error, and the Play button's label, state and the status it should agree with.
SHOWN = """(lanes) => {
  const text = (el) => el.innerText.trim();
  const sized = ({ width, height }) => width > 0 && height > 0;
  const visible = (el) => el.checkVisibility({ visibilityProperty: true })
    && sized(el.getBoundingClientRect());
  const shown = lanes.map((selector) => document.querySelector(selector)).filter((el) => el && visible(el))
    .map((el) => [`#${el.id}`, text(el)]);
  const play = document.getElementById("play");
  return { lanes: shown, play: text(play), playDisabled: play.disabled,
           status: text(document.getElementById("status")) };
}"""


def refusals_and_mismatches(page):
    """Return what page shows wrongly: status lines that read as a refusal or an error, and
    where its Play button disagrees with its status line."""
    shown = page.evaluate(SHOWN, LANES)
    found = [f"{selector}: {text}" for selector, text in shown["lanes"] if REFUSAL.search(text)]
    label, status = shown["play"], shown["status"]
    if label == "Pause" and re.search(r"^Paused", status):
        found.append(f"Play reads Pause while the status says {status!r}")
    if label == "Play" and re.search(r"Searching|Running", status) and not shown["playDisabled"]:
        found.append(f"Play reads Play while the status says {status!r}")
    return found


# States: each brings a fresh instructor (class started, at projector size) and its one student there.


def idle(lesson):
    """Leave the lesson as it starts."""


def playing(lesson):
    """Play the search, slowly."""
    lesson.teacher.get_by_role("button", name="Play").click()
    expect(lesson.teacher.locator("#play")).to_have_text("Pause")


def paused(lesson):
    """Play then pause."""
    playing(lesson)
    lesson.teacher.get_by_role("button", name="Pause").click()
    expect(lesson.teacher.locator("#play")).to_have_text("Play")


def race(lesson, speed=FASTEST):
    """Switch the lesson to the race, on 6x6 from a corner, as fast as it goes (or at speed)."""
    page = lesson.teacher
    page.locator("#mode input[value=race]").check()
    page.get_by_label("Rows", exact=True).fill("6")
    page.get_by_label("Rows", exact=True).dispatch_event("change")
    page.get_by_label("Columns", exact=True).fill("6")
    page.get_by_label("Columns", exact=True).dispatch_event("change")
    page.locator("#speed").fill(speed)
    page.locator("#speed").dispatch_event("change")


def race_one_finished(lesson):
    """Race until Warnsdorff has finished and naive still searches (at 500 moves a second: for
    minutes, where as fast as it goes it would finish within a second)."""
    race(lesson, speed=str(SPEED_STEPS.index(500)))
    lesson.teacher.get_by_role("button", name="Play").click()
    expect(lesson.teacher.get_by_role("status")).to_contain_text(re.compile(r"Warnsdorff has finished"))


def race_both_finished(lesson):
    """Race on 5x5 until both sides have finished."""
    race(lesson)
    page = lesson.teacher
    page.get_by_label("Rows", exact=True).fill("5")
    page.get_by_label("Rows", exact=True).dispatch_event("change")
    page.get_by_label("Columns", exact=True).fill("5")
    page.get_by_label("Columns", exact=True).dispatch_event("change")
    page.get_by_role("button", name="Play").click()
    for side in ("#caption-main", "#caption-second"):
        expect(page.locator(side)).to_contain_text("Finished", timeout=30_000)


def skipping(lesson):
    """Skip to the end on 8x8 from a corner, whose naive search takes minutes."""
    page = lesson.teacher
    for field in ("Rows", "Columns"):
        page.get_by_label(field, exact=True).fill("8")
        page.get_by_label(field, exact=True).dispatch_event("change")
    page.get_by_role("button", name="Skip to end").click()
    expect(page.locator("#status")).to_contain_text("Skipping to the end")


def predict_waiting(lesson):
    """Turn on predict the next move and step to its first question."""
    page = lesson.teacher
    page.get_by_label("Ask me where the knight goes next").check()
    press(page.get_by_role("button", **STEP))
    page.wait_for_function("() => knightsTour.model.events === 1")
    press(page.get_by_role("button", **STEP))
    expect(page.locator("#status")).to_have_text(re.compile("Your turn"))


def question_round1(lesson, rounds=1):
    """Step once and ask the class, in one round or two."""
    page = lesson.teacher
    press(page.get_by_role("button", **STEP))
    page.wait_for_function("() => knightsTour.model.events === 1")
    page.locator("#poll-peer").set_checked(rounds == 2)
    page.get_by_role("button", name="Ask the class").click()
    expect(lesson.student.locator("#poll-text")).to_contain_text(re.compile("tap the square", re.IGNORECASE))


def question_discussion(lesson):
    """Ask in two rounds, then open the discussion."""
    question_round1(lesson, rounds=2)
    lesson.teacher.get_by_role("button", name="Discuss with your neighbour").click()
    expect(lesson.student.locator("#poll-text")).to_contain_text("Discuss with your neighbour")


def question_round2(lesson):
    """Ask, discuss, then open the second round."""
    question_discussion(lesson)
    lesson.teacher.get_by_role("button", name="Second round").click()
    expect(lesson.teacher.get_by_role("button", name="Second round")).to_be_hidden()


def question_revealed(lesson):
    """Ask, then reveal."""
    question_round1(lesson)
    press(lesson.teacher.get_by_role("button", name="Reveal"))
    expect(lesson.teacher.get_by_role("button", name="Ask it again mirrored")).to_be_visible()


def question_mirrored(lesson):
    """Ask, reveal, then ask it again mirrored."""
    question_revealed(lesson)
    lesson.teacher.get_by_role("button", name="Ask it again mirrored").click()
    expect(lesson.student.locator("#poll-text")).to_contain_text(re.compile("tap the square", re.IGNORECASE))


def tournament_open(lesson):
    """Open a class tournament, until the student's page shows it."""
    open_tournament(lesson.teacher)
    expect(lesson.teacher.get_by_role("button", name="Close the entries")).to_be_visible()
    expect(lesson.student.locator("#tournament")).to_have_attribute("open", "")


def exercise_asked(lesson):
    """Ask the class for a code exercise, until the student's page shows it."""
    lesson.teacher.locator("#exercise-ask").click()
    expect(lesson.student.locator("#exercise-follow")).to_be_visible()


def presenter(lesson):
    """Turn presenter view on."""
    lesson.teacher.get_by_role("button", name="Presenter view").click()
    expect(lesson.teacher.locator("#presenter-bar")).to_be_visible()


def presenter_question(lesson):
    """Turn presenter view on and ask the class."""
    presenter(lesson)
    question_round1(lesson)


def student_reviewing(lesson):
    """Step three times, and the student steps back through the history on their own."""
    page = lesson.teacher
    for n in (1, 2, 3):
        press(page.get_by_role("button", **STEP))
        page.wait_for_function(f"() => knightsTour.model.events === {n}")
    lesson.student.wait_for_function("() => knightsTour.model.events === 3")
    lesson.student.locator("body").click(position={"x": 5, "y": 5})
    lesson.student.keyboard.press("Home")
    expect(lesson.student.get_by_role("status")).to_contain_text("Reviewing on your own")


STATES = {
    f.__name__: f
    for f in (
        idle,
        playing,
        paused,
        race_one_finished,
        race_both_finished,
        skipping,
        predict_waiting,
        question_round1,
        question_discussion,
        question_round2,
        question_revealed,
        question_mirrored,
        tournament_open,
        exercise_asked,
        presenter,
        presenter_question,
        student_reviewing,
    )
}


# Actions: each a user's press, and whose boards it may change the layout of.


def click_if_enabled(button):
    """Press button as a user would; return False, pressing nothing, if the page disables it."""
    if not button.is_visible() or button.is_disabled():
        return False
    press(button)
    return True


def act_play(lesson):
    """Press Play (or Pause when it reads so)."""
    return click_if_enabled(lesson.teacher.locator("#play"))


def act_step(lesson):
    """Press Step."""
    return click_if_enabled(lesson.teacher.locator("#step"))


def act_back(lesson):
    """Press Step back."""
    return click_if_enabled(lesson.teacher.locator("#back"))


def act_skip(lesson):
    """Press Skip to end."""
    return click_if_enabled(lesson.teacher.locator("#skip"))


def act_reset(lesson):
    """Press Reset."""
    return click_if_enabled(lesson.teacher.locator("#reset"))


def act_speed(lesson):
    """Move the Speed slider."""
    speed = lesson.teacher.locator("#speed")
    if speed.is_disabled():
        return False
    speed.fill("3")
    speed.dispatch_event("change")
    return True


def act_order(lesson):
    """Choose another ordering."""
    order = lesson.teacher.get_by_label("Ordering", exact=True)
    if not order.is_visible() or order.is_disabled():
        return False
    order.select_option("warnsdorff")
    return True


def act_ask(lesson):
    """Press Ask the class."""
    return click_if_enabled(lesson.teacher.locator("#poll-ask"))


def act_exercise(lesson):
    """Ask the class for a code exercise (afresh, when one is open)."""
    return click_if_enabled(lesson.teacher.locator("#exercise-ask"))


def act_race(lesson):
    """Switch the lesson to the race."""
    radio = lesson.teacher.locator("#mode input[value=race]")
    if not radio.is_visible() or radio.is_disabled():
        return False
    radio.check()
    return True


def act_presenter(lesson):
    """Turn presenter view on, or off when it is on."""
    page = lesson.teacher
    if page.locator("#presenter-bar").is_visible():
        page.get_by_role("button", name="Leave presenter view").click()
        return True
    return click_if_enabled(page.get_by_role("button", name="Presenter view"))


def act_advance(lesson):
    """Take the open question to its next stage: discussion, second round, reveal, asked again."""
    page = lesson.teacher
    for name in ("Discuss with your neighbour", "Second round", "Reveal", "Ask it again mirrored"):
        button = page.get_by_role("button", name=name, exact=True)
        if button.is_visible() and not button.is_disabled():
            press(button)
            return True
    return False


def act_reload(lesson):
    """Reload the instructor's page; wait until it leads its class again."""
    page = lesson.teacher
    page.reload()
    expect(page.locator("#class-note")).to_contain_text(f"You lead class {lesson.code} again")
    return True


def act_join(lesson):
    """A second student joins."""
    lesson.join()
    return True


BOTH = frozenset({"instructor", "student"})
NOBODY = frozenset()
# name: (action, whose boards' boxes it may change: the instructor's, the students')
ACTIONS = {
    "play": (act_play, NOBODY),
    "step": (act_step, NOBODY),
    "back": (act_back, NOBODY),
    "skip": (act_skip, NOBODY),
    "reset": (act_reset, NOBODY),
    "speed": (act_speed, NOBODY),
    "order": (act_order, NOBODY),
    "ask": (act_ask, NOBODY),
    # A student's page says what was asked under the board, which makes room for it.
    "exercise": (act_exercise, frozenset({"student"})),
    "race": (act_race, BOTH),
    "presenter": (act_presenter, BOTH),
    "advance": (act_advance, NOBODY),
    "reload": (act_reload, NOBODY),
    "join": (act_join, NOBODY),
}

# Combinations whose control the page hides or disables, each with why (controls.js). A cell of
# one would press nothing and check its state again: instead, one lesson a state checks that none
# of them is offered there (test_what_a_state_does_not_offer), and every cell of the table must
# press what it names.
QUESTION_OPEN = (
    "question_round1",
    "question_discussion",
    "question_round2",
    "question_mirrored",
    "presenter_question",
)
RACES = ("race_one_finished", "race_both_finished")
NOT_STARTED = ("idle", "exercise_asked", "presenter", "tournament_open")  # no run yet
WAITING = "the class's run waits where the question was asked: it is not the instructor's to drive or set up"
NOT_OFFERED = {
    **{(state, "back"): "no event to step back from yet" for state in NOT_STARTED},
    **{(state, "ask"): "no run to ask about yet" for state in NOT_STARTED},
    **{(state, "reset"): "the run has not begun" for state in NOT_STARTED},
    **{
        (state, "exercise"): "presenter view shows the class's panel without its setup"
        for state in ("presenter", "presenter_question")
    },
    ("presenter", "order"): "presenter view shows no settings",
    ("presenter", "race"): "presenter view shows no settings",
    **{(state, "ask"): "a question is open already" for state in QUESTION_OPEN},
    **{
        (state, action): WAITING
        for state in QUESTION_OPEN
        for action in ("play", "step", "skip", "reset", "order", "race")
    },
    **{(state, "back"): "a race steps back on neither board" for state in RACES},
    **{(state, "order"): "a race's orderings are named First ordering and Versus" for state in RACES},
    ("race_both_finished", "skip"): "both searches have ended",
    ("race_both_finished", "step"): "both searches have ended",
    ("skipping", "ask"): "not while skipping: the class would be asked about a board that is not shown",
    ("skipping", "back"): "not while skipping",
    ("skipping", "play"): "not while skipping (Skip again cancels it)",
    ("skipping", "step"): "not while skipping",
}

# Combinations the UI does not offer for another reason, each with why.
EXCLUDED = {
    ("race_one_finished", "ask"): "Ask is greyed in a race (a question asks of one board)",
    ("race_both_finished", "ask"): "Ask is greyed in a race (a question asks of one board)",
    ("race_one_finished", "race"): "already a race",
    ("race_both_finished", "race"): "already a race",
    **{
        (state, "advance"): "no question is open to take to its next stage"
        for state in (
            "idle",
            "playing",
            "paused",
            "race_one_finished",
            "race_both_finished",
            "skipping",
            "predict_waiting",
            "tournament_open",
            "exercise_asked",
            "presenter",
            "student_reviewing",
        )
    },
}
