"""A tournament's students and its late comers: entries of pages that joined after it opened are
flagged and limited apart, never taking a present student's place; entries from seats only; an
entry removed with its student; the students present counted beside the entries."""

import pytest

from server.classes.tournament import tournaments
from server.classes.tournament.checks import TournamentRules
from server.edge import app_seats
from server.edge.seats import COOKIE
from server.replies import Refusal
from tests.support.clients import RawClient
from tests.support.tournament import standings
from tests.support.waiting import wait_for

RULES = {"smallest": 5, "largest": 6, "budget": 200}


def answer_to(client, ack_id, timeout=15):
    """Return the server's answer to a RawClient's request ack_id (its first argument)."""
    assert wait_for(lambda: ack_id in client.answers(), timeout), f"no answer to request {ack_id}"
    return client.answers()[ack_id][0]


def script(url, code, n):
    """Do what a script does, n times: connect, join the class without a pass, enter, close.
    Return the answers to its entries."""
    entered = []
    for _ in range(n):
        page = RawClient(url)
        try:
            page.emit(1, "class_join", {"code": code})
            assert answer_to(page, 1)["ok"] is True
            page.emit(2, "tournament_enter", {"order": "index"})
            entered.append(answer_to(page, 2))
        finally:
            page.close()
    return entered


def refused(person, event, data, code, words):
    answer = person.call(event, data)
    assert answer["ok"] is False and answer["code"] == code and words in answer["error"], answer
    assert person.named("error")[-1]["code"] == code


def rows(person):
    return standings(person.received())[0]


def test_a_script_joining_after_the_opening_cannot_get_a_present_student_refused(
    people, live_server, monkeypatch
):
    # The limits made small, so that a script fills them in a few seconds (at 500, 4 s on a fast machine).
    monkeypatch.setattr(tournaments, "MAX_ENTRIES", 8)
    monkeypatch.setattr(tournaments, "MAX_LATE", 8, raising=False)
    teacher = people()
    code = teacher.call("class_open")["code"]
    students = [people() for _ in range(3)]
    joins = [student.call("class_join", {"code": code}) for student in students]
    opened = teacher.call("tournament_open", RULES)
    assert opened["ok"] is True, opened
    entered = script(live_server.url, code, 10)
    # Those who were there when it opened still have every place.
    for student, join in zip(students, joins, strict=True):
        answer = student.call("tournament_enter", {"order": "warnsdorff"})
        assert answer == {"ok": True, "entry": join["entry"]}, answer
    assert [answer["ok"] for answer in entered] == [True] * 8 + [False] * 2, entered
    assert {answer["code"] for answer in entered[8:]} == {"tournament.late_full"}
    assert wait_for(lambda: len(rows(teacher)) == 11, 15), rows(teacher)
    late = {id for id, row in rows(teacher).items() if row["late"]}
    assert late == {answer["entry"] for answer in entered[:8]}
    assert all(rows(teacher)[join["entry"]]["late"] is False for join in joins)
    # Closing and opening again gives the script no new place among the students present.
    teacher.call("tournament_close")
    again = teacher.call("tournament_open", RULES)
    assert again["ok"] is True and again["entries"] == []
    assert [answer["ok"] for answer in script(live_server.url, code, 9)] == [True] * 8 + [False]
    assert students[0].call("tournament_enter", {"order": "naive"})["ok"] is True


def test_the_instructor_removes_an_entry_and_its_student_enters_no_more(people, live_server):
    teacher = people()
    code = teacher.call("class_open")["code"]
    rude, other = people(), people()
    rude_join, other_join = (student.call("class_join", {"code": code}) for student in (rude, other))
    teacher.call("tournament_open", RULES)
    for student in (rude, other):
        assert student.call("tournament_enter", {"order": "naive", "name": "Nick"})["ok"] is True
    assert wait_for(lambda: len(rows(other)) == 2, 15)
    assert teacher.call("tournament_remove", {"entry": rude_join["entry"]}) == {"ok": True}
    for person in (teacher, rude, other):
        assert wait_for(lambda person=person: set(rows(person)) == {other_join["entry"]}, 15), rows(person)
    assert any(rude_join["entry"] in news["removed"] for news in other.named("tournament_news"))
    refused(rude, "tournament_enter", {"order": "warnsdorff"}, "tournament.removed", "removed your entry")
    # Joining again with the same pass is the same student: still out.
    back = people()
    assert back.call("class_join", {"code": code, "voter": rude_join["voter"]})["entry"] == rude_join["entry"]
    refused(back, "tournament_enter", {"order": "warnsdorff"}, "tournament.removed", "removed your entry")
    # A late comer is told the tournament without the entry, and which entries were removed.
    late = people()
    state = late.call("class_join", {"code": code}) and late
    assert wait_for(lambda: state.named("class_state"))
    told = state.named("class_state")[0]["tournament"]
    assert [row["id"] for row in told["entries"]] == [other_join["entry"]]
    assert told["removed"] == [rude_join["entry"]]
    # And the class's next tournament keeps them out.
    teacher.call("tournament_close")
    teacher.call("tournament_open", RULES)
    refused(rude, "tournament_enter", {"order": "warnsdorff"}, "tournament.removed", "removed your entry")
    assert other.call("tournament_enter", {"order": "warnsdorff"})["ok"] is True
    refused(teacher, "tournament_remove", {"entry": "0123456789ab"}, "tournament.no_entry", "no entry")
    refused(teacher, "tournament_remove", ["x"], "request.invalid", "'tournament_remove' needs an object")
    refused(other, "tournament_remove", {"entry": other_join["entry"]}, "class.not_leading", "do not lead")


def test_with_seats_handed_out_the_instructor_takes_entries_from_seats_only(live_server, connect):
    seats = app_seats(live_server.app)
    (_, seat), *_ = seats.seats(seats.roster(1))
    teacher = connect(live_server.url)
    seated = connect(live_server.url, headers={"Cookie": f"{COOKIE}={seat}"})
    unseated = connect(live_server.url)
    code = teacher.call("class_open")["code"]
    for student in (seated, unseated):
        student.call("class_join", {"code": code})
    bad = {**RULES, "seats": "yes"}
    refused(teacher, "tournament_open", bad, "request.invalid", "seats is true or false")
    opened = teacher.call("tournament_open", {**RULES, "seats": True})
    assert opened["ok"] is True and opened["seats"] is True
    refused(unseated, "tournament_enter", {"order": "naive"}, "tournament.seats_only", "seats only")
    entry = seated.call("tournament_enter", {"order": "naive"})
    assert entry["ok"] is True
    assert wait_for(lambda: entry["entry"] in rows(teacher), 15)
    row = rows(teacher)[entry["entry"]]
    assert row["seated"] is True and row["late"] is False
    teacher.call("class_end")


def test_the_students_present_at_the_opening_are_counted_beside_the_entries(people, live_server):
    teacher = people()
    code = teacher.call("class_open")["code"]
    ann = people()
    voter = ann.call("class_join", {"code": code})["voter"]
    ann_tab = people()  # a second tab of hers: one student
    ann_tab.call("class_join", {"code": code, "voter": voter})
    bo = people()
    bo.call("class_join", {"code": code})
    opened = teacher.call("tournament_open", RULES)
    assert (opened["present"], opened["opened"] > 0) == (2, True), opened
    assert wait_for(lambda: bo.named("tournament"))
    assert bo.named("tournament")[-1]["present"] == 2
    late = people()
    late.call("class_join", {"code": code})
    assert wait_for(lambda: late.named("class_state"))
    assert late.named("class_state")[0]["tournament"]["present"] == 2


@pytest.mark.parametrize(
    "extra, words",
    [
        ({"opened": -1}, "opened is a millisecond"),
        ({"present": "all"}, "present is a count of students"),
        ({"removed": ["../x"]}, "removed is a list"),
    ],
)
def test_a_restore_keeps_who_was_late_and_who_was_removed_and_a_bad_one_is_refused(people, extra, words):
    teacher = people()
    teacher.call("class_open")
    row = {"id": "0123456789ab", "order": "naive", "submitted": 5, "late": True, "seated": False}
    restore = {"tournament": 3, "opened": 4, "present": 7, "removed": ["ba9876543210"], "entries": [row]}
    answer = teacher.call("tournament_open", {**RULES, "restore": {**restore, **extra}})
    assert answer["ok"] is False and words in answer["error"], answer
    back = teacher.call("tournament_open", {**RULES, "restore": restore})
    assert (back["opened"], back["present"], back["removed"]) == (4, 7, ["ba9876543210"])
    assert back["entries"][0]["late"] is True


def test_a_voter_is_late_once_its_pass_was_issued_at_the_opening_or_after_and_a_seat_never(monkeypatch):
    monkeypatch.setattr(tournaments, "MAX_ENTRIES", 1)
    monkeypatch.setattr(tournaments, "MAX_LATE", 1)
    tournament = tournaments.Tournament(1, TournamentRules(5, 5, 10), opened=1000, present=1)
    before, at, seat = f"{999:x}-a", f"{1000:x}-b", "seat-c"
    assert [tournament.late(voter) for voter in (before, at, seat)] == [False, True, False]
    assert tournament.enter("late", "naive", None, voter=at).late is True
    with pytest.raises(Refusal, match="joined after it opened"):
        tournament.enter("later", "naive", None, voter=f"{2000:x}-d")
    assert tournament.enter("there", "naive", None, voter=before).late is False, "the late one took no place"
    with pytest.raises(Refusal, match="as many as it takes"):
        tournament.enter("seat", "naive", None, voter=seat)
