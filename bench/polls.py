"""Benchmark class questions (polls) with 1,000 followers on one server process, with real clients.

The goal (the issue's): posing and revealing a question reach every follower within the class's
usual delay, and 1,000 answers collected in 5 s do not slow the class's stream. The question has
two rounds (Peer Instruction, --rounds 1 for one): 1,000 answers in 5 s, a discussion, then
1,000 answers again in 5 s.

One production server (`python -m server`: gunicorn, one gevent worker) serves two classes at
once, each run the naive 8x8 search at a pace a class can follow (--speed, 30 events/s):
class A with --followers (1,000) and class B with --others (100), half of each browser-like
(their upgrade request offers permessage-deflate as Chromium does) and half plain, as in
bench/classroom.py; the load processes, waves of connections and checks are bench/hall.py's.

Phases, in one run:
  quiet      both classes play, no question: the stream's delay, the peer of what follows.
  pose       A's instructor sends poll_open (A's run pauses): poll_opened's arrival at every
             follower of A, from the moment the instructor sent it.
  answering  every follower of A answers within --answer-seconds, spread evenly: each
             answer's ack latency; the instructor's poll_count messages (the server sends at
             most 5 a second, the last count always); and, A being paused, class B's stream,
             which plays on meanwhile, against its own quiet figures.
  discuss    A's instructor sends poll_stage discuss, waits --discuss-seconds, then poll_stage
             second: its arrival at every follower.
  answering2 every follower of A answers again, as in answering (some change their minds).
  reveal     A's instructor sends poll_reveal: poll_revealed's arrival at every follower, and
             the arrival of the move it releases (the batch holding the event asked about).
  after      A resumes; both classes play again.
  verdicts   A's instructor pauses and asks for a code exercise; every follower of A sends its
             verdict within --answer-seconds, as its page would after checking its student's
             code: each verdict's ack latency and class B's stream meanwhile (as for the
             answers, against which they are measured), and
             the instructor's exercise_count messages (two a second at most, the last tally
             always, which must count every verdict once).

Delays of the stream are fan-out, as in bench/classroom.py: a follower's arrival time of a
batch less its instructor's (the instructor's copy is emitted just before the room's). The
answers are checked against the search: the question's answer is the search's next event, and
the revealed counts are the ones sent. Timings are printed beside their goals, never asserted;
the exit status is 1 only if something is functionally wrong (a refusal, a message missed,
reordered or wrong, a count off, an extension accepted, an error in the server's log).
"""

import argparse
import math
import os
import random
import sys
import time
from collections import Counter
from importlib import metadata

import common  # noqa: F401 - puts the project on the import path
from hall import (
    FOLLOWERS_PER_PROC,
    GOAL_P95_MS,
    GOAL_SKIP_EXTRA_MS,
    Hall,
    run_and_report,
    split,
    verdict,
)
from load import Expected
from stats import spread

from server.classes.exercise.slot import COUNT_EVERY as TALLY_EVERY
from server.classes.questions.slot import COUNT_EVERY
from server.edge.guard import HANDSHAKE_BURST, HANDSHAKE_RATE
from tests.support.replay import followed

BOARD = {"rows": 8, "cols": 8, "order": "naive"}
STARTS = {"A": 0, "B": 7}  # each class's start square
INSTRUCTORS = {"A": "instructor", "B": "instructor_b"}
POLL_EVENTS = ("poll_opened", "poll_stage", "poll_revealed", "poll_closed")
# Followers who answer the search's next move in each round; the others pick another square.
RIGHT_SHARE = {1: 0.6, 2: 0.8}
WINDOWS = {1: "answering", 2: "answering2"}
EXERCISE = {"exercise": "warnsdorff", "rows": 8, "cols": 8, "start": 0}
MATCHED_SHARE = 0.7  # followers whose code matches the textbook's; the others part from it
SPREAD = {1: 37, 2: 53}  # which followers are right in each round: some go each way between them
QUICK = {"followers": 100, "others": 20, "quiet_seconds": 3, "answer_seconds": 2, "after_seconds": 2}


def ms(seconds):
    return 1000 * seconds


class Polls(Hall):
    """One server, two classes, a question posed to the larger one, and the figures of the run."""

    def __init__(self, args):
        super().__init__("production", args)
        self.names = {
            "A": [f"f{i}" for i in range(args.followers)],
            "B": [f"f{i}" for i in range(args.followers, args.followers + args.others)],
        }
        self.runs = {}  # class -> run id
        self.expected = Expected()

    def follower_groups(self):
        """Return the followers' load processes: class A's, then "others", class B's own.

        Class B's followers have a process of their own: its loop sends none of the answers.
        """
        groups = split(self.names["A"], self.args.follower_procs)
        return [*((f"followers{i + 1}", g) for i, g in enumerate(groups)), ("others", self.names["B"])]

    def gather(self, main):
        """Ask for the poll's messages each follower received, and the instructor's counts."""
        self.seen = {}
        for name, group in self.groups:
            self.seen.update(self.loads[name]("seen", names=group, events=POLL_EVENTS, timeout=300))
        told = main("seen", names=[INSTRUCTORS["A"]], events=("poll_count", "exercise_count"))[
            INSTRUCTORS["A"]
        ]
        self.counts = [entry for entry in told if entry[1] == "poll_count"]
        self.tallies = [entry for entry in told if entry[1] == "exercise_count"]

    def instructor(self, main, klass, event, data=None):
        """Have a class's instructor send event now; return its timed ack, its refusal noted."""
        name = INSTRUCTORS[klass]
        timed = main("call_at", at={name: time.monotonic()}, event=event, each={name: data})[name]
        self.check_acks(f"{event} ({klass})", {name: timed["ack"]})
        return timed

    def drive(self, main):
        """Connect everyone, open both classes, then run the phases: quiet, pose, answering, reveal, after."""
        args = self.args
        wanted = [(main, list(INSTRUCTORS.values())), *((self.loads[n], g) for n, g in self.groups)]
        results, seconds, waves = self.connect_in_waves(wanted)
        self.connected = (len(results), seconds, waves)
        self.check_acks("connect", results)

        for klass, instructor in INSTRUCTORS.items():
            opened = self.check_acks("class_open", main("call", names=[instructor], event="class_open"))
            code = opened[instructor].get("code")
            members = [(self.loads[n], g) for n, g in self.groups if g[0] in self.names[klass]]
            for load, names in members:
                load.send("call", names=names, event="class_join", data={"code": code})
            for load, _ in members:
                self.check_acks(f"class_join ({klass})", load.result(300))
        for klass, instructor in INSTRUCTORS.items():
            run = {**BOARD, "start": STARTS[klass], "speed": args.speed}
            started = self.check_acks("start", main("call", names=[instructor], event="start", data=run))
            self.runs[klass] = started[instructor].get("run")
        time.sleep(args.settle)
        self.phase("quiet", args.quiet_seconds)

        # The question: A's run pauses, its room is told the question.
        self.posed = self.instructor(main, "A", "poll_open", {"peer": args.rounds == 2})
        question = self.posed["ack"].get("poll") or {}
        self.question = question
        self.truth = self.next_move(question)
        self.answered, self.sent, self.staged = {}, {}, None
        self.answer_round(question, 1, self.posed["sent"] + args.lead)
        if args.rounds == 2:
            number = question.get("id")
            self.instructor(main, "A", "poll_stage", {"id": number, "stage": "discuss"})
            time.sleep(args.discuss_seconds)
            self.staged = self.instructor(main, "A", "poll_stage", {"id": number, "stage": "second"})
            self.answer_round(question, 2, self.staged["sent"] + args.lead)

        self.revealed = self.instructor(main, "A", "poll_reveal", {"id": question.get("id")})
        time.sleep(args.lead)
        self.instructor(main, "A", "resume")
        time.sleep(args.settle)
        self.phase("after", args.after_seconds)
        # Paused, as for its question: B's stream and the acks are then measured as the answers' were.
        self.instructor(main, "A", "pause")
        self.exercised = self.instructor(main, "A", "exercise_open", EXERCISE)
        self.verdict_round(
            (self.exercised["ack"].get("exercise") or {}).get("id"), self.exercised["sent"] + args.lead
        )
        for instructor in INSTRUCTORS.values():
            self.check_acks("pause", main("call", names=[instructor], event="pause"))
        time.sleep(args.drain)

    def spread_over(self, event, each, start, seed, window, every):
        """Have every follower of A send event (each[name] its data) once from start, in an order
        shuffled so that each load process sends its share all through the window; wait for
        the instructor's last count (paced at every); return the timed acks by name."""
        args = self.args
        order = list(self.names["A"])
        random.Random(seed).shuffle(order)
        at = {name: start + args.answer_seconds * slot / len(order) for slot, name in enumerate(order)}
        sending = [(self.loads[n], g) for n, g in self.groups if g[0] in self.names["A"]]
        for load, names in sending:
            load.send(
                "call_at",
                at={name: at[name] for name in names},
                event=event,
                each={name: each[name] for name in names},
            )
        timed = {}
        for load, _ in sending:
            timed.update(load.result(args.answer_seconds + 120))
        self.phases[window] = (start, start + args.answer_seconds)
        self.check_acks(window, {name: one["ack"] for name, one in timed.items()})
        # The last count follows the last request within a throttle's interval.
        time.sleep(max(0.0, start + args.answer_seconds + 3 * every - time.monotonic()))
        return timed

    def answer_round(self, question, round, start):
        """Have every follower of A answer a round once from start."""
        answers = self.answers(round)
        each = {name: {"id": question.get("id"), "square": answers[name], "round": round} for name in answers}
        self.answered[round] = self.spread_over(
            "poll_answer", each, start, 12 + round, WINDOWS[round], COUNT_EVERY
        )

    def verdict_round(self, number, start):
        """Have every follower of A send a verdict on exercise number once from start."""
        self.verdicted = self.spread_over(
            "exercise_verdict", self.verdicts_sent(number), start, 31, "verdicts", TALLY_EVERY
        )

    def verdicts_sent(self, number):
        """Return each follower's verdict: most match the textbook's search, the rest part from it
        somewhere in its first events."""
        squares, chosen = EXERCISE["rows"] * EXERCISE["cols"], {}
        for i, name in enumerate(self.names["A"]):
            if (i * 41 + 7) % 100 < 100 * MATCHED_SHARE:
                chosen[name] = {"id": number, "matched": True, "events": 64, "differs": None, "problem": None}
            else:
                chosen[name] = {
                    "id": number,
                    "matched": False,
                    "events": 90,
                    "differs": [20 + i % 40, (i * 7) % squares],
                    "problem": None,
                }
        self.sent_verdicts = chosen
        return chosen

    def answers(self, round):
        """Return each follower's answer in a round: the search's next move for most (more in the
        second round), another square for the rest."""
        right = self.truth["answer"] if self.truth else 0
        squares = BOARD["rows"] * BOARD["cols"]
        chosen = self.sent[round] = {}
        for i, name in enumerate(self.names["A"]):
            wrong = (right + 1 + (i * round) % 7) % squares  # never the right square
            # Spread over the class, so that some go from right to wrong as well as the other way.
            share = ((i * SPREAD[round] + 11) % 100) < 100 * RIGHT_SHARE[round]
            chosen[name] = right if share else wrong
        return chosen

    def next_move(self, question):
        """Return the question's square, answer and kind as the search makes them (None: no question)."""
        if not isinstance(question.get("at"), int):
            self.problems.append(f"poll_open gave no question: {self.posed['ack']}")
            return None
        at = question["at"]
        codes = self.expected.prefix(BOARD["rows"], BOARD["cols"], STARTS["A"], BOARD["order"], at + 1)
        _, path = followed([("events", {"first": 0, "events": codes[:at]})])
        code = codes[at]
        if code == "found" or (code < 0 and len(path) < 2):
            self.problems.append(f"the question was posed where the search allows none: event {at} is {code}")
            return None
        # A visit's answer is its square; a backtrack's, the square the knight backs up to.
        truth = {"square": path[-1] if path else None, "answer": code, "kind": "visit"}
        if code < 0:
            truth.update(answer=path[-2], kind="back")
        return truth

    def check(self, everyone):
        """Note everything functionally wrong: in the clients' runs, the poll's messages and the log."""
        for peer in everyone.values():
            for problem in peer["problems"][:3]:
                self.problems.append(f"{peer['name']}: {problem}")
        for klass, instructor in INSTRUCTORS.items():
            expected = everyone[instructor]["events"]
            short = [n for n in self.names[klass] if everyone[n]["events"] != expected]
            if short:
                self.problems.append(
                    f"{len(short)} followers of {klass} hold another number of events than the "
                    f"instructor's {expected} (e.g. {short[:5]})"
                )
        question, result = self.question, self.revealed["ack"].get("result") or {}
        if self.truth:
            for key in ("square", "answer", "kind"):
                got = (question if key == "square" else result).get(key)
                if got != self.truth[key]:
                    self.problems.append(f"the question's {key} is {got}, the search's {self.truth[key]}")
        rounds = result.get("rounds") or []
        if len(rounds) != len(self.sent):
            self.problems.append(f"revealed {len(rounds)} rounds, {len(self.sent)} were asked")
        for round, sent in self.sent.items():
            counts = [[square, n] for square, n in sorted(Counter(sent.values()).items())]
            right = Counter(sent.values())[self.truth["answer"]] if self.truth else None
            got = rounds[round - 1] if len(rounds) >= round else {}
            if got.get("counts") != counts or got.get("answered") != len(self.names["A"]):
                self.problems.append(
                    f"round {round}: revealed {got.get('answered')} answers counted {got.get('counts')}; "
                    f"sent {counts}"
                )
            if got.get("right") != right:
                self.problems.append(
                    f"round {round}: revealed {got.get('right')} right answers, {right} sent"
                )
        if rounds and any(result.get(key) != rounds[-1].get(key) for key in ("counts", "answered", "right")):
            self.problems.append("the result's counts are not its last round's")
        if len(self.sent) == 2:
            pairs = Counter((self.sent[1][name], self.sent[2][name]) for name in self.names["A"])
            shift = [[was, now, n] for (was, now), n in sorted(pairs.items())]
            if result.get("shift") != shift:
                self.problems.append(f"the revealed shift is {result.get('shift')}, not {shift} as sent")
        for name in self.names["A"]:
            events = [(event, payload) for _, event, payload in self.seen[name]]
            stages = (
                [
                    ("poll_stage", {"id": question.get("id"), "stage": stage, "round": round})
                    for stage, round in (("discuss", 1), ("second", 2))
                ]
                if len(self.sent) == 2
                else []
            )
            wanted = [("poll_opened", question), *stages, ("poll_revealed", result)]
            if events != wanted:
                self.problems.append(
                    f"{name} got {[e for e, _ in events]} of the poll, not every message as sent"
                )
                break
        if any(self.seen[name] for name in self.names["B"]):
            self.problems.append("a follower of class B got class A's poll messages")
        if not self.counts or self.counts[-1][2].get("answered") != len(self.names["A"]):
            last = self.counts[-1][2] if self.counts else None
            self.problems.append(
                f"the instructor's last poll_count is {last}, not {len(self.names['A'])} answered"
            )
        self.check_log()

    def class_stream(self, everyone, klass, window):
        """Return a class's stream in a window (see Hall.stream)."""
        followers = [everyone[name] for name in self.names[klass]]
        return self.stream(
            followers, everyone[INSTRUCTORS[klass]], window, self.runs[klass], f"class {klass}"
        )

    def report(self):
        """Check what the clients received and return the figures as text."""
        args, everyone = self.args, self.peers()
        self.check(everyone)
        out = []
        say = out.append
        count, wall, waves = self.connected
        say(f"connect: {count} clients in {wall:.1f} s, in {waves} wave(s) a second apart")
        say(self.extensions_line(everyone))

        # The classes' streams, window by window.
        cores = 100 * len(os.sched_getaffinity(0))
        say(
            "\nstream delay (fan-out: follower's arrival less its instructor's, per batch), ms; "
            "lag: behind the follower's best-kept schedule, per event (a tick's batching included); "
            "events/s reaching each follower; pace: events received over events due; machine: "
            f"the server's CPU%, idle% of {cores}, and other% (busy time of no process measured "
            "here: far above 0, another program ran and the figures are not the server's alone)"
        )
        say(
            f"{'window':<10} {'secs':>5} {'server':>6} {'idle':>5} {'other':>5}  {'class':<11} "
            f"{'p50':>6} {'p95':>6} {'p99':>6} {'max':>6} {'batches':>8} {'lag p95':>7} {'max':>6} "
            f"{'ev/s each':>9} {'pace':>6}"
        )
        self.figures, self.machine = {}, {}
        for window_name, window in self.phases.items():
            figures = self.sampler.window(*window)
            if figures:
                self.machine[window_name] = figures
                cpu = figures["server_user"] + figures["server_sys"]
                machine = f"{cpu:>6.0f} {figures['idle']:>5.0f} {figures['other']:>5.0f}"
            else:
                machine = f"{'-':>6} {'-':>5} {'-':>5}"
            head = f"{window_name:<10} {window[1] - window[0]:>5.1f} {machine}  "
            for klass in INSTRUCTORS:
                if klass == "A" and window_name in WINDOWS.values():
                    say(f"{head}A x{len(self.names['A']):<8} (paused: a question is open)")
                elif klass == "A" and window_name == "verdicts":
                    say(f"{head}A x{len(self.names['A']):<8} (paused: its verdicts come in)")
                else:
                    s = self.figures[(klass, window_name)] = self.class_stream(everyone, klass, window)
                    say(
                        f"{head}{klass} x{len(self.names[klass]):<8} "
                        + " ".join(f"{s[q]:>6.1f}" for q in ("p50", "p95", "p99", "max"))
                        + f" {s['n']:>8} {s['lag95']:>7.1f} {s['lagmax']:>6.1f} "
                        f"{s['rate']:>9.1f} {s['pace']:>5.1f}%"
                    )
                head = " " * len(head)
        if self.machine:
            rss = max(figures["rss"] for figures in self.machine.values())
            threads = max(figures["threads"] for figures in self.machine.values())
            say(f"server: peak RSS {rss / 2**20:.0f} MB, {threads} threads")

        # The question's messages.
        pose_sent, reveal_sent = self.posed["sent"], self.revealed["sent"]
        opened = [
            stamp - pose_sent for n in self.names["A"] for stamp, e, _ in self.seen[n] if e == "poll_opened"
        ]
        shown = [
            stamp - reveal_sent
            for n in self.names["A"]
            for stamp, e, _ in self.seen[n]
            if e == "poll_revealed"
        ]
        at, run = self.question.get("at"), self.runs["A"]
        moved = []
        for name in self.names["A"]:
            peer = everyone[name]
            arrivals = [
                stamp
                for stamp, first, batch_run in zip(peer["stamps"], peer["firsts"], peer["runs"], strict=True)
                if batch_run == run and first == at
            ]
            if arrivals:
                moved.append(arrivals[0] - reveal_sent)
        if len(moved) != len(self.names["A"]):
            self.problems.append(
                f"the move asked about reached {len(moved)} of {len(self.names['A'])} followers"
            )
        n = len(self.names["A"])
        staged, stage_sent = [], self.staged["sent"] if self.staged else None
        if self.staged:
            staged = [
                stamp - self.staged["sent"]
                for name in self.names["A"]
                for stamp, e, payload in self.seen[name]
                if e == "poll_stage" and payload.get("stage") == "second"
            ]
        say(f"\nthe question (class A, {n:,} followers); ms from the instructor's or the student's send")
        say(f"{'step':<42} {'p50':>7} {'p95':>7} {'p99':>7} {'max':>7} {'arrived':>8}")
        self.poll = {}
        rows = (
            (
                "pose",
                f"poll_opened at every follower (ack {ms(self.posed['acked'] - pose_sent):.0f})",
                opened,
            ),
            *(
                (
                    f"answer{round}",
                    f"round {round}'s answer acks, {n:,} in {args.answer_seconds:g} s",
                    [t["acked"] - t["sent"] for t in answered.values() if t["acked"] is not None],
                )
                for round, answered in self.answered.items()
            ),
            *(
                [
                    (
                        "stage",
                        f"round 2 opened at every follower (ack {ms(self.staged['acked'] - stage_sent):.0f})",
                        staged,
                    )
                ]
                if self.staged
                else []
            ),
            (
                "reveal",
                f"poll_revealed at every follower (ack {ms(self.revealed['acked'] - reveal_sent):.0f})",
                shown,
            ),
            ("move", "the move revealed, at every follower", moved),
            (
                "verdict",
                f"code exercise verdict acks, {n:,} in {args.answer_seconds:g} s",
                [t["acked"] - t["sent"] for t in self.verdicted.values() if t["acked"] is not None],
            ),
        )
        for key, label, values in rows:
            s = self.poll[key] = spread(values)
            figures = " ".join(f"{s[q]:>7.1f}" for q in ("p50", "p95", "p99", "max"))
            say(f"{label:<42} {figures} {s['n']:>8,}")
        say(self.stalls())

        last_round = self.answered[max(self.answered)]
        acked = [t["acked"] for t in last_round.values() if t["acked"] is not None]
        first_sent = min(t["sent"] for t in last_round.values())
        last = self.counts[-1] if self.counts else (math.nan, None, {})
        span = max(acked, default=math.nan) - first_sent
        self.throttle = {
            "messages": sum(1 for stamp, _, _ in self.counts if stamp >= first_sent),
            "last": last[2].get("answered"),
            # One count as the first answer comes, then one every COUNT_EVERY until the last.
            "allowed": 1 + math.ceil(span / COUNT_EVERY),
            "late": ms(last[0] - max(acked, default=math.nan)),
        }
        t = self.throttle
        say(
            f"poll_count to the instructor: {t['messages']} messages over the {span:.2f} s of the last "
            f"round's answers (at most {t['allowed']} at one every {ms(COUNT_EVERY):.0f} ms), the last "
            f"{t['late']:.0f} ms after the last answer's ack, saying {t['last']} answered"
        )
        matched = sum(v["matched"] for v in self.sent_verdicts.values())
        tally = self.tallies[-1][2] if self.tallies else {}
        first = min(t["sent"] for t in self.verdicted.values())
        acked = [t["acked"] for t in self.verdicted.values() if t["acked"] is not None]
        self.tally = {
            "messages": sum(1 for stamp, _, _ in self.tallies if stamp >= first),
            "allowed": 1 + math.ceil((max(acked, default=math.nan) - first) / TALLY_EVERY),
            "sent": tally.get("sent"),
            "matched": tally.get("matched"),
        }
        if (tally.get("sent"), tally.get("matched")) != (n, matched):
            self.problems.append(
                f"the last exercise_count says {tally.get('sent')} sent, {tally.get('matched')} "
                f"matched, not {n} and {matched}"
            )
        t = self.tally
        say(
            f"exercise_count to the instructor: {t['messages']} messages (at most {t['allowed']} at one "
            f"every {ms(TALLY_EVERY):.0f} ms), the last saying {t['sent']} sent, {t['matched']} matched"
        )
        result = self.revealed["ack"].get("result") or {}
        say(
            f"revealed: {result.get('answered')} answered, {result.get('right')} right "
            f"({result.get('kind')} to {result.get('answer')} from {self.question.get('square')}, "
            f"after event {at})"
        )
        if result.get("moved"):
            rounds = ", ".join(
                f"round {i + 1} {r['right']} of {r['answered']} right" for i, r in enumerate(result["rounds"])
            )
            say(f"the rounds: {rounds}; moved {result['moved']}")
        say(self.verdicts())
        return "\n".join(out)

    def stalls(self, slow=0.05):
        """Say how many answers waited over `slow` s for their ack, and when: bunched, the server stalled."""
        start = self.phases["answering"][0]
        late = sorted(
            t["acked"]
            for answered in self.answered.values()
            for t in answered.values()
            if t["acked"] and t["acked"] - t["sent"] > slow
        )
        bursts = []
        for acked in late:
            if bursts and acked - bursts[-1][-1] < slow:
                bursts[-1].append(acked)
            else:
                bursts.append([acked])
        self.slow_acks = (len(late), len(bursts))
        if not late:
            return f"no answer waited over {ms(slow):.0f} ms for its ack"
        when = ", ".join(
            f"{len(b)} acked at {b[-1] - start:.2f} s" for b in bursts[:6]
        )  # from round 1's start
        return (
            f"answers that waited over {ms(slow):.0f} ms for their ack: {len(late)}, in {len(bursts)} "
            f"bunch(es) ({when} into the window): each bunch a moment the server answered nobody"
        )

    def verdicts(self):
        """Return the goals' lines, each met or not, with the ratios against the quiet window."""
        f, p, lines = self.figures, self.poll, ["\ngoals (against the quiet window of the same run):"]
        usual = f[("A", "quiet")]
        steps = (
            ("pose", "poll_opened"),
            ("stage", "round 2's poll_stage"),
            ("reveal", "poll_revealed"),
            ("move", "the move"),
        )
        for key, what in (step for step in steps if step[0] in p):
            lines.append(
                f"  {what} p95 {p[key]['p95']:.1f} ms, max {p[key]['max']:.1f} ms: "
                f"x{p[key]['p95'] / usual['p95']:.2f} "
                f"the class's stream p95 ({usual['p95']:.1f} ms), within its goal ({GOAL_P95_MS} ms): "
                f"{verdict(p[key]['p95'] < GOAL_P95_MS)}"
            )
        quiet = f[("B", "quiet")]
        for round, window in WINDOWS.items():
            if round not in self.answered:
                continue
            busy = f[("B", window)]
            extra = busy["p95"] - quiet["p95"]
            lines.append(
                f"  class B's lag behind its schedule, p95/max: {busy['lag95']:.1f}/{busy['lagmax']:.1f} ms "
                f"while A's round {round} answers come in, {quiet['lag95']:.1f}/{quiet['lagmax']:.1f} quiet"
            )
            lines.append(
                f"  class B's stream while A's round {round} answers come in: p50/p95/p99 {busy['p50']:.1f}/"
                f"{busy['p95']:.1f}/{busy['p99']:.1f} ms against {quiet['p50']:.1f}/{quiet['p95']:.1f}/"
                f"{quiet['p99']:.1f} quiet (p95 x{busy['p95'] / quiet['p95']:.2f}, {extra:+.1f} ms), "
                f"pace {busy['pace']:.1f}%; {busy['rate']:.1f} against {quiet['rate']:.1f} events/s each; "
                f"grows by under {GOAL_SKIP_EXTRA_MS} ms at p95: {verdict(extra < GOAL_SKIP_EXTRA_MS)}"
            )
            a = p[f"answer{round}"]
            lines.append(
                f"  round {round}'s answer acks p50/p95/max {a['p50']:.1f}/{a['p95']:.1f}/{a['max']:.1f} ms"
            )
        for klass in ("B",):
            busy, quiet = f[(klass, "verdicts")], f[(klass, "quiet")]
            extra = busy["p95"] - quiet["p95"]
            lines.append(
                f"  class {klass}'s stream while A's verdicts come in: p50/p95 {busy['p50']:.1f}/"
                f"{busy['p95']:.1f} ms against {quiet['p50']:.1f}/{quiet['p95']:.1f} quiet "
                f"({extra:+.1f} ms), pace {busy['pace']:.1f}%; "
                f"grows by under {GOAL_SKIP_EXTRA_MS} ms at p95: {verdict(extra < GOAL_SKIP_EXTRA_MS)}"
            )
        v = p["verdict"]
        lines.append(f"  the verdicts' acks p50/p95/max {v['p50']:.1f}/{v['p95']:.1f}/{v['max']:.1f} ms")
        tally = self.tally
        kept = tally["sent"] == len(self.names["A"]) and tally["messages"] <= tally["allowed"]
        lines.append(
            f"  the instructor's tally ends at {tally['sent']} in {tally['messages']} messages, at most "
            f"{tally['allowed']} allowed: {verdict(kept)}"
        )
        t = self.throttle
        lines.append(
            f"  the instructor's count of the last round ends at {t['last']} in {t['messages']} messages, "
            f"at most {t['allowed']} allowed: "
            f"{verdict(t['last'] == len(self.names['A']) and t['messages'] <= t['allowed'])}"
        )
        return "\n".join(lines)


def parse(argv):
    """Parse the command line; --quick sets smaller defaults that other options still override."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help="a smoke run: " + ", ".join(f"{key}={value}" for key, value in QUICK.items()),
    )
    parser.add_argument(
        "--followers", type=int, default=1000, help="class A's, who answer; half browser-like"
    )
    parser.add_argument("--others", type=int, default=100, help="class B's, whose stream plays on")
    parser.add_argument(
        "--follower-procs",
        type=int,
        help=f"load processes for class A's followers (default one per {FOLLOWERS_PER_PROC})",
    )
    parser.add_argument("--speed", type=float, default=30, help="events/s of both classes' runs")
    parser.add_argument("--quiet-seconds", type=float, default=8)
    parser.add_argument(
        "--answer-seconds", type=float, default=5, help="the window the answers are spread over"
    )
    parser.add_argument("--rounds", type=int, choices=(1, 2), default=2, help="the question's rounds")
    parser.add_argument("--discuss-seconds", type=float, default=2, help="the discussion between two rounds")
    parser.add_argument("--after-seconds", type=float, default=4)
    parser.add_argument(
        "--lead", type=float, default=1, help="seconds from posing to the first answer, and from revealing on"
    )
    parser.add_argument("--settle", type=float, default=1.5)
    parser.add_argument("--drain", type=float, default=1)
    parser.add_argument("--max-per-address", type=int, default=5000)
    parser.add_argument("--connect-burst", type=int, default=int(0.9 * HANDSHAKE_BURST))
    parser.add_argument("--connect-rate", type=int, default=int(0.9 * HANDSHAKE_RATE))
    if parser.parse_known_args(argv)[0].quick:
        parser.set_defaults(**QUICK)
    args = parser.parse_args(argv)
    if min(args.followers, args.others) < 1:
        parser.error("need at least one follower in each class")
    if args.follower_procs is None:
        args.follower_procs = math.ceil(args.followers / FOLLOWERS_PER_PROC)
    args.baseline = 0  # the hall's waves leave room for the classroom's baseline clients: none here
    return args


def main(argv=None):
    """Run the scenario, print its figures and checks; return the exit status."""
    args = parse(argv)
    print(
        f"Class questions: class A ({args.followers:,} followers, half browser-like) is asked its run's "
        f"next move and answers within {args.answer_seconds:g} s, in {args.rounds} round(s), "
        f"while class B ({args.others} followers) "
        f"plays on; both runs {BOARD['rows']}x{BOARD['cols']} {BOARD['order']} at {args.speed:g} events/s."
    )
    print(
        f"Machine: {os.cpu_count()} cores shared by the server and the load processes; "
        f"Python {sys.version.split()[0]}, python-socketio {metadata.version('python-socketio')}, "
        f"gunicorn {metadata.version('gunicorn')}, gevent {metadata.version('gevent')}"
    )
    return run_and_report(
        Polls(args),
        600 + 0.3 * args.followers,
        "functional checks: every follower got both runs' batches in order, equal to the "
        "instructor's and the search's; each of class A got poll_opened, the stages and "
        "poll_revealed once, as sent, and the move; the question and its result (each round, the "
        "shift) match the search and the answers sent; no refusals, no drops, no extension accepted",
    )


if __name__ == "__main__":
    sys.exit(main())
