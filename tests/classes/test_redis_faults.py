"""Server processes sharing classes through Redis, when Redis hangs, dies and comes back, and
when the process that owns a class dies.

Each test prints how long what a student sees lasted (run pytest with -s to read it).
"""

import time

from server.classes.directory import UNAVAILABLE
from tests.support.cluster import kill, kill_worker
from tests.support.replay import followed
from tests.support.replies import refused
from tests.support.waiting import wait_for

# Short enough for a test: a class key's life, and how often its owner renews it. A process
# waits for Redis at most a second, as in production.
FAST = ("--class-ttl", "3", "--class-heartbeat", "0.3")
# Far more events than any test takes to watch, at a pace a class follows event by event.
ENDLESS = {"rows": 8, "cols": 8, "start": 0, "order": "naive", "speed": 200}
OUTAGE_EVENTS = 300  # 1.5 s of a run at that pace: longer than a publish may wait
HANG_EVENTS = 700  # 3.5 s: longer than a class's key lives, too
FLUSHES = 5  # a process that took a missing key for a dead owner would end the class at the first
REFUSED = refused("class.unavailable", UNAVAILABLE)
NO_CLASS = refused("class.no_such_class", "there is no class with that code: check it with your instructor")


def open_class(teacher, *students):
    """Open a class led by teacher, have the students join it, and return its code."""
    opened = teacher.call("class_open")
    assert opened["ok"] is True, opened
    code = opened["code"]
    for student in students:
        assert student.call("class_join", {"code": code})["ok"] is True
    for student in students:
        assert wait_for(lambda student=student: student.named("class_state"), 10), "each is welcomed"
    return code


def arrivals(client, name, since):
    """Return when each event of one name reached a client after a moment (time.monotonic())."""
    return [at for at, event, _ in client.stamped() if event == name and at >= since]


def received_since(client, since):
    """Return (event, payload) of what reached a client after a moment."""
    return [(event, payload) for at, event, payload in client.stamped() if at >= since]


def first_after(client, moment):
    """Return when the first thing after a moment reached a client."""
    return min(at for at, _, _ in client.stamped() if at >= moment)


def last_before(client, moment):
    """Return when the last thing before a moment reached a client."""
    return max(at for at, _, _ in client.stamped() if at < moment)


def follows_live(student, since, events=50):
    """Wait for a student to get more events after a moment; check they line up with the state."""
    assert wait_for(lambda: len(followed(received_since(student, since))[0]) >= events, 10)
    try:
        _, path = followed(received_since(student, since))
    except AssertionError as error:
        raise AssertionError(f"{error}; the student got: {outline(student)}") from None
    assert path, "the student's board shows the run"


def outline(client):
    """Describe what reached a client, in order: each event's name and where it stands in the run."""
    parts = []
    for at, event, payload in client.stamped():
        if event == "events":
            where = f"{payload['first']}+{len(payload['events'])}"
        elif event in ("snapshot", "class_state"):
            snapshot = payload if event == "snapshot" else payload["snapshot"]
            where = f"@{snapshot['events']}" if snapshot else "@-"
        else:
            where = ""
        parts.append(f"{at:.2f} {event}{where}")
    return ", ".join(parts)


def report(title, **seconds):
    """Print measured durations, in seconds."""
    print(f"\n{title}: " + ", ".join(f"{name} {value:.2f} s" for name, value in seconds.items()))


# connect comes first so that its clients close after the processes have stopped.
def test_a_hung_redis_holds_up_no_run_and_the_class_catches_up(clusters, connect):
    cluster = clusters(2, *FAST)
    (first, second), redis = cluster.apps, cluster.redis
    teacher, here, there = connect(first.url), connect(first.url), connect(second.url)
    solos = [connect(first.url), connect(second.url)]
    open_class(teacher, here, there)
    beating = connect(second.url).call("class_open")["code"]  # shows the second process's heartbeats
    assert teacher.call("start", ENDLESS)["ok"] is True
    for solo in solos:
        assert solo.call("start", ENDLESS)["ok"] is True
    assert wait_for(lambda: there.count() > 0, 10)
    runs = [teacher, here, *solos]
    redis.pause()
    try:
        hung = time.monotonic()
        goals = [client.count() + HANG_EVENTS for client in runs]
        # Every run goes on, the class's included, for far longer than a publish may wait, and
        # than the class's key lives.
        assert wait_for(lambda: all(c.count() >= goal for c, goal in zip(runs, goals, strict=True)), 10)
        latecomer = connect(first.url)
        asked = time.monotonic()
        assert latecomer.call("class_open") == REFUSED
        refused_in = time.monotonic() - asked
    finally:
        redis.resume()
    resumed = time.monotonic()
    # The student on the other process is sent the class as it is now, then the run again.
    assert wait_for(lambda: arrivals(there, "class_state", hung), 10)
    caught_up = arrivals(there, "class_state", hung)[0]
    follows_live(there, caught_up)
    # The refused open left nothing behind.
    assert latecomer.call("class_open")["ok"] is True
    # The class's key expired while Redis hung, yet its students are not told it ended: its
    # owner puts it back before the other process's heartbeat takes it for gone.
    assert heartbeats(redis, beating, 4)
    assert there.named("class_ended") == []
    report(
        "Redis hung",
        hang=resumed - hung,
        class_open_refused_in=refused_in,
        remote_student_frozen=first_after(there, resumed) - last_before(there, resumed),
        caught_up_after_resume=caught_up - resumed,
    )


def test_class_operations_fail_clearly_while_redis_is_down_and_recover_by_themselves(clusters, connect):
    cluster = clusters(2, *FAST)
    (first, second), redis = cluster.apps, cluster.redis
    teacher, there, solo = connect(first.url), connect(second.url), connect(second.url)
    latecomer, newcomer = connect(first.url), connect(second.url)
    code = open_class(teacher, there)
    assert teacher.call("start", ENDLESS)["ok"] is True
    assert solo.call("start", ENDLESS)["ok"] is True
    assert wait_for(lambda: there.count() > 0, 10)
    redis.kill()
    died = time.monotonic()
    for _ in range(2):  # the same answer again: the first attempt registered nothing
        assert latecomer.call("class_open") == REFUSED
    assert newcomer.call("class_join", {"code": code}) == REFUSED
    solo_count = solo.count()
    assert wait_for(lambda: solo.count() >= solo_count + OUTAGE_EVENTS, 10), "a run of one's own goes on"
    redis.restart()
    back = time.monotonic()
    # The owner puts its class back in the empty Redis: a newcomer joins it through the other
    # process and is welcomed; the student who followed all along is sent the class again.
    assert wait_for(lambda: redis.has_class(code), 10)
    republished = time.monotonic()
    assert newcomer.call("class_join", {"code": code})["ok"] is True
    assert wait_for(lambda: newcomer.named("class_state"), 10)
    welcomed = arrivals(newcomer, "class_state", back)[0]
    assert wait_for(lambda: arrivals(there, "class_state", died), 10)
    caught_up = arrivals(there, "class_state", died)[0]
    follows_live(there, caught_up)
    follows_live(newcomer, welcomed)
    assert latecomer.call("class_open")["ok"] is True
    report(
        "Redis died and came back",
        down=back - died,
        class_back_in_redis_after=republished - back,
        newcomer_welcomed_after_join=welcomed - republished,
        remote_student_frozen=caught_up - last_before(there, caught_up),
        caught_up_after_restart=caught_up - back,
    )


def test_the_students_of_a_class_whose_server_died_are_told_and_its_code_expires(clusters, connect):
    cluster = clusters(2, *FAST)
    (first, second), redis = cluster.apps, cluster.redis
    teacher, there = connect(first.url), connect(second.url)
    code = open_class(teacher, there)
    assert teacher.call("start", ENDLESS)["ok"] is True
    assert wait_for(lambda: there.count() > 0, 10)
    kill(first)
    died = time.monotonic()
    # A student joining before the class's key expires is told too, never left waiting.
    newcomer = connect(second.url)
    joined = newcomer.call("class_join", {"code": code})
    assert joined["ok"] is True or joined == NO_CLASS
    assert wait_for(lambda: there.named("class_ended"), 15)
    told = arrivals(there, "class_ended", died)[0]
    assert there.named("class_ended") == [
        {"code": code, "why": "stopped", "reason": "the class's server stopped"}
    ]
    assert not joined["ok"] or wait_for(lambda: newcomer.named("class_ended"), 5)
    assert not redis.has_class(code)
    # The code names nothing now, and the student explores on their own board.
    assert connect(second.url).call("class_join", {"code": code}) == NO_CLASS
    assert there.call("start", {**ENDLESS, "rows": 5, "cols": 5})["ok"] is True
    report("Owner process killed", students_told_after=told - died)


def test_an_ended_class_is_forgotten_at_once_by_every_process(clusters, connect):
    cluster = clusters(2, *FAST)
    (first, second), redis = cluster.apps, cluster.redis
    teacher, there = connect(first.url), connect(second.url)
    code = open_class(teacher, there)
    ended = time.monotonic()
    assert teacher.call("class_end")["ok"] is True
    assert wait_for(lambda: there.named("class_ended"), 10)
    told = arrivals(there, "class_ended", ended)[0]
    assert not redis.has_class(code)
    # Neither the student who followed it nor anyone else can join it again through their process.
    assert there.call("class_join", {"code": code}) == NO_CLASS
    assert connect(second.url).call("class_join", {"code": code}) == NO_CLASS
    assert there.named("class_ended") == [
        {"code": code, "why": "ended", "reason": "the instructor ended the class"}
    ]
    report("Class ended", remote_student_told_after=told - ended)


def test_a_redis_that_loses_its_keys_ends_no_class(clusters, connect):
    cluster = clusters(2, *FAST)
    (first, second), redis = cluster.apps, cluster.redis
    teacher, there = connect(first.url), connect(second.url)
    code = open_class(teacher, there)
    beating = connect(second.url).call("class_open")["code"]  # shows the second process's heartbeats
    # Each time, just after the owner has renewed the class's key, the second process finds it
    # missing before its owner puts it back: missing once is no proof that the owner has gone.
    for _ in range(FLUSHES):
        assert heartbeats(redis, code, 1)
        redis.client.flushall()
        assert heartbeats(redis, beating, 3)
    assert redis.has_class(code)
    assert there.named("class_ended") == []


def heartbeats(redis, code, n):
    """Wait until the owner of a class has renewed its key n times; return whether it has."""
    key, seen = f"knights-tour:class:{code}", {"renewals": 0, "left": None}

    def renewed():
        left = redis.client.pttl(key)
        if seen["left"] is not None and left > seen["left"]:
            seen["renewals"] += 1
        seen["left"] = left
        return seen["renewals"] >= n

    return wait_for(renewed, 10)


def reached(url, connect, timeout=10):
    """Return a client connected to url once a server answers there (after a restart)."""
    client = {}

    def connected():
        try:
            client["it"] = connect(url)
        except Exception:  # not listening yet, or still booting its worker
            return False
        return True

    assert wait_for(connected, timeout), f"nothing answers at {url}"
    return client["it"]


# Default class keys and heartbeats: a class is taken back long before its dead owner's key expires.
def test_a_restarted_worker_gets_its_class_back_from_the_instructors_page(clusters, connect):
    cluster = clusters(2)
    (first, second), redis = cluster.apps, cluster.redis
    teacher, here, there = connect(first.url), connect(first.url), connect(second.url)
    opened = teacher.call("class_open")
    code, token, ticket = opened["code"], opened["token"], opened["ticket"]
    for student in (here, there):
        assert student.call("class_join", {"code": code, "ticket": ticket})["ok"] is True
    assert teacher.call("start", ENDLESS)["ok"] is True
    assert wait_for(lambda: there.count() > 0, 10)
    kill_worker(first)  # gunicorn starts another in its place
    died = time.monotonic()
    assert redis.has_class(code), "the dead worker's key lives on"
    # The pages on the dead worker reconnect to the new one: the instructor's claims its class.
    back = reached(first.url, connect)
    # Timed from the ask: the student may be told before the claim's answer is back here.
    asked = time.monotonic()
    answer = back.call("class_claim", {"code": code, "token": token})
    assert answer["ok"] is True and answer["run"] is None, answer
    # The student on the other process is told at once: the class is there, with no run.
    assert wait_for(lambda: arrivals(there, "class_state", asked), 5), outline(there)
    told = arrivals(there, "class_state", asked)[0]
    assert there.named("class_state")[-1]["run"] is None and there.named("class_ended") == []
    rejoined = connect(first.url)
    assert rejoined.call("class_join", {"code": code, "ticket": ticket})["ok"] is True
    assert wait_for(lambda: rejoined.named("class_state"), 5)
    # The class goes on: a new run reaches the students on both processes.
    assert back.call("start", {**ENDLESS, "rows": 5, "cols": 5, "speed": 0})["ok"] is True
    assert wait_for(lambda: rejoined.result and there.result, 30)
    assert redis.has_class(code)
    report("Owner worker killed", claimed_after=asked - died, remote_student_told_after=told - asked)


def test_a_claim_through_another_process_takes_the_class_over(clusters, connect):
    cluster = clusters(2)
    first, second = cluster.apps
    teacher, here, there = connect(first.url), connect(first.url), connect(second.url)
    opened = teacher.call("class_open")
    code, token = opened["code"], opened["token"]
    for student in (here, there):
        assert student.call("class_join", {"code": code})["ok"] is True
    assert teacher.call("start", ENDLESS)["ok"] is True
    assert wait_for(lambda: there.count() > 0, 10)
    # The instructor's page in another tab, which the balancer sent to the other process.
    tab = connect(second.url)
    taken = time.monotonic()
    assert tab.call("class_claim", {"code": code, "token": token})["ok"] is True
    assert wait_for(lambda: teacher.named("class_displaced"), 5), "the first process lets the class go"
    displaced = arrivals(teacher, "class_displaced", taken)[0]
    # Its run stops there; every student, on either process, now follows the class as led from the tab.
    for student in (here, there, teacher):
        assert wait_for(lambda student=student: arrivals(student, "class_state", taken), 5), outline(student)
        assert student.named("class_state")[-1]["run"] is None
    stopped = here.count()
    assert tab.call("start", {**ENDLESS, "rows": 5, "cols": 5, "speed": 0})["ok"] is True
    ok = wait_for(lambda: here.result and there.result and teacher.result, 30)
    assert ok, (outline(here), outline(there), outline(teacher))
    assert here.result["visits"] == there.result["visits"] == 5010 and stopped > 0
    # The page displaced is a student now: it cannot control the run.
    assert teacher.call("pause")["code"] == "class.following"
    report("Class taken over", first_process_let_go_after=displaced - taken)


# Default class keys and heartbeats, as docs/deployment.md promises them.
def test_a_killed_workers_class_whose_instructor_never_comes_back_ends_for_the_other_process(
    clusters, connect
):
    cluster = clusters(2)
    first, second = cluster.apps
    teacher, there = connect(first.url), connect(second.url)
    code = open_class(teacher, there)
    assert teacher.call("start", ENDLESS)["ok"] is True
    assert wait_for(lambda: there.count() > 0, 10)
    kill_worker(first)  # gunicorn starts another in its place; the instructor's page never comes back
    died = time.monotonic()
    teacher.close()
    # A student joining meanwhile through the other process is told the class waits for its instructor.
    newcomer = connect(second.url)
    joined = newcomer.call("class_join", {"code": code})
    assert joined["ok"] is True, joined
    waits = {"code": code, "state": "away", "speed": None}
    assert wait_for(lambda: newcomer.named("class_control") == [waits], 15), outline(newcomer)
    assert wait_for(lambda: there.named("class_ended"), 45), outline(there)
    told = arrivals(there, "class_ended", died)[0]
    assert there.named("class_ended") == [
        {"code": code, "why": "stopped", "reason": "the class's server stopped"}
    ]
    assert wait_for(lambda: newcomer.named("class_ended"), 10), outline(newcomer)
    report("Owner worker killed, its instructor gone", students_told_after=told - died)
