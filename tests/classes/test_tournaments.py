"""A class's tournament: students' orderings searched on the same boards, in turns, each board's
end as the engine gives it one board at a time; the room told the standings' news; every bad or
unwanted request refused saying why."""

import pytest

from server.classes.registry import classes
from server.classes.tournament.checks import TournamentRules, check_name, parse_tournament
from server.classes.tournament.slot import contest
from server.classes.tournament.tournaments import MAX_ENTRIES, Tournament, entry_id
from server.engine.survey import cell
from server.replies import Refusal
from tests.support.tournament import standings
from tests.support.waiting import wait_for

RULES = {"smallest": 5, "largest": 8, "budget": 2_000}
CODES = {"clean": "c", "backtracked": "b", "stopped": "s", "none": "n"}


def expected(order, rules=RULES, start="corner"):
    """Return an entry's outcomes and backtracks, board by board, as the engine gives them one at a time."""
    boards = TournamentRules(rules["smallest"], rules["largest"], rules["budget"], start).boards()
    ends = [cell(n, n, square, order, 0, rules["budget"]) for n, square in boards]
    return "".join(CODES[end["outcome"]] for end in ends), [end["backtracks"] for end in ends]


class Standings:
    """A page's view of the tournament, from its 'tournament' and 'tournament_news' events."""

    def __init__(self, person):
        self.person = person

    def now(self):
        """Return the tournament as a page that took every event would show it: {id: row}, open."""
        return standings(self.person.received())

    def finished(self, n):
        """Tell whether n entries are there, every board of each searched."""
        entries, _ = self.now()
        return len(entries) == n and all("." not in row["outcomes"] for row in entries.values())


def refused(person, event, data, code, words):
    answer = person.call(event, data)
    assert answer["ok"] is False and answer["code"] == code and words in answer["error"], answer
    assert person.named("error")[-1]["code"] == code


def classroom(people, n):
    teacher = people()
    code = teacher.call("class_open")["code"]
    students = [people() for _ in range(n)]
    joined = [student.call("class_join", {"code": code}) for student in students]
    return teacher, students, joined


# The model, on its own.


def test_an_entry_id_is_its_voters_alone_and_tells_nothing_of_it():
    assert entry_id("18c-abc") == entry_id("18c-abc") != entry_id("18c-abd")
    assert len(entry_id("x")) == 12 and "18c" not in entry_id("18c-abc")


@pytest.mark.parametrize(
    "name, tidy",
    [
        (None, None),
        ("", None),
        ("   ", None),
        (" Ada  L. ", "Ada L."),
        ("张三", "张三"),
        ("knight_99", "knight_99"),
        ("O'Neil-2", "O'Neil-2"),
    ],
)
def test_a_nickname_is_tidied(name, tidy):
    assert check_name(name) == tidy


@pytest.mark.parametrize("name", ["<b>hi</b>", "x" * 25, "-dash", "nul\x00", "a\u202eb", 7, ["a"], "_x"])
def test_a_bad_nickname_is_refused(name):
    with pytest.raises(Refusal) as refusal:
        check_name(name)
    assert refusal.value.code == "tournament.bad_name"


def test_boards_are_searched_one_entry_after_another():
    tournament = Tournament(1, TournamentRules(5, 7, 100))
    for voter in "abc":
        tournament.enter(voter, "naive", None)
    taken = [tournament.take() for _ in range(9)]
    assert [(key[0].id, key[1]) for key, _ in taken] == [(v, i) for i in range(3) for v in "abc"]
    assert taken[0][1] == (5, 5, 0, "naive", 0, 100) and tournament.take() is None


def test_a_replaced_entry_is_searched_afresh_and_its_old_boards_let_be():
    tournament = Tournament(1, TournamentRules(5, 6, 100))
    tournament.enter("a", "naive", "Ann", submitted=1)
    old = tournament.take()
    tournament.enter("a", "warnsdorff", "Ann")
    assert tournament.record(old[0], {"outcome": "clean", "backtracks": 0}) is False
    key, job = tournament.take()
    assert (key[0].order, key[1], job[3]) == ("warnsdorff", 0, "warnsdorff")
    assert tournament.record(key, {"outcome": "clean", "backtracks": 0}) is True
    news = tournament.news()
    assert [row["outcomes"] for row in news["entries"]] == ["c."] and news["cells"] == []
    tournament.record(tournament.take()[0], {"outcome": "stopped", "backtracks": 100})
    assert tournament.news() == {
        "tournament": 1,
        "open": True,
        "entries": [],
        "cells": [["a", 1, "s", 100]],
        "removed": [],
    }


def test_entries_stop_at_the_closing_at_the_limit_and_between_two_of_one_student():
    tournament = Tournament(1, TournamentRules(5, 5, 10))
    for i in range(MAX_ENTRIES):
        tournament.enter(f"v{i}", "naive", None)
    with pytest.raises(Refusal, match="as many as it takes"):
        tournament.enter("one more", "naive", None)
    with pytest.raises(Refusal, match="a moment ago"):
        tournament.enter("v0", "warnsdorff", None)
    tournament.close()
    with pytest.raises(Refusal, match="not taking entries"):
        tournament.enter("v1", "warnsdorff", None, submitted=0)


BAD_RULES = [
    (None, "needs smallest and largest"),
    ({"largest": 8}, "smallest must be a whole number from 1 to 100"),
    ({"smallest": 8, "largest": 5}, "largest must be a whole number from 8 to 100"),
    ({"smallest": 5, "largest": 101}, "from 5 to 100"),
    ({"smallest": 5, "largest": 8, "budget": 0}, "budget must be a whole number from 1 to 100000"),
    ({"smallest": 5, "largest": 8, "start": "edge"}, "start must be one of corner, centre"),
    ({"smallest": 1, "largest": 100, "budget": 100_000}, "100 boards of 100000 backtracks each is more"),
]


@pytest.mark.parametrize("data, words", BAD_RULES)
def test_bad_rules_are_refused_saying_why(data, words):
    with pytest.raises(ValueError, match=words):
        parse_tournament(data)


def test_from_the_centre_each_board_starts_at_its_middle_square():
    assert TournamentRules(5, 6, 10, "centre").boards() == [(5, 12), (6, 21)]


# Over a real server.


def test_every_entry_is_searched_on_every_board_as_the_engine_searches_it(people, live_server):
    teacher, students, joined = classroom(people, 3)
    opened = teacher.call("tournament_open", RULES)
    assert opened["ok"] is True and opened["entries"] == [] and opened["open"] is True
    assert wait_for(lambda: all(s.named("tournament") for s in students)), "the room is told"
    orders = ["naive", "warnsdorff", "onward,-centre"]
    names = ["Ann", None, "Bo"]
    titles = [None, None, "Roth's tie  break"]  # the name Bo gave the ordering, for all to read
    for student, join, order, name, title in zip(students, joined, orders, names, titles, strict=True):
        answer = student.call("tournament_enter", {"order": order, "name": name, "title": title})
        assert answer == {"ok": True, "entry": join["entry"]}, "the id its page was given as it joined"
    views = [Standings(person) for person in (teacher, *students)]
    assert wait_for(lambda: all(view.finished(3) for view in views), timeout=20)
    for view in views:
        entries, still_open = view.now()
        assert still_open is True
        for join, order, name, title in zip(joined, orders, names, titles, strict=True):
            row = entries[join["entry"]]
            assert (row["order"], row["name"], row["hidden"]) == (order, name, False)
            assert row["title"] == (title and " ".join(title.split()))
            assert (row["outcomes"], row["backtracks"]) == expected(order)


def test_the_instructor_hides_a_nickname_and_closes_the_entries(people, live_server):
    teacher, (ann, bo), (ann_join, _) = classroom(people, 2)
    teacher.call("tournament_open", RULES)
    ann.call("tournament_enter", {"order": "onward,-centre", "name": "Rude word", "title": "Ruder word"})
    assert teacher.call("tournament_hide", {"entry": ann_join["entry"]}) == {"ok": True}
    hidden = lambda person: Standings(person).now()[0].get(ann_join["entry"], {})  # noqa: E731
    assert wait_for(lambda: hidden(bo).get("hidden") is True)
    assert (
        hidden(bo)["name"] is None and hidden(bo)["title"] is None and hidden(bo)["order"] == "onward,-centre"
    )
    assert teacher.call("tournament_close") == {"ok": True}
    assert wait_for(lambda: Standings(bo).now()[1] is False)
    refused(bo, "tournament_enter", {"order": "naive"}, "tournament.closed", "not taking entries")
    # A late joiner is told the tournament as it is.
    late = people()
    late.call("class_join", {"code": ann.named("class_state")[0]["code"]})
    assert wait_for(lambda: Standings(late).now()[0].get(ann_join["entry"], {}).get("hidden") is True)
    assert Standings(late).now()[1] is False


def test_who_may_do_what_and_bad_requests(people, live_server):
    teacher, (student,), _ = classroom(people, 1)
    refused(student, "tournament_enter", {"order": "naive"}, "tournament.none", "has no tournament")
    refused(teacher, "tournament_close", None, "tournament.none", "has no tournament")
    refused(student, "tournament_open", RULES, "class.not_leading", "do not lead a class")
    refused(teacher, "tournament_enter", {"order": "naive"}, "class.not_following", "not following a class")
    teacher.call("tournament_open", RULES)
    refused(teacher, "tournament_open", RULES, "tournament.open_already", "close it first")
    refused(student, "tournament_enter", {"order": "__import__('os')"}, "request.invalid", "unknown order")
    refused(
        student,
        "tournament_enter",
        {"order": ",".join(["onward"] * 2000)},
        "request.invalid",
        "at most 8 keys",
    )
    refused(
        student, "tournament_enter", {"order": "naive", "name": "<script>"}, "tournament.bad_name", "nickname"
    )
    for title in ("<b>Away</b>", "x" * 25, 7):
        refused(
            student,
            "tournament_enter",
            {"order": "naive", "title": title},
            "tournament.bad_title",
            "ordering's name",
        )
    refused(student, "tournament_enter", "naive", "request.invalid", "needs an object with order")
    refused(teacher, "tournament_hide", {"entry": "nobody"}, "tournament.no_entry", "no entry with that id")
    refused(
        teacher, "tournament_hide", {"entry": "x", "hidden": "yes"}, "request.invalid", "hidden true or false"
    )
    no_id = "needs an object with an entry's id"
    refused(teacher, "tournament_hide", {"entry": []}, "request.invalid", no_id)
    refused(teacher, "tournament_hide", ["x"], "request.invalid", no_id)
    assert student.call("tournament_enter", {"order": "naive"})["ok"] is True
    refused(student, "tournament_enter", {"order": "pohl"}, "tournament.too_soon", "a moment ago")


def test_a_tournament_comes_back_with_its_instructor_after_a_restart(people, live_server):
    teacher, (student,), (join,) = classroom(people, 1)
    first = teacher.call("tournament_open", {**RULES, "start": "centre"})
    student.call("tournament_enter", {"order": "warnsdorff", "name": "Ann"})
    teacher.call("tournament_hide", {"entry": join["entry"]})
    assert wait_for(lambda: Standings(teacher).finished(1))
    kept, _ = Standings(teacher).now()
    # What the instructor's page keeps, brought to a class that has no tournament (as after a restart).
    again = people()
    again.call("class_open")
    rows = [
        {key: row[key] for key in ("id", "order", "name", "title", "submitted", "hidden")}
        for row in kept.values()
    ]
    restore = {"tournament": first["tournament"], "open": False, "entries": rows}
    answer = again.call("tournament_open", {**RULES, "start": "centre", "restore": restore})
    assert answer["ok"] is True and answer["open"] is False and answer["start"] == "centre"
    assert wait_for(lambda: Standings(again).finished(1))
    back, still_open = Standings(again).now()
    assert still_open is False
    row = back[join["entry"]]
    assert row["hidden"] is True and row["submitted"] == kept[join["entry"]]["submitted"]
    assert (row["outcomes"], row["backtracks"]) == expected("warnsdorff", start="centre")
    refused(
        again, "tournament_open", {**RULES, "restore": restore}, "tournament.open_already", "close it first"
    )


@pytest.mark.parametrize(
    "restore, words",
    [
        ("all", "restore needs the tournament's number"),
        ({"tournament": 1, "entries": "x"}, "entries must be a list"),
        ({"tournament": 1, "entries": [{"id": "../../etc"}]}, "needs the id of an entry"),
        (
            {"tournament": 1, "entries": [{"id": "0123456789ab", "order": "naive", "submitted": -1}]},
            "a millisecond",
        ),
        (
            {"tournament": 1, "entries": [{"id": "0123456789ab", "order": "exec", "submitted": 1}]},
            "unknown order",
        ),
    ],
)
def test_a_bad_restore_is_refused(people, restore, words):
    teacher = people()
    teacher.call("class_open")
    refused(teacher, "tournament_open", {**RULES, "restore": restore}, "request.invalid", words)


def test_ending_the_class_stops_its_search(people, live_server):
    teacher, (student,), _ = classroom(people, 1)
    teacher.call("tournament_open", {"smallest": 30, "largest": 100, "budget": 10_000})
    student.call("tournament_enter", {"order": "naive"})
    feed = contest(classes(live_server.app).led_by(teacher.sid)).feed
    assert teacher.call("class_end")["ok"] is True
    assert feed.stopped


def test_the_helpers_search_it_and_a_students_own_strip_is_not_kept_waiting(serve, connect):
    server = serve({"SEARCH_PROCESSES": 2})
    teacher = connect(server.url)
    code = teacher.call("class_open")["code"]
    students = [connect(server.url) for _ in range(6)]
    for student in students:
        student.call("class_join", {"code": code})
    teacher.call("tournament_open", {"smallest": 20, "largest": 99, "budget": 10_000})
    for student in students:
        assert student.call("tournament_enter", {"order": "naive"})["ok"] is True
    total = len(students) * 80
    done = lambda: sum(len(news["cells"]) for news in teacher.named("tournament_news"))  # noqa: E731
    assert wait_for(lambda: done() >= 2, 20), "the helpers search the tournament's boards"
    # Someone else's strip, in its own line at the helpers: its turns come between the tournament's.
    other = connect(server.url)
    assert other.call("strip", {"orders": ["warnsdorff"], "sides": [5, 12]})["ok"] is True
    assert wait_for(lambda: other.named("strip_done"), 30)
    assert done() < total / 2, f"the strip waited for {done()} of the tournament's {total} boards"
    teacher.call("class_end")


def test_a_student_on_another_process_enters_under_the_name_they_gave_their_ordering(clusters, connect):
    # The tournament's news goes to the room and its instructor at once: one emit to a list of rooms,
    # which the Redis queue takes as it takes one room.
    cluster = clusters(2)
    first, second = cluster.apps  # the class is the first's
    teacher, there = connect(first.url), connect(second.url)
    code = teacher.call("class_open")["code"]
    join = there.call("class_join", {"code": code})
    assert wait_for(lambda: there.named("class_state"), 10)
    opened = teacher.call("tournament_open", RULES)
    assert opened["ok"] is True, opened
    assert wait_for(lambda: there.named("tournament"), 10)
    entered = there.call(
        "tournament_enter", {"order": "onward,-centre", "name": "Ann", "title": "Roth tie break"}
    )
    assert entered == {"ok": True, "entry": join["entry"]}
    for person in (teacher, there):
        row = lambda person=person: Standings(person).now()[0].get(join["entry"], {})  # noqa: E731
        assert wait_for(lambda row=row: row().get("title") == "Roth tie break", 10), row()
        assert row()["name"] == "Ann"
