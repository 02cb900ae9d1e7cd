"""Benchmark a hostile lecture hall: one address, one server process, one prankster among the class.

Everyone is on 127.0.0.1, as a school's NAT shows a whole class to the server: a class of
--followers students following the instructor's run at --speed events/s, --solos students
playing their own searches at the same pace (half of each browser-like: they offer
permessage-deflate as Chromium does), and a prankster's script (bench/prankster.py) on the same
address. The server is `python -m server` with its defaults. The prankster does each attack in
turn, then all of them at once; the first and last phases have no prankster, for comparison.

In every phase, while the attack goes on, what the class gets is measured: the followers'
fan-out (their batch's arrival less the instructor's) and pace, the solo students' lag behind
their schedule and pace (every student's client loads the page first, as a browser does, and
so has a badge of its own), and four newcomers' times: a student who types the class's code, one
who opens the class's link (its ticket: the same as a student coming back), the instructor's
reload (from a browser given the instructor key: a claim with the token from a new connection,
then the first page claims it back), and a student who opened their seat's link (from the
instructor's sheet) in an earlier lecture and opens the class's link. The voters phase asks the
class a question; the prankster's connections join and answer once it is open, and every answer
must be counted once, the prankster's apart. The class has a tournament open from the start
(its students present): the stuffing phase fills it from the prankster's script, and afterwards
the class's students enter, and must every one be taken, the script's entries late, apart.

With --alone, the server has no search helpers (`--search-processes 0`): the class plays at its
pace while a student asks for a strip of large boards (two orderings on the 11 boards of 90 to
100, 100,000 backtracks each), which the worker searches itself; the class's pace and the p95
of its batch gaps are measured before, during and after the strip, and how long the strip took.

Goals (printed as met or not, never asserted): the followers' and solos' p95 under 250 ms and
pace at least 95%, every join and claim under 2 s. The exit status is non-zero only if something
is functionally wrong: a good client was refused its run, the class's answers were miscounted.
"""

import argparse
import csv
import math
import re
import sys
import time
import traceback
from collections import Counter
from urllib.parse import urlsplit

import requests
from hall import GOAL_P95_MS, Hall, browsers, verdict
from prankster import Prankster
from stats import batches_in, fan_out, lags, spread

BOARD = {"rows": 8, "cols": 8, "order": "naive"}
GOAL_PACE = 95
GOAL_JOIN_S = 2.0
ATTACKS = (
    "codes",
    "trickle",
    "held",
    "skips",
    "strips",
    "pings",
    "noops",
    "badged",
    "pages",
    "squat",
    "stuffing",
    "longway",
)
# The class's tournament: a few small boards, so that its students' entries are searched quickly.
TOURNAMENT = {"smallest": 5, "largest": 12, "budget": 2000}
ENTERING = 20  # the class's students who enter once the script has done its worst
QUICK = {"followers": 40, "solos": 10, "seconds": 3, "scale": 0.1}


def outcome(answer):
    """Return what a newcomer was answered, in a word: ok, the refusal's code, or why it got none."""
    if answer.get("ok"):
        return "ok"
    if "code" in answer:
        return answer["code"]
    return "refused" if "429" in answer.get("error", "") else "no answer"


class HostileHall(Hall):
    """The class, its solo students and the prankster, phase by phase."""

    # Every student's page loads the page, and so has a badge of its own, as in a real hall: a
    # script's connections without badges are one browser, the class's are each their own.
    PAGES = True

    def __init__(self, args):
        super().__init__("production", args)
        self.rows = []  # one per phase: its figures
        self.probes = 0

    def follower_groups(self):
        return [("followers", [f"f{i}" for i in range(self.args.followers)])]

    def drive(self, main):
        args = self.args
        solos = [f"s{i}" for i in range(args.solos)]
        followers = self.groups[0][1]
        self.prankster = Prankster(self.server.url)
        try:
            sizes = self.prankster("scale", by=args.scale)
            if "squat" in args.attacks:
                self.prankster("stock", n=sizes["squat"])  # its badges, taken before the class comes
            self.instructor, self.seats = self.seat_sheet(len(args.attacks) + 3)
            wanted = [(main, ["instructor", *solos]), (self.loads["followers"], followers)]
            self.check_acks("connect", self.connect_in_waves(wanted)[0])
            opened = main("call", names=["instructor"], event="class_open")["instructor"]
            self.code, self.token, self.ticket = opened["code"], opened["token"], opened["ticket"]
            self.prankster("code", code=self.code)
            self.loads["followers"].send(
                "call", names=followers, event="class_join", data={"code": self.code}
            )
            self.check_acks("class_join", self.loads["followers"].result(300))
            run = {**BOARD, "start": 0, "speed": args.speed}
            self.class_run = self.check_acks(
                "start", main("call", names=["instructor"], event="start", data=run)
            )["instructor"]["run"]
            each = {
                name: {**BOARD, "start": (7 * i + 1) % 64, "speed": args.speed}
                for i, name in enumerate(solos)
            }
            self.check_acks("start", main("call", names=solos, event="start", each=each))
            opened = main("call", names=["instructor"], event="tournament_open", data=TOURNAMENT)
            self.tournament = self.check_acks("tournament_open", opened)["instructor"]
            time.sleep(args.settle)
            for name, attacks in (
                ("calm", ()),
                *((a, (a,)) for a in args.attacks),
                ("all", ATTACKS),
                ("after", ()),
            ):
                self.attack(main, name, attacks)
            self.entering(main, followers[:ENTERING])
            self.voting(main, followers)
        finally:
            self.prankster.close()

    def here(self, link):
        """Return a link the server printed or wrote (its public address's) at the address the bench uses."""
        parts = urlsplit(link)
        return self.server.url + parts.path + (f"?{parts.query}" if parts.query else "")

    def seat_sheet(self, size):
        """Give a browser the instructor key (python -m server prints it), make a sheet of size
        seats, and take each in a browser of its own; return each browser's cookies, the
        instructor's and the seats'."""
        printed = re.search(r"Instructors: .* enter the key (\S+)", self.server.log_text())
        if printed is None:
            raise SystemExit("the server printed no instructor's key")
        url = self.server.url
        with requests.Session() as teacher:
            teacher.post(url + "/instructor", data={"key": printed[1]}, timeout=10).raise_for_status()
            # The CSV alone: the links, which is all a script needs of the sheet.
            made = teacher.get(url + "/roster/new", params={"seats": size}, allow_redirects=False, timeout=10)
            listed = teacher.get(url + made.headers["Location"] + "/seats.csv", timeout=10)
            listed.raise_for_status()
            seats = []
            for _, link in csv.reader(listed.text.splitlines()[1:]):
                with requests.Session() as student:
                    student.post(self.here(link), timeout=10).raise_for_status()
                    seats.append(student.cookies.get_dict())
            return teacher.cookies.get_dict(), seats

    def attack(self, main, name, attacks):
        """Run a phase with these attacks going on: measure the class, then try newcomers."""
        for attack in attacks:
            self.prankster("start", attack=attack)
        time.sleep(self.args.settle)
        self.phase(name, self.args.seconds)
        probes = self.newcomers(main)
        counts = self.prankster("stop")
        self.rows.append((name, probes, counts))
        time.sleep(self.args.settle)

    def timed(self, main, name, event, data, cookies=None):
        """Connect a new client (whose browser kept cookies from an earlier visit) and send it one
        request; return (seconds, its answer)."""
        began = time.monotonic()
        # A newcomer is a browser: it loads the page (and is given a badge, or earns one, in Python
        # here, where a page takes a few times as long: see docs/benchmarks.md) before it connects.
        connected = main(
            "connect", names=[name], browser=browsers([name]), pages=True, cookies={name: cookies}
        )[name]
        if not connected.get("ok"):
            return time.monotonic() - began, connected
        answer = main("call", names=[name], event=event, data=data)[name]
        return time.monotonic() - began, answer

    def newcomers(self, main):
        """Time a typed code's join, a link's join and the instructor's reload (and claim back)."""
        self.probes += 1
        n = self.probes
        typed = self.timed(main, f"t{n}", "class_join", {"code": self.code})
        link = self.timed(main, f"l{n}", "class_join", {"code": self.code, "ticket": self.ticket})
        claim = self.timed(
            main, f"c{n}", "class_claim", {"code": self.code, "token": self.token}, self.instructor
        )
        back = main(
            "call", names=["instructor"], event="class_claim", data={"code": self.code, "token": self.token}
        )
        if not back["instructor"].get("ok"):
            self.problems.append(f"the instructor could not claim its class back: {back['instructor']}")
        ticket = {"code": self.code, "ticket": self.ticket}
        seated = self.timed(main, f"p{n}", "class_join", ticket, self.seats[n - 1])
        return {"typed": typed, "link": link, "claim": claim, "seated": seated}

    def entering(self, main, students):
        """Have students present when the tournament opened enter it, after the script filled it."""
        answers = self.loads["followers"](
            "call", names=students, event="tournament_enter", data={"order": "warnsdorff"}
        )
        # By code: each refused student's answer says the same.
        refused = Counter(ack.get("code", "no answer") for ack in answers.values() if not ack.get("ok"))
        self.entries = (len(students) - sum(refused.values()), len(students), dict(refused))
        if refused:
            self.problems.append(f"students present when the tournament opened were refused: {dict(refused)}")

    def voting(self, main, followers):
        """Ask a question: the class answers, the prankster's pages join once it is open and answer too."""
        main("call", names=["instructor"], event="pause")
        asked = main("call", names=["instructor"], event="poll_open")["instructor"]
        if not asked.get("ok"):
            self.problems.append(f"the question was not asked: {asked}")
            return
        question = asked["poll"]
        wrong = question["square"] if question["square"] is not None else 1
        self.prankster("start", attack="voters", question=question["id"], square=wrong)
        time.sleep(self.args.settle)
        began = time.monotonic()
        answers = self.loads["followers"](
            "call", names=followers, event="poll_answer", data={"id": question["id"], "square": 0}
        )
        self.answer_seconds = time.monotonic() - began
        time.sleep(self.args.settle)
        result = main("call", names=["instructor"], event="poll_reveal", data={"id": question["id"]})[
            "instructor"
        ]
        counts = self.prankster("stop")["voters"]
        taken = sum(1 for ack in answers.values() if ack.get("ok"))
        self.vote = (taken, result.get("result", {}), counts)
        if result.get("result", {}).get("answered") != taken:
            self.problems.append(f"{taken} students answered, the question counted {result}")

    def report(self):
        args, everyone = self.args, self.peers()
        followers = [p for n, p in everyone.items() if n.startswith("f")]
        solos = [p for n, p in everyone.items() if n.startswith("s")]
        instructor = everyone["instructor"]
        out = [
            f"\n=== hostile hall: {args.followers} followers and {args.solos} solo students at "
            f"{args.speed:g} events/s, a prankster on the same address; {self.command_line()}",
            f"{'phase':<8} {'fan-out p95':>11} {'pace':>6} {'solo p95':>9} {'pace':>6}  "
            f"{'typed code':>14} {'link':>14} {'claim':>14} {'seat':>14}  "
            f"{'CPU%':>5} {'worker':>6} {'idle':>5} {'RSS MB':>6}  prankster",
        ]
        goals = []
        for name, probes, counts in self.rows:
            window = self.phases[name]
            fan, _ = fan_out(followers, instructor, window, self.class_run)
            _, _, follower_pace = lags(followers, window, args.speed, self.class_run)
            solo_lags, _, solo_pace = lags(solos, window, args.speed)
            fan_p95, solo_p95 = spread(fan)["p95"], spread(solo_lags)["p95"]
            figures = self.sampler.window(*window) or {}
            # The server's processes together (its search helpers too), and its worker alone.
            cpu = figures.get("server_user", math.nan) + figures.get("server_sys", math.nan)
            worker = figures.get("worker", math.nan)
            rss = figures.get("rss", math.nan) / 2**20
            idle = figures.get("idle", math.nan)  # the machine's, every core: 200 = two idle cores
            said = [f"{seconds:5.2f} s {outcome(answer)}" for seconds, answer in probes.values()]
            doing = "; ".join(
                f"{a}: " + ", ".join(f"{k} {v}" for k, v in c.items()) for a, c in counts.items()
            )
            out.append(
                f"{name:<8} {fan_p95:>8.0f} ms {follower_pace:>5.0f}% {solo_p95:>6.0f} ms "
                f"{solo_pace:>5.0f}%  {said[0]:>14} {said[1]:>14} {said[2]:>14} {said[3]:>14}  "
                f"{cpu:>5.0f} {worker:>6.0f} {idle:>5.0f} {rss:>6.0f}  {doing or '-'}"
            )
            inside = {
                who: answer.get("ok") and seconds < GOAL_JOIN_S for who, (seconds, answer) in probes.items()
            }
            goals.append(
                (
                    name,
                    fan_p95 < GOAL_P95_MS and solo_p95 < GOAL_P95_MS,
                    min(follower_pace, solo_pace) >= GOAL_PACE,
                    all(inside.values()),
                    inside["claim"] and inside["seated"],
                )
            )
        for name, probes, _ in self.rows:
            for who, (seconds, answer) in probes.items():
                if not answer.get("ok"):
                    out.append(f"{name}: the {who} newcomer, after {seconds:.2f} s: {answer}")
        if hasattr(self, "vote"):
            taken, result, counts = self.vote
            out.append(
                f"voters: {taken} students answered in {self.answer_seconds:.2f} s; the question counted "
                f"{result.get('answered')} answers of {result.get('present')} students present, and "
                f"{result.get('late')} late (the prankster's pages: {counts})"
            )
        if hasattr(self, "entries"):
            taken, tried, refused = self.entries
            present = self.tournament.get("present")
            out.append(
                f"tournament: {taken} of {tried} students present at its opening ({present} present) "
                f"entered after the script; refused: {refused or 'none'}"
            )
        out.append(
            "\ngoals: p95 < 250 ms; pace >= 95%; every join and claim < 2 s (and those of the instructor "
            "and the seat's student alone)"
        )
        for name, p95, pace, joins, seated in goals:
            out.append(
                f"  {name:<8} p95 {verdict(p95)}, pace {verdict(pace)}, joins {verdict(joins)}, "
                f"instructor and seat {verdict(seated)}"
            )
        return "\n".join(out)


# What a student asks of a server without helpers: 22 large boards, each up to 100,000
# backtracks (searched whole, 6 of them held every stream 8 s).
ALONE_STRIP = {"orders": ["naive", "random"], "sides": [90, 100], "budget": 100_000}


class AloneHall(Hall):
    """The class at its pace on a server without search helpers, and a student's strip beside it."""

    server_options = ("--search-processes", "0")

    def __init__(self, args):
        super().__init__("production", args)
        self.strip = None  # (seconds, boards) of the strip

    def follower_groups(self):
        return [("followers", [f"f{i}" for i in range(self.args.followers)])]

    def drive(self, main):
        args, followers = self.args, self.groups[0][1]
        wanted = [(main, ["instructor", "asker"]), (self.loads["followers"], followers)]
        self.check_acks("connect", self.connect_in_waves(wanted)[0])
        opened = self.check_acks("class_open", main("call", names=["instructor"], event="class_open"))
        code = opened["instructor"]["code"]
        self.loads["followers"].send("call", names=followers, event="class_join", data={"code": code})
        self.check_acks("class_join", self.loads["followers"].result(300))
        run = {**BOARD, "start": 0, "speed": args.speed}
        self.class_run = self.check_acks(
            "start", main("call", names=["instructor"], event="start", data=run)
        )["instructor"]["run"]
        time.sleep(args.settle)
        self.phase("calm", args.seconds)
        began = time.monotonic()
        asked = main("call", names=["asker"], event="strip", data=ALONE_STRIP)["asker"]
        if not asked.get("ok"):
            self.problems.append(f"the strip was refused: {asked}")
            return
        done = main("wait", name="asker", event="strip_done", within=600, timeout=630)
        ended = time.monotonic()
        self.phases["strip"] = (began, ended)
        if done is None:
            self.problems.append("the strip did not end within 600 s")
        boards = main("seen", names=["asker"], events=["strip_board"])["asker"]
        self.strip = (ended - began, len(boards))
        if len(boards) != asked["boards"]:
            self.problems.append(f"the strip sent {len(boards)} boards of {asked['boards']}")
        self.phase("after", args.seconds)

    def report(self):
        args, everyone = self.args, self.peers()
        followers = [p for n, p in everyone.items() if n.startswith("f")]
        instructor = everyone["instructor"]
        out = [
            f"\n=== a strip without helpers: {args.followers} followers at {args.speed:g} events/s; "
            f"{self.command_line()}",
            f"{'phase':<8} {'seconds':>7} {'pace':>6} {'gap p95':>8} {'gap max':>8} {'lag p95':>8} "
            f"{'fan-out p95':>11} {'worker':>6}",
        ]
        goals = []
        for name in ("calm", "strip", "after"):
            if name not in self.phases:
                continue
            window = self.phases[name]
            late, _, pace = lags(followers, window, args.speed, self.class_run)
            # Each follower's gaps between batches, the window's start and end counted as one: a
            # stream that stalled for the whole window has one gap as long as it.
            gaps = []
            for peer in followers:
                batches = batches_in(peer, window, self.class_run)
                stamps = [window[0], *(at for at, _, _ in batches), window[1]]
                gaps.extend(b - a for a, b in zip(stamps, stamps[1:], strict=False))
            fan, _ = fan_out(followers, instructor, window, self.class_run)
            gap, lag = spread(gaps), spread(late)
            worker = (self.sampler.window(*window) or {}).get("worker", math.nan)
            out.append(
                f"{name:<8} {window[1] - window[0]:>7.1f} {pace:>5.0f}% {gap['p95']:>5.0f} ms "
                f"{gap['max']:>5.0f} ms {lag['p95']:>5.0f} ms {spread(fan)['p95']:>8.0f} ms {worker:>6.0f}"
            )
            goals.append((name, pace >= GOAL_PACE, gap["p95"] < GOAL_P95_MS))
        if self.strip is not None:
            out.append(f"the strip: {self.strip[1]} boards in {self.strip[0]:.1f} s ({ALONE_STRIP})")
        out.append("\ngoals: the class's pace >= 95%; p95 of its batch gaps < 250 ms")
        for name, pace, gap in goals:
            out.append(f"  {name:<8} pace {verdict(pace)}, gaps {verdict(gap)}")
        return "\n".join(out)


def parse(argv):
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--followers", type=int, default=300)
    parser.add_argument("--solos", type=int, default=50)
    parser.add_argument("--speed", type=float, default=30, help="events/s of the class and of each solo")
    parser.add_argument("--seconds", type=float, default=10, help="of each phase's measurement")
    parser.add_argument("--settle", type=float, default=1.5)
    parser.add_argument("--scale", type=float, default=1.0, help="of the prankster's attacks")
    parser.add_argument("--quick", action="store_true", help="a smoke run: a small class, short phases")
    parser.add_argument(
        "--alone", action="store_true", help="a strip on a server without search helpers, beside the class"
    )
    parser.add_argument(
        "--attacks",
        type=lambda text: text.split(","),
        default=list(ATTACKS),
        help=f"the attacks to run one at a time, comma-separated (all of them at once still follow): "
        f"{','.join(ATTACKS)}",
    )
    args = parser.parse_args(argv)
    if unknown := set(args.attacks) - set(ATTACKS):
        parser.error(f"no such attack: {', '.join(sorted(unknown))}")
    if args.quick:
        for key, value in QUICK.items():
            setattr(args, key, value)
    # The server's defaults (python -m server): 500 connections from one address, 500 at once.
    args.max_per_address, args.connect_burst, args.connect_rate, args.baseline = 500, 450, 50, 0
    return args


def main(argv=None):
    args = parse(argv)
    hall = AloneHall(args) if args.alone else HostileHall(args)
    try:
        hall.run()
        print(hall.report())
    except Exception:  # noqa: BLE001 - said, and the exit status says it
        traceback.print_exc()
        return 2
    hall.check_log()
    print("\n".join(hall.log_lines()))
    for problem in hall.problems:
        print(f"PROBLEM: {problem}")
    return 1 if hall.problems else 0


if __name__ == "__main__":
    sys.exit(main())
