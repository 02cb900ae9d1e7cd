"""The page checked by axe-core on every state a user meets, at phone and projector sizes, in both
languages: no violation of the WCAG 2.1 A and AA rules.

axe-core comes from npm (package.json's devDependencies, pinned) and is put into the page by the
test alone (tests/support/axe.py): the app never serves it.
"""

import re

import pytest
from playwright.sync_api import expect

from server.classes.registry import classes
from tests.support.axe import clean, violations
from tests.support.page import FASTEST, FOLLOWING, end_class, open_tournament, start_class, step_events
from tests.support.waiting import wait_for

SIZES = {"phone": {"width": 390, "height": 844}, "projector": {"width": 1920, "height": 1080}}
CASES = [(size, language) for size in SIZES for language in ("en", "zh")]


def finish(page):
    page.locator("#speed").fill(FASTEST)
    page.locator("#play").click()
    page.wait_for_function("() => knightsTour.state === 'finished'", timeout=30_000)


@pytest.mark.parametrize("size, language", CASES)
def test_a_students_own_search_from_start_to_finish(open_page, size, language):
    page = open_page(f"/?rows=5&cols=5&order=naive&speed=60&lang={language}", viewport=SIZES[size])
    clean(page, "the start")
    step_events(page, 12)
    clean(page, "mid-search")
    step_events(page, 1)  # the naive search's 13th event from a5 is its first backtrack
    page.wait_for_function("() => knightsTour.model.path.length === 11")
    clean(page, "after a backtrack")
    finish(page)
    clean(page, "finished")


@pytest.mark.parametrize("size, language", CASES)
def test_the_race_the_example_graph_predict_mode_and_the_orderings_lab(open_page, size, language):
    page = open_page(
        f"/?mode=race&rows=6&cols=6&order=pohl&versus=warnsdorff&lang={language}", viewport=SIZES[size]
    )
    finish(page)
    clean(page, "the race")
    page = open_page(f"/?mode=example&lang={language}", viewport=SIZES[size])
    step_events(page, 3)
    clean(page, "the example graph")
    page = open_page(f"/?rows=5&cols=5&order=warnsdorff&lang={language}", viewport=SIZES[size])
    page.locator("#predict-on").check()
    page.locator("#play").click()
    page.wait_for_function("() => knightsTour.store.predict.asking")
    clean(page, "predict mode, asking")
    page = open_page(f"/?rows=6&cols=6&order=onward,-corner&lang={language}", viewport=SIZES[size])
    page.locator("#composer summary").click()
    page.locator("#strip summary").click()
    page.locator("#strip-to").fill("12")
    page.locator("#strip-to").dispatch_event("change")
    page.locator("#strip-run").click()
    page.wait_for_function("() => knightsTour.store.strip.id !== null && !knightsTour.store.strip.running")
    clean(page, "the orderings lab: the composer and a strip")


# The instructor's page has the count of one answer to the question, in the round (stage) given.
COUNTED = "(stage) => knightsTour.store.poll.open?.stage === stage && knightsTour.store.poll.answered === 1"


# Each case loads Python afresh (a browser of its own): the two sizes and the two languages in pairs.
@pytest.mark.parametrize("size, language", [("phone", "zh"), ("projector", "en")])
def test_the_code_lab_loading_ready_playing_and_with_each_kind_of_verdict(open_page, size, language):
    page = open_page(f"/?code=book&rows=5&cols=5&speed=5&lang={language}", viewport=SIZES[size])
    clean(page, "the lab loading Python")
    page.wait_for_function("() => knightsTour.store.lab.status === 'ready'", timeout=90_000)
    clean(page, "the lab ready")
    step_events(page, 3)
    clean(page, "the student's code mid-search, its line lit")
    page.locator("#reset").click()
    page.locator("#lab-code").fill("def main(rows, cols, start)\n    return True\n")
    page.locator("#play").click()
    page.wait_for_function("() => knightsTour.store.lab.result !== null", timeout=30_000)
    clean(page, "a mistake named on its line")
    page.locator("#lab-code").fill("def main(rows, cols, start):\n    yield visit(0)\n    print('here')\n")
    page.locator("#play").click()
    page.wait_for_function("() => knightsTour.store.lab.result?.output?.length === 1", timeout=30_000)
    page.locator("#lab-printed summary").click()
    clean(page, "a search parting from the textbook's, with what it printed")


@pytest.mark.parametrize("size, language", CASES)
def test_a_class_its_question_both_ways_and_the_presenter_view(open_page, site, size, language):
    leader = open_page(f"/?rows=5&cols=5&order=naive&speed=1&lang={language}", viewport=SIZES["projector"])
    code = start_class(leader)
    student = open_page(f"/?class={code}&lang={language}", until=FOLLOWING, viewport=SIZES[size])
    step_events(leader, 2)
    student.wait_for_function("() => knightsTour.model.events === 2")
    clean(student, "a student following")
    leader.locator("#poll-ask").click()
    expect(student.locator("#poll")).to_have_attribute("data-open", "true")
    clean(student, "a question open, on a student's page")
    clean(leader, "a question open, on the instructor's page")
    student.locator("#poll-square").fill("c4")
    student.locator("#poll-square").press("Enter")
    leader.wait_for_function(COUNTED, arg="first")  # the answer is in before the instructor moves on
    leader.locator("#poll-reveal").click()
    expect(student.locator("#poll")).not_to_have_attribute("data-open", "true")
    clean(student, "a question revealed, on a student's page")
    # Two rounds, each answer saying how sure: round 1, the discussion, round 2 and the reveal.
    leader.locator("#poll-peer").check()
    leader.locator("#poll-confidence").check()
    leader.locator("#poll-ask").click()
    expect(student.locator("#poll-sure")).to_be_visible()
    clean(student, "round 1 of two, asking how sure, on a student's page")
    student.locator("#poll-sure input[value=true]").check()
    student.locator("#poll-square").fill("c4")
    student.locator("#poll-square").press("Enter")
    leader.wait_for_function(COUNTED, arg="first")  # the answer is in before the instructor moves on
    leader.locator("#poll-discuss").click()
    expect(student.locator("#poll")).to_have_attribute("data-stage", "discuss")
    clean(student, "the discussion, on a student's page")
    clean(leader, "the discussion, on the instructor's page")
    leader.locator("#poll-second").click()
    expect(student.locator("#poll")).to_have_attribute("data-stage", "second")
    clean(student, "round 2, on a student's page")
    student.locator("#poll-square").fill("b3")
    student.locator("#poll-square").press("Enter")
    leader.wait_for_function(COUNTED, arg="second")  # the answer is in before the instructor moves on
    leader.locator("#poll-reveal").click()
    expect(leader.locator("#poll-shift")).to_be_visible()
    clean(student, "two rounds revealed, on a student's page")
    clean(leader, "two rounds revealed, on the instructor's page")
    # The same question asked again mirrored, with a soft timer running.
    leader.locator("#poll-peer").uncheck()
    leader.locator("#poll-mirror").click()
    expect(student.locator("#poll")).to_have_attribute("data-open", "true")
    leader.locator("#poll-clock-start").click()
    expect(student.locator("#poll-clock")).not_to_be_empty()
    clean(student, "a question asked again mirrored, a soft timer running, on a student's page")
    clean(leader, "a question asked again mirrored, a soft timer running, on the instructor's page")
    leader.locator("#poll-reveal").click()
    expect(student.locator("#poll")).not_to_have_attribute("data-open", "true")
    clean(student, "a question asked again mirrored, revealed, on a student's page")
    # The class tournament: the instructor's tools and standings, a student's entry, rank and boards.
    open_tournament(leader, largest=7)
    expect(student.locator("#tournament")).to_have_attribute("open", "")
    student.locator("#tournament-name").fill("Ada")
    student.locator("#tournament-enter").click()
    expect(student.locator("#tournament-cells .cell-waiting")).to_have_count(0)
    expect(leader.locator("#tournament-rows tr")).to_have_count(1)
    clean(student, "the tournament, on a student's page")
    clean(leader, "the tournament, on the instructor's page")
    leader.locator("#presenter").click()
    leader.wait_for_function("() => document.body.dataset.presenter === 'true'")
    clean(leader, "the presenter view, a turned question revealed, the tournament's standings")
    end_class(leader)
    assert wait_for(lambda: len(classes(site.app)) == 0, 5), "the class outlived its end"


@pytest.mark.parametrize("controls", ["none", "minimal", "full"])
@pytest.mark.parametrize("size, language", CASES)
def test_the_embed(open_page, size, language, controls):
    page = open_page(
        f"/embed?rows=5&cols=5&order=warnsdorff&controls={controls}&lang={language}",
        until="() => document.readyState === 'complete' && window.knightsTour",
        viewport=SIZES[size],
    )
    page.wait_for_function("() => knightsTour.store.connection === 'up'")
    clean(page, f"the embed, controls {controls}")


def test_the_check_finds_a_violation_when_there_is_one(open_page):
    # The check itself: a field stripped of its label is a violation axe reports.
    page = open_page("/")
    page.evaluate("() => document.querySelector('label[for=rows]').remove()")
    assert any(re.search("label", each["rule"]) for each in violations(page))
