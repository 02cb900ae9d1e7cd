"""A tournament on a production server without search helpers: the worker searches its boards
itself, a slice at a time, and every other stream plays on meanwhile."""

import time

from server.engine.survey import cell
from tests.support.tournament import standings
from tests.support.waiting import wait_for

# Ten large boards of up to 100,000 backtracks each: an entry's most (1,000,000 over its boards).
RULES = {"smallest": 90, "largest": 99, "budget": 100_000}
ORDERS = ["naive", "random", "-onward", "naive"]  # four students' entries: 40 boards


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
        # Generous: the run's batches come every 0.1 s, and stopped for all of the search when its
        # boards were searched whole; on a machine so loaded that the search takes over 6 s, a third of it.
        bound = max(2.0, took / 3)
        assert longest < bound, f"the run stalled {longest:.2f} s during a tournament of {took:.1f} s"
        print(f"  a tournament of 40 boards took {took:.1f} s here; longest gap {longest * 1000:.0f} ms")
        sides = range(RULES["smallest"], RULES["largest"] + 1)
        for row, order in zip(rows(), ORDERS, strict=True):
            searched = [cell(n, n, 0, order, 0, RULES["budget"])["backtracks"] for n in sides]
            assert row["backtracks"] == searched, order
        teacher.call("class_end")
        for client in (good, teacher, *students):
            client.close()
