"""The instructor's view, checked and passed on to the class's room."""

import pytest

from server.classes.mirror import MAX_LABEL, MAX_MARKS, check_view
from tests.support.replies import refused
from tests.support.waiting import wait_for

VIEW = {
    "link": "?mode=board&rows=6&cols=6&start=0&order=naive&seed=1&speed=30",
    "run": 3,
    "at": None,
    "panels": {"lesson": True, "lines": False, "hints": True, "degrees": False, "side": "main"},
    "marks": [{"at": 5, "label": " first backtrack "}],
    "tree": {"node": 40, "span": {"from": 12, "to": 60, "live": False}},
}


def test_a_view_is_passed_on_with_its_labels_trimmed():
    assert check_view(VIEW) == {**VIEW, "marks": [{"at": 5, "label": "first backtrack"}]}


@pytest.mark.parametrize(
    "change, error",
    [
        ({"extra": 1}, "'class_view' needs an object with link, run, at, panels, marks and tree"),
        ({"tree": None}, "tree must be an object with node and span"),
        ({"tree": {"node": -1, "span": None}}, "tree.node must be an event number"),
        ({"tree": {"node": 1.5, "span": None}}, "tree.node must be an event number"),
        ({"tree": {"node": None, "span": {"from": 3, "to": 3, "live": False}}}, "tree.span.from must come"),
        ({"tree": {"node": None, "span": {"from": 0, "to": 9, "live": 1}}}, "tree.span must be an object"),
        ({"tree": {"node": None, "span": {"from": 0, "to": 10**12, "live": True}}}, "tree.span.to must be"),
        ({"link": "x" * 401}, "link must be a page's query of at most 400 characters"),
        ({"link": 5}, "link must be a page's query"),
        ({"at": -1}, "at must be an event number from 0 to"),
        ({"at": 2.5}, "at must be an event number"),
        ({"run": 0}, "run must be a run's number, or null for none"),
        ({"run": "3"}, "run must be a run's number, or null for none"),
        ({"panels": {"lesson": True}}, "panels must be an object with lesson, lines, hints, degrees, side"),
        ({"panels": {**VIEW["panels"], "hints": 1}}, "panels.hints must be true or false"),
        ({"panels": {**VIEW["panels"], "side": "left"}}, "panels.side must be one of main, second"),
        ({"marks": [{"at": 1, "label": "x"}] * (MAX_MARKS + 1)}, f"at most {MAX_MARKS} bookmarks"),
        ({"marks": [{"at": 1, "label": "x" * (MAX_LABEL + 1)}]}, "a bookmark's label must be text of 1 to"),
        ({"marks": [{"at": 1, "label": "   "}]}, "a bookmark's label must be text of 1 to"),
        ({"marks": [{"at": 1}]}, "a bookmark is an object with at and label"),
        ({"marks": [{"at": "1", "label": "x"}]}, "a bookmark's event must be an event number"),
    ],
)
def test_a_bad_view_is_refused_saying_why(change, error):
    with pytest.raises(ValueError, match=error.replace("(", r"\(")):
        check_view({**VIEW, **change})


def test_only_the_instructor_sends_the_view_and_the_room_gets_it(live_server, connect):
    teacher, student, outsider = (connect(live_server.url) for _ in range(3))
    code = teacher.call("class_open")["code"]
    try:
        student.call("class_join", {"code": code})
        assert teacher.call("class_view", VIEW)["ok"] is True
        assert wait_for(lambda: student.named("class_view"))
        assert student.named("class_view")[0]["marks"] == [{"at": 5, "label": "first backtrack"}]
        answer = student.call("class_view", VIEW)
        assert answer == refused("class.not_leading", "you do not lead a class")
        assert outsider.call("class_view", VIEW)["ok"] is False
        # A page that joins later is welcomed with the view, and the instructor is not sent its own.
        late = connect(live_server.url)
        late.call("class_join", {"code": code})
        assert late.named("class_state")[-1]["view"]["link"] == VIEW["link"]
        assert not teacher.named("class_view")
    finally:
        teacher.call("class_end")


def test_a_view_of_no_run_sent_before_a_fast_run_that_ended_does_not_end_it_for_the_room(
    live_server, connect
):
    teacher, student = connect(live_server.url), connect(live_server.url)
    code = teacher.call("class_open")["code"]
    try:
        student.call("class_join", {"code": code})
        run = teacher.call("start", {"rows": 5, "cols": 5, "start": 0, "order": "naive", "speed": 0})["run"]
        assert wait_for(lambda: student.named("finished"), 20)
        # The page's view from before it learned of the run arrives after the run ended.
        assert teacher.call("class_view", {**VIEW, "run": None})["ok"] is True
        assert wait_for(lambda: student.named("class_view"))
        assert student.named("class_view")[-1]["run"] == run
        # Once the page has shown the run, a view of no run is its empty board (a reset).
        assert teacher.call("class_view", {**VIEW, "run": run})["ok"] is True
        assert teacher.call("class_view", {**VIEW, "run": None})["ok"] is True
        assert wait_for(lambda: len(student.named("class_view")) == 3)
        assert student.named("class_view")[-1]["run"] is None
    finally:
        teacher.call("class_end")


def test_a_view_of_no_run_sent_before_the_run_began_does_not_end_it_for_the_room(live_server, connect):
    teacher, student = connect(live_server.url), connect(live_server.url)
    code = teacher.call("class_open")["code"]
    try:
        student.call("class_join", {"code": code})
        paused = {"rows": 5, "cols": 5, "start": 0, "order": "naive", "speed": 1, "paused": True}
        run = teacher.call("start", paused)["run"]
        # The page's view from before it learned of the run arrives after the run began.
        assert teacher.call("class_view", {**VIEW, "run": None})["ok"] is True
        assert wait_for(lambda: student.named("class_view"))
        assert student.named("class_view")[-1]["run"] == run
        # Once the run is stopped, a view of no run is the instructor's empty board.
        teacher.call("stop")
        assert teacher.call("class_view", {**VIEW, "run": None})["ok"] is True
        assert wait_for(lambda: len(student.named("class_view")) == 2)
        assert student.named("class_view")[-1]["run"] is None
    finally:
        teacher.call("class_end")
