"""A tournament on a production server without search helpers: the worker searches its boards
itself, a slice at a time, and every other stream plays on meanwhile."""

import time

from server.engine.survey import cell
from tests.support.tournament import standings
from tests.support.waiting import wait_for

# Two large boards of up to 100,000 backtracks each. An ordering of eight keys takes about 2 s
# of search a board here: searched whole, rather than in slices, each would hold the run back.
RULES = {"smallest": 90, "largest": 91, "budget": 100_000}
EIGHT_KEYS = "-pohl,-onward,-centre,-start,-edge,-corner,random,-index"
ORDERS = [EIGHT_KEYS, "random"]  # two students' entries: four boards


def test_a_tournament_searched_by_a_worker_without_helpers_holds_no_stream_back(production, connect):
    with production("--search-processes", "0") as server:
        # Someone else's run at 200 moves a second: ten batches a second.
        good = connect(server.url)
        assert good.call("start", {"rows": 8, "cols": 8, "start": 0, "order": "naive", "speed": 200})["ok"]
        assert wait_for(lambda: len(good.named("events")) >= 3, 30), "the paced run never began"
        teacher = connect(server.url)
        code = teacher.call("class_open")["code"]
        students = [connect(server.url) for _ in ORDERS]
        entries = []
        for student in students:
            joined = student.call("class_join", {"code": code})
            assert joined["ok"] is True, joined
            entries.append(joined["entry"])
        assert teacher.call("tournament_open", RULES)["ok"] is True
        began = time.monotonic()
        for student, order in zip(students, ORDERS, strict=True):
            assert student.call("tournament_enter", {"order": order}, timeout=60)["ok"] is True

        def rows():
            return [standings(teacher.received())[0].get(entry, {}) for entry in entries]

        assert wait_for(lambda: all("." not in row.get("outcomes", ".") for row in rows()), 240), rows()
        ended = time.monotonic()
        batches = [at for at, event, _ in good.stamped() if event == "events" and began <= at <= ended]
        gaps = [b - a for a, b in zip([began, *batches], [*batches, ended], strict=True)]
        took, longest = ended - began, max(gaps)
        # The run's batches come every 0.1 s. A board of eight keys searched whole would stop them
        # for about 2 s, over a third of the tournament: on a busy machine, whose every gap is
        # longer, the bound grows with the time the tournament took.
        bound = max(1.0, took / 8)
        assert longest < bound, f"the run stalled {longest:.2f} s during a tournament of {took:.1f} s"
        sides = range(RULES["smallest"], RULES["largest"] + 1)
        boards = len(ORDERS) * len(sides)
        print(f"  a tournament of {boards} boards took {took:.1f} s; longest gap {longest * 1000:.0f} ms")
        budget = RULES["budget"]
        searched = {order: [cell(n, n, 0, order, 0, budget)["backtracks"] for n in sides] for order in ORDERS}
        assert [row["backtracks"] for row in rows()] == [searched[order] for order in ORDERS]
        teacher.call("class_end")
        for client in (good, teacher, *students):
            client.close()
