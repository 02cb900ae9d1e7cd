"""The engine's orderings against the golden vectors that the page's twin is checked against."""

import json

from tests.support.golden import FIXTURE, vectors


def test_the_golden_vectors_are_the_engines_own():
    # If this fails after a change to the engine, rewrite them: python -m tests.support.golden
    assert json.loads(FIXTURE.read_text(encoding="utf-8")) == vectors()


def test_the_golden_vectors_cover_every_ordering_and_every_board():
    golden = json.loads(FIXTURE.read_text(encoding="utf-8"))
    cases = golden["orderings"]
    assert {case["order"] for case in cases} == {"naive", "warnsdorff", "warnsdorff-roth", "random"}
    boards = {f"{case['rows']}x{case['cols']}" for case in cases}
    assert boards == set(golden["moves"]) and len(boards) >= 5
    assert any(len(case["tries"]) >= 2 and case["tries"] != sorted(case["tries"]) for case in cases)
