"""A class's code exercise in real browsers: the instructor asks for one on the projector, a
student's page checks the student's own code in its code lab and sends only the verdict, and the
instructor's page tallies it, shades where the class parted from the textbook's search, and
downloads the verdicts; the student shows the instructor their code, under a number; at a laptop
and a phone, in both languages, with axe on each state."""

import pytest
from playwright.sync_api import expect

from server.classes.registry import classes
from server.codelab.exercises import BOOK
from tests.support.axe import clean
from tests.support.page import FOLLOWING, end_class, start_class
from tests.support.waiting import wait_for

PROJECTOR = {"width": 1920, "height": 1080}
STUDENTS = {"laptop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
PYTHON_MS = 90_000  # Pyodide's first load, on a machine busy with the rest of the suite
CHECKED = "() => knightsTour.store.lab.result !== null && !knightsTour.store.lab.checking"
# The naive exercise's answer: the lowest square first, as the third edition sorts them.
NAIVE = BOOK.replace(
    "nbrList = list(u.getConnections())", "nbrList = sorted(u.getConnections(), key=lambda v: v.getId())"
)
WORDS = {
    "en": {
        "asked": "Your instructor asks for code",
        "parted": "At event 5 you visited b4",
        "sent": "Your verdict went",
        "shown": "under a number",
    },
    "zh": {
        "asked": "你的老师布置了代码练习",
        "parted": "b4",
        "sent": "你的结果已发送给老师",
        "shown": "只显示编号",
    },
}


def watched(page, problems):
    """Fail the test on any error page reports."""
    page.on("pageerror", lambda exc: problems.append(f"page error: {exc}"))
    page.on("console", lambda msg: msg.type == "error" and problems.append(f"console: {msg.text}"))
    return page


def tally(leader):
    return leader.evaluate("() => knightsTour.store.exercise.tally")


@pytest.mark.parametrize("size, language", [("laptop", "en"), ("phone", "zh")])
def test_a_student_checks_their_code_and_the_instructor_sees_the_verdicts_naming_nobody(
    open_page, site, size, language
):
    problems = []
    leader = watched(
        open_page(f"/?rows=5&cols=5&start=a5&order=naive&speed=1&lang={language}", viewport=PROJECTOR),
        problems,
    )
    code = start_class(leader)
    student = watched(
        open_page(f"/?class={code}&lang={language}", until=FOLLOWING, viewport=STUDENTS[size]), problems
    )
    expect(student.locator("#exercise-follow")).to_be_hidden()
    leader.locator("#exercise-choice").select_option("naive")
    leader.locator("#exercise-ask").click()
    expect(student.locator("#exercise-asked")).to_contain_text(WORDS[language]["asked"])
    # Under the board, on the student's first screen, a phone's too: not in the class's panel below.
    follow = student.locator("#exercise-follow").bounding_box()
    assert follow["y"] + follow["height"] <= STUDENTS[size]["height"], f"the exercise is asked at {follow}"
    clean(leader, "an exercise asked, on the instructor's page")
    clean(student, "an exercise asked, on a student's page")
    # The student opens it in the lab; the board still follows the class's run.
    student.locator("#exercise-go").click()
    student.wait_for_function("() => knightsTour.store.lab.status === 'ready'", timeout=PYTHON_MS)
    expect(student.locator("#lab-check")).to_be_visible()
    clean(student, "the code lab on the class's exercise")
    # The book's code as printed tries the moves in genLegalMoves' order: it parts from the naive
    # search at its 5th event, visiting b4 (square 6) where the naive search visits c5 (2).
    student.locator("#lab-check").click()
    student.wait_for_function(CHECKED, timeout=60_000)
    expect(student.locator("#lab-verdict")).to_contain_text(WORDS[language]["parted"])
    expect(student.locator("#exercise-asked")).to_contain_text(WORDS[language]["sent"])
    assert student.evaluate("() => knightsTour.model.events") == 0, (
        "the check played nothing on the class's board"
    )
    leader.wait_for_function("() => knightsTour.store.exercise.tally?.sent === 1")
    assert {key: tally(leader)[key] for key in ("matched", "differ", "stopped", "heat")} == {
        "matched": 0,
        "differ": 1,
        "stopped": 0,
        "heat": [[6, 1]],
    }
    assert leader.evaluate("() => knightsTour.overlay().answers.heat") == [[6, 1]], "b4 is shaded"
    clean(leader, "a verdict tallied, its square shaded")
    # The student puts it right and checks again at once: the verdict goes in its turn, a few
    # seconds after the last, and takes the place of the first.
    student.locator("#lab-code").fill(NAIVE)
    student.locator("#lab-check").click()
    student.wait_for_function(CHECKED, timeout=60_000)
    leader.wait_for_function("() => knightsTour.store.exercise.tally?.matched === 1", timeout=15_000)
    assert tally(leader)["sent"] == 1 and tally(leader)["heat"] == []
    with leader.expect_download() as downloaded:
        leader.locator("#exercise-results").click()
    rows = open(downloaded.value.path(), encoding="utf-8").read().splitlines()
    assert rows == [
        "exercise,rows,cols,start,matched,events,parted_at_event,square,problem",
        "naive,5,5,a5,yes,9996,,,",
    ]
    # The projector's page, reloaded, has the tally back at once, with no verdict since.
    leader.reload()
    leader.wait_for_function(
        "() => knightsTour.store.klass.led && knightsTour.store.exercise.tally?.matched === 1"
    )
    assert leader.evaluate("() => knightsTour.store.exercise.tally.sent") == 1
    expect(leader.locator("#exercise-results")).to_be_visible()
    # The student shows the instructor their code: it comes under a number, and opens in the
    # instructor's own code lab, to read on the projector or check there.
    student.locator("#lab-show").click()
    expect(student.locator("#exercise-asked")).to_contain_text(WORDS[language]["shown"])
    leader.locator("#exercise-codes button").click()
    leader.wait_for_function(
        "(code) => knightsTour.store.lab.open && knightsTour.store.lab.code === code", arg=NAIVE
    )
    clean(leader, "a student's code shown to the instructor, in the instructor's code lab")
    # Reloaded again, the projector's page lists the code shown at once, with none shown since.
    leader.reload()
    leader.wait_for_function("() => knightsTour.store.klass.led")
    expect(leader.locator("#exercise-codes button")).to_have_count(1)
    leader.locator("#exercise-codes button").click()
    leader.wait_for_function(
        "(code) => knightsTour.store.lab.open && knightsTour.store.lab.code === code", arg=NAIVE
    )
    # Closed: the student's page says nothing more of it, and has no Check.
    leader.locator("#exercise-close").click()
    expect(student.locator("#exercise-follow")).to_be_hidden()
    expect(student.locator("#lab-check")).to_be_hidden()
    end_class(leader)
    assert wait_for(lambda: len(classes(site.app)) == 0, 5), "the class outlived its end"
    assert problems == []
