"""Where class sessions are known across server processes that share a Redis message queue.

With one process, every class is in that process's memory and this does nothing. With several,
the process where a class was opened owns it (its instructor and run live there); the others
learn of it here, ask its owner to welcome the students who join through them, and pass on
their students' answers to its questions (see questions/events.py).

A class's key names its owner and expires unless its owner renews it: the classes of a process
that died go away by themselves, unless their instructor's page claims them first through another
process (or the one gunicorn started in the dead one's place), which then owns them. An owner
that finds its key taken lets its class go. Each process also holds a lease of its own, a key
renewed every heartbeat that lives a few heartbeats: a class whose owner's lease has lapsed has
lost its server, even while the class's own key lives on. Every call waits for Redis at most a timeout; one
that fails raises Unavailable, whose message a handler sends back.
"""

import json
import logging
import secrets
import time

import redis

from ..message_queue import FAILURES, redis_options, subscription
from ..replies import Refusal

CHANNEL = "knights-tour:welcome"
KEY = "knights-tour:class:{}"
ENDED_KEY = "knights-tour:ended:{}:{}"
LEASE_KEY = "knights-tour:process:{}"  # a process's lease: there while it lives
STUDENTS_KEY = "knights-tour:students:{}"  # a hash: process -> "<students there> <when counted>"
ENDED_TTL_SECONDS = 30 * 24 * 3600  # how long an ended class's token and tickets are refused
UNAVAILABLE = (
    "classes are unavailable right now: the server cannot reach its message queue; try again in a moment"
)

log = logging.getLogger(__name__)


class Unavailable(Refusal):
    """Redis did not answer: classes cannot be opened or joined across processes now."""

    def __init__(self):
        super().__init__("class.unavailable", UNAVAILABLE)


# Renew the keys of the classes a process owns (KEYS; ARGV: its id, then the keys' life in
# milliseconds), putting back those Redis lost; return the keys another process owns now.
RENEW = """
local taken = {}
for _, key in ipairs(KEYS) do
    local owner = redis.call('GET', key)
    if owner == false or owner == ARGV[1] then
        redis.call('SET', key, ARGV[1], 'PX', ARGV[2])
    else
        table.insert(taken, key)
    end
end
return taken
"""


# Delete a class's key (KEYS[1]) if it still names the process ARGV[1]: one whose lease lapsed.
BURY = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
    return redis.call('DEL', KEYS[1])
end
return 0
"""


class NoDirectory:
    """The directory of a single process: nothing to share."""

    def publish(self, code):
        pass

    def renew(self, codes):
        return set()

    def lease(self):
        pass

    def withdraw(self, code, nonce):
        pass

    def exists(self, code):
        return False

    def ended(self, code, nonce):
        return False

    def missing(self, codes):
        return set()

    def bury(self, code):
        pass

    def count_students(self, counts):
        pass

    def students(self, code):
        return 0

    def ask_welcome(self, code, sid=None):
        pass

    def vote(self, code, voter, id, square):
        pass

    def enter(self, code, voter, order, name, title=None):
        pass

    def verdict(self, code, voter, verdict):
        pass


class RedisDirectory:
    """The directory shared by processes through Redis: class codes, welcome requests and answers."""

    def __init__(self, url, ttl, timeout, lease=None):
        self.redis = redis.Redis.from_url(url, **redis_options(timeout))
        self.ttl_ms = int(ttl * 1000)
        self.lease_ms = int((lease or ttl) * 1000)
        self.owner = secrets.token_hex(8)  # this process's, in the keys of the classes it owns
        self._renew = self.redis.register_script(RENEW)
        self._bury = self.redis.register_script(BURY)
        self._dead = {}  # code -> the process its key names, whose lease has lapsed

    def _ask(self, command):
        try:
            return command()
        except FAILURES as exc:
            log.warning("the class directory cannot reach Redis (%s)", exc)
            raise Unavailable() from exc

    def publish(self, code):
        """Make a class led here known to the other processes, for ttl seconds; if another
        process owned it, tell that one it is led from here now."""
        self.lease()  # before the class is known: its owner lives, from the start
        previous = self._ask(lambda: self.redis.set(KEY.format(code), self.owner, px=self.ttl_ms, get=True))
        if previous is not None and previous.decode() != self.owner:
            self._ask(lambda: self.redis.publish(CHANNEL, json.dumps({"code": code, "taken": self.owner})))

    def renew(self, codes):
        """Keep the classes owned here known for ttl seconds more (again, if Redis lost them);
        return those that another process owns now."""
        codes = list(codes)
        if not codes:
            return set()
        keys = [KEY.format(code) for code in codes]
        taken = self._ask(lambda: self._renew(keys=keys, args=[self.owner, self.ttl_ms]))
        return {code for code, key in zip(codes, keys, strict=True) if key.encode() in taken}

    def lease(self):
        """Say this process lives, for its lease's life more."""
        self._ask(lambda: self.redis.set(LEASE_KEY.format(self.owner), "1", px=self.lease_ms))

    def withdraw(self, code, nonce):
        """Forget a class that has ended, and remember that it has (if Redis is away, its key
        expires by itself, and only the process that ended it remembers)."""
        try:
            pipe = self.redis.pipeline(transaction=False)
            pipe.delete(KEY.format(code))
            pipe.set(ENDED_KEY.format(code, nonce), "1", ex=ENDED_TTL_SECONDS)
            pipe.execute()
        except FAILURES as exc:
            log.warning("cannot withdraw class %s (%s): its key will expire", code, exc)

    def ended(self, code, nonce):
        """Tell whether a process ended the class of this code and nonce."""
        return bool(self._ask(lambda: self.redis.exists(ENDED_KEY.format(code, nonce))))

    def exists(self, code):
        """Tell whether some process has a class with this code."""
        return bool(self._ask(lambda: self.redis.exists(KEY.format(code))))

    def missing(self, codes):
        """Return the codes among these that no living process has now: their key is gone, or
        the lease of the process it names has lapsed (it was killed, and its key lives on)."""
        codes = list(codes)
        if not codes:
            return set()
        pipe = self.redis.pipeline(transaction=False)
        for code in codes:
            pipe.get(KEY.format(code))
        owners = dict(zip(codes, self._ask(pipe.execute), strict=True))
        held = {code: owner.decode() for code, owner in owners.items() if owner is not None}
        pipe = self.redis.pipeline(transaction=False)
        for owner in held.values():
            pipe.exists(LEASE_KEY.format(owner))
        alive = dict(zip(held, self._ask(pipe.execute), strict=True))
        self._dead = {code: owner for code, owner in held.items() if not alive[code]}
        return {code for code in codes if not alive.get(code)}

    def bury(self, code):
        """Delete the key of a class whose owner's lease lapsed (unless another process owns it
        now), so that its code names no class: a page that joins is told there is none."""
        owner = self._dead.pop(code, None)
        if owner is not None:
            self._ask(lambda: self._bury(keys=[KEY.format(code)], args=[owner]))

    def count_students(self, counts):
        """Tell the owners how many students follow their classes through this process ({code: n})."""
        if not counts:
            return
        now = time.time()
        pipe = self.redis.pipeline(transaction=False)
        for code, n in counts.items():
            pipe.hset(STUDENTS_KEY.format(code), self.owner, f"{n} {now}")
            pipe.pexpire(STUDENTS_KEY.format(code), self.ttl_ms)
        self._ask(pipe.execute)

    def students(self, code):
        """Return how many students follow a class through the other processes, as they last told."""
        fresh = time.time() - self.ttl_ms / 1000
        counted = self._ask(lambda: self.redis.hvals(STUDENTS_KEY.format(code)))
        # A process that died stops telling: its count is dropped once it is older than a key lives.
        return sum(
            int(n) for n, when in (value.decode().split() for value in counted) if float(when) >= fresh
        )

    def ask_welcome(self, code, sid=None):
        """Ask a class's owner to send its state to a joining student (None: to all it has here)."""
        self._ask(lambda: self.redis.publish(CHANNEL, json.dumps({"code": code, "sid": sid})))

    def vote(self, code, voter, id, square, sure=None, round=None):
        """Pass a student's answer to question id of a class on to the class's owner."""
        message = {"code": code, "voter": voter, "id": id, "square": square, "sure": sure, "round": round}
        self._ask(lambda: self.redis.publish(CHANNEL, json.dumps(message)))

    def enter(self, code, voter, order, name, title=None):
        """Pass a student's entry in a class's tournament on to the class's owner."""
        message = {"code": code, "voter": voter, "order": order, "name": name, "title": title}
        self._ask(lambda: self.redis.publish(CHANNEL, json.dumps(message)))

    def verdict(self, code, voter, verdict):
        """Pass a student's verdict on a class's code exercise on to the class's owner."""
        message = {"code": code, "voter": voter, "verdict": verdict}
        self._ask(lambda: self.redis.publish(CHANNEL, json.dumps(message)))

    def serve(self, welcome, subscribed, sleep, vote=None, taken=None, enter=None, verdict=None):
        """Answer welcome requests, count answers, take entries and verdicts and let go of classes
        another process took, for ever; call subscribed() each time the subscription starts."""
        vote = vote or (lambda code, voter, id, square, sure, round: None)
        taken = taken or (lambda code: None)
        enter = enter or (lambda code, voter, order, name, title: None)
        verdict = verdict or (lambda code, voter, verdict: None)
        handlers = welcome, vote, taken, enter, verdict
        for message in subscription(lambda: self.redis, CHANNEL, sleep, subscribed):
            _safely(lambda data=message["data"]: self._dispatch(json.loads(data), *handlers))

    def _dispatch(self, request, welcome, vote, taken, enter, verdict):
        # An answer names its voter; a welcome request, as before answers were passed on, does not.
        if "verdict" in request:  # a verdict on a code exercise: a voter's too
            verdict(request["code"], request["voter"], request["verdict"])
        elif "order" in request:  # an entry: a voter's too
            enter(request["code"], request["voter"], request["order"], request["name"], request.get("title"))
        elif "voter" in request:
            vote(
                request["code"],
                request["voter"],
                request["id"],
                request["square"],
                request.get("sure"),
                request.get("round"),
            )
        elif "taken" in request:
            if request["taken"] != self.owner:
                taken(request["code"])
        else:
            welcome(code=request["code"], sid=request.get("sid"))


def _safely(call):
    # The listener must outlive whatever one request does.
    try:
        call()
    except Exception:
        log.exception("a class directory request failed")


def directory_for(url, ttl, timeout, lease=None):
    """Return the directory for a message queue URL (or for none); lease: the seconds a
    process's lease lives (ttl if None)."""
    return RedisDirectory(url, ttl, timeout, lease) if url else NoDirectory()
