"""The Socket.IO message queue of processes sharing Redis, which no run or handler waits for.

python-socketio's RedisManager publishes on the emitting thread, and with redis-py's defaults
waits for a hung Redis with no time limit: every run of every process froze with it. Here every
publish is handed to one publisher task through a short backlog. While Redis is slow or away,
what cannot be published is dropped, and the rooms it was for are noted as behind; once Redis
answers again, on_recovered(rooms) is called to bring them up to date. The listener reconnects
by itself, and calls on_subscribed() each time it is subscribed, since what was published
before never reached this process.
"""

import collections
import logging
import threading

import redis
import socketio
from redis.backoff import NoBackoff
from redis.retry import Retry

CHANNEL = "flask-socketio"  # Flask-SocketIO's channel: every process must use the same
BACKLOG = 1000  # messages waiting for Redis; more are dropped
FIRST_RETRY, LAST_RETRY = 0.1, 2.0  # seconds between attempts to reach Redis again, doubling
FAILURES = (redis.RedisError, OSError)

log = logging.getLogger(__name__)


def redis_options(timeout):
    """Return the options of a Redis client that waits for an answer at most timeout seconds."""
    # Retried once, and only when a connection was dropped: a pooled connection to a Redis that
    # restarted fails once, then a new one works. redis-py would otherwise retry ten times.
    return {
        "socket_timeout": timeout,
        "socket_connect_timeout": timeout,
        "retry": Retry(NoBackoff(), 1, supported_errors=(redis.ConnectionError,)),
    }


def retry_delays():
    """Yield the seconds to wait before each new attempt to reach Redis: doubling, then capped."""
    delay = FIRST_RETRY
    while True:
        yield delay
        delay = min(2 * delay, LAST_RETRY)


def subscription(connect, channel, sleep, subscribed):
    """Yield the messages published on a channel for ever, subscribing again after any failure."""
    # After a failure it waits longer each time. Each time it is subscribed, the first time
    # included, it calls subscribed(): what was published before never reached this process.
    # connect() returns a Redis client.
    delays, up, lost = retry_delays(), False, False
    while True:
        pubsub = connect().pubsub()  # with subscription confirmations: they mark each (re)subscription
        try:
            pubsub.subscribe(channel)
            for message in pubsub.listen():
                if message["type"] == "message":
                    yield message
                elif message["type"] == "subscribe":  # also when redis-py reconnected by itself
                    if lost:
                        log.warning("subscribed to %s again", channel)
                    up, lost, delays = True, False, retry_delays()
                    _call(subscribed)
        except FAILURES as exc:
            if up:
                log.warning("lost the subscription to %s (%s): subscribing again", channel, exc)
            up, lost = False, True
        finally:
            pubsub.close()
        sleep(next(delays))


def _rooms(data):
    """Return the rooms a message is emitted to (an emit may name one room or a list), none for the rest."""
    room = data.get("room") if data.get("method") == "emit" else None
    if room is None:
        return ()
    return tuple(room) if isinstance(room, list) else (room,)


def _call(hook, *args):
    # What a hook does must not end the task that calls it.
    try:
        hook(*args)
    except Exception:
        log.exception("a message queue hook failed")


class QueueManager(socketio.RedisManager):
    """A Redis client manager that publishes from a task of its own, dropping what it cannot send.

    on_recovered(rooms), on_subscribed() and on_heard(event, payload, room) (an emit from
    another process) are called from the manager's own tasks; they do nothing until set.
    """

    def __init__(self, url, timeout, backlog=BACKLOG):
        super().__init__(url, channel=CHANNEL, redis_options=redis_options(timeout))
        self.backlog = backlog
        self.on_recovered = lambda rooms: None
        self.on_subscribed = lambda: None
        self.on_heard = lambda event, payload, room: None
        self._pending = collections.deque()
        self._behind = set()  # rooms some message could not reach on other processes
        self._up = True
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._publisher = None  # its own client: the listener's reconnects must not disturb it

    def initialize(self):
        super().initialize()
        self.server.start_background_task(self._publish_pending)

    def catch_up(self, room):
        """Let messages reach a room's members on other processes again, starting with the next."""
        with self._lock:
            self._behind.discard(room)

    def _publish(self, data):
        rooms = _rooms(data)
        with self._lock:
            if self._up and self._behind.isdisjoint(rooms) and len(self._pending) < self.backlog:
                self._pending.append(data)
                self._wake.set()
                return
            # Once a room has missed a message, it gets none until it is brought up to date:
            # a later batch would reach it with a gap.
            self._behind.update(rooms)

    def _publish_pending(self):
        while True:
            self._wake.wait()
            self._wake.clear()
            while (data := self._next()) is not None:
                try:
                    self._client().publish(self.channel, self.json.dumps(data))
                except FAILURES as exc:
                    self._lost(data, exc)
                    self._wait_for_redis()
                except Exception:  # this message only: the publisher must go on
                    log.exception("cannot publish a message")
                    self._lost(data, None)
            if self._behind:
                self._recover()

    def _next(self):
        with self._lock:
            return self._pending.popleft() if self._pending else None

    def _client(self):
        if self._publisher is None:
            self._publisher = redis.Redis.from_url(self.redis_url, **self.redis_options)
        return self._publisher

    def _lost(self, data, exc):
        """Drop a message that could not be published, and (exc: Redis failed) what waits."""
        if exc is not None:
            log.warning("cannot publish to Redis (%s): other processes miss messages until it answers", exc)
        with self._lock:
            lost = [data]
            if exc is not None:
                self._up = False
                lost += self._pending
                self._pending.clear()
            for each in lost:
                self._behind.update(_rooms(each))

    def _wait_for_redis(self):
        for delay in retry_delays():
            self.server.sleep(delay)
            try:
                self._client().ping()
                return
            except FAILURES:
                continue

    def _recover(self):
        with self._lock:
            self._up = True
            rooms = set(self._behind)
        log.warning("publishing to Redis again: bringing %d room(s) up to date", len(rooms))
        _call(self.on_recovered, rooms)
        with self._lock:
            self._behind -= rooms

    def _redis_listen_with_retries(self):
        def connect():
            return redis.Redis.from_url(self.redis_url, **self.redis_options)

        yield from subscription(connect, self.channel, self.server.sleep, lambda: self.on_subscribed())

    def _handle_emit(self, message):
        # Heard before it is passed on: a page that acts on what it was sent (answers a question
        # it was just asked) must find this process knowing it already.
        if message.get("host_id") != self.host_id:
            data = message.get("data")
            payload = data[0] if isinstance(data, list) and len(data) == 1 else data
            _call(self.on_heard, message.get("event"), payload, message.get("room"))
        super()._handle_emit(message)


def queue_for(url, timeout):
    """Return the client manager for a message queue URL, or None (one process, no queue)."""
    return QueueManager(url, timeout) if url else None
