"""The crossings of a lesson: every state a lesson reaches, every action a user takes there.

Each cell brings an instructor at projector size and one student following on a laptop into a
state, takes one action (whose control must be offered there), and checks that no refusal or error
the user did not cause shows, that the Play button agrees with the status line (a greyed Ask says
why), and that the instructor's board and the student's keep their boxes (within 4 px) unless the
action is one that may move that page's. The actions a state does not offer (NOT_OFFERED, each
with why) are checked once a state instead: none of their controls is offered there, and the same
holds.

The table shares one server, and the instructor's page and the student's, each in a browser of its
own whose cache makes a cell's page loads quick; each cell loads them, starts a class of its own
and ends it.
"""

import re

import pytest
from playwright.sync_api import expect

from server.classes.registry import classes
from tests.conftest import new_app
from tests.support.clients import RecordingClient
from tests.support.crossings import (
    ACTIONS,
    EXCLUDED,
    NOBODY,
    NOT_OFFERED,
    STATES,
    box,
    refusals_and_mismatches,
)
from tests.support.page import FOLLOWING, READY, end_class, rendered
from tests.support.servers import LiveServer
from tests.support.waiting import wait_for

SLACK = 4  # pixels the board's box may move by
PROJECTOR = {"width": 1920, "height": 1080}  # the instructor's
LAPTOP = {"width": 1280, "height": 800}  # each student's
LESSON = "/?rows=5&cols=5&start=a5&order=naive&speed=1"
SIZE = "() => [knightsTour.model.rows, knightsTour.model.cols]"


@pytest.fixture(scope="module")
def hall():
    """Serve one app for the whole table."""
    # Each cell ends its class itself: a reload is never raced by the reaper, which on a busy
    # machine the tests' two seconds of an instructor's absence would be.
    server = LiveServer(new_app({"CLASS_ORPHAN_SECONDS": 600}))
    # The server's own threads (Engine.IO's service task) start with its first connection: here,
    # not in the first cell, whose leak check would count them as its own.
    RecordingClient(server.url).close()
    yield server
    server.close()


class Watched:
    """A page kept for the whole table, in a browser of its own, whose errors go to the cell's list."""

    def __init__(self, browser, who):
        self.context = browser.new_context(viewport=PROJECTOR if who == "instructor" else LAPTOP)
        self.page = self.context.new_page()
        self.problems = []
        self.page.on("pageerror", lambda exc: self.problems.append(f"{who} page error: {exc.stack}"))
        self.page.on(
            "console", lambda msg: msg.type == "error" and self.problems.append(f"{who} console: {msg.text}")
        )


@pytest.fixture(scope="module")
def seats(browser):
    """Return the instructor's page and the student's, kept for the whole table: each cell loads
    them again, from their browsers' caches."""
    made = {who: Watched(browser, who) for who in ("instructor", "student 1")}
    yield made
    for seat in made.values():
        seat.context.close()


class Lesson:
    """An instructor's page leading a class and the pages of the students following it, each
    watched for errors."""

    def __init__(self, hall, seats, browser):
        self.hall, self.seats, self.browser = hall, seats, browser
        self.contexts, self.students = [], []
        for seat in seats.values():
            seat.problems.clear()
        self.teacher = self.open(seats["instructor"].page, LESSON, READY)
        self.teacher.get_by_role("button", name="Start a class").click()
        expect(self.teacher.locator("#lead-code")).to_have_text(re.compile(r"^[A-Z2-9]{7}$"))
        self.code = self.teacher.locator("#lead-code").inner_text()
        self.students.append(self.open(seats["student 1"].page, f"/?class={self.code}", FOLLOWING))

    @property
    def student(self):
        return self.students[0]

    @property
    def problems(self):
        """Return the errors every page of the lesson has reported."""
        return [problem for seat in [*self.seats.values(), *self.contexts] for problem in seat.problems]

    def open(self, page, path, until):
        """Load path in page, once until holds there."""
        page.goto(self.hall.url + path)
        page.wait_for_function(until)
        return page

    def caught_up(self):
        """Wait until each student's board is the instructor's size, drawn: a state that changes
        the board reaches the students through the server, after the instructor's page."""
        size = self.teacher.evaluate(SIZE)
        for page in self.students:
            page.wait_for_function(f"(size) => ({SIZE})().join() === size.join()", arg=size)
            rendered(page, frames=2)

    def join(self):
        """Open one more student following the class, in a browser of its own."""
        seat = Watched(self.browser, f"student {len(self.students) + 1}")
        self.contexts.append(seat)
        self.students.append(self.open(seat.page, f"/?class={self.code}", FOLLOWING))
        return self.students[-1]

    def close(self):
        """End the class, leave the kept pages blank, and forget what their browsers stored of it."""
        end_class(self.teacher)
        # Ended by the server before the page goes: no cell leaves its class for the reaper.
        expect(self.teacher.locator("#class-open")).to_be_visible()
        for seat in self.seats.values():
            seat.page.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")
            seat.page.goto("about:blank")
        for seat in self.contexts:
            seat.context.close()
        assert wait_for(lambda: not classes(self.hall.app) and not self.hall.active_runs(), 10), (
            "the class or a run outlived the lesson"
        )


@pytest.fixture
def lesson(hall, seats, browser):
    """Start a class at projector size with one student following; end it after the cell."""
    made = Lesson(hall, seats, browser)
    yield made
    made.close()


def cells():
    """Yield each (state, action) of the table, those the UI does not offer left out."""
    for state in STATES:
        for action in ACTIONS:
            if (state, action) not in EXCLUDED and (state, action) not in NOT_OFFERED:
                yield pytest.param(state, action, id=f"{state}-{action}")


def moved(before, after):
    """Return whether a board's box moved by more than SLACK (or went)."""
    return after is None or any(abs(after[k] - before[k]) > SLACK for k in ("x", "y", "width", "height"))


def entered(lesson, state):
    """Bring the lesson into state; return the instructor's board's box and the student's, drawn."""
    STATES[state](lesson)
    rendered(lesson.teacher, frames=2)
    lesson.caught_up()
    return box(lesson.teacher), box(lesson.student)


def problems_after(lesson, before, before_student, may_move):
    """Return what is wrong once every page has settled: errors and refusals nobody caused, Play
    disagreeing with the status line, a greyed Ask that says nothing of why, and a board that
    moved (unless its page is in may_move: "instructor", "student")."""
    for page in [lesson.teacher, *lesson.students]:
        page.wait_for_load_state()
        rendered(page, frames=2)
    # The server has answered all the action asked of it (a refusal would show by now).
    for page in [lesson.teacher, *lesson.students]:
        page.wait_for_function("() => knightsTour.unanswered === 0")
        rendered(page, frames=2)
    found = list(lesson.problems)
    for who, page in [("instructor", lesson.teacher)] + [
        (f"student {i + 1}", s) for i, s in enumerate(lesson.students)
    ]:
        found += [f"{who}: {text}" for text in refusals_and_mismatches(page)]
    ask, why = lesson.teacher.locator("#poll-ask"), lesson.teacher.locator("#poll-why")
    if ask.is_visible() and ask.is_disabled() and not why.inner_text().strip():
        found.append("instructor: Ask is greyed and says nothing of why")
    boards = (("instructor", before, lesson.teacher), ("student", before_student, lesson.student))
    for who, was, page in boards:
        if who not in may_move and was is not None and moved(was, box(page)):
            found.append(f"{who}'s board moved from {was} to {box(page)}")
    return found


@pytest.mark.parametrize(("state", "action"), list(cells()))
def test_crossing(state, action, lesson):
    before, before_student = entered(lesson, state)
    act, may_move = ACTIONS[action]
    assert act(lesson), f"{action} found its control hidden or disabled in {state}: is it NOT_OFFERED there?"
    found = problems_after(lesson, before, before_student, may_move)
    assert not found, "\n".join(found)


@pytest.mark.parametrize("state", sorted({state for state, _ in NOT_OFFERED}))
def test_what_a_state_does_not_offer(state, lesson):
    before, before_student = entered(lesson, state)
    offered = [action for (where, action) in NOT_OFFERED if where == state and ACTIONS[action][0](lesson)]
    assert offered == [], f"{state} offers what it should not: {offered}"
    found = problems_after(lesson, before, before_student, may_move=NOBODY)
    assert not found, "\n".join(found)
