"""Where class sessions are known across server processes that share a Redis message queue.

With one process, every class is in that process's memory and this does nothing. With several,
the process where a class was opened owns it (its instructor and run live there); the others
learn of it here, and ask its owner to welcome the students who join through them.
"""

import json
import threading

CHANNEL = "knights-tour:welcome"
KEY = "knights-tour:class:{}"


class NoDirectory:
    """The directory of a single process: nothing to share."""

    def publish(self, code):
        pass

    def withdraw(self, code):
        pass

    def exists(self, code):
        return False

    def ask_welcome(self, code, sid):
        pass

    def listen(self, welcome):
        pass


class RedisDirectory:
    """The directory shared by processes through Redis: class codes, and welcome requests."""

    def __init__(self, url):
        import redis  # only needed when several processes share classes

        self.redis = redis.Redis.from_url(url)
        self._listening = None

    def publish(self, code):
        """Make a class opened here known to the other processes."""
        self.redis.set(KEY.format(code), "1")

    def withdraw(self, code):
        """Forget a class that has ended."""
        self.redis.delete(KEY.format(code))

    def exists(self, code):
        """Tell whether some process has a class with this code."""
        return bool(self.redis.exists(KEY.format(code)))

    def ask_welcome(self, code, sid):
        """Ask the class's owner to send a joining student the class's state."""
        self.redis.publish(CHANNEL, json.dumps({"code": code, "sid": sid}))

    def listen(self, welcome):
        """Answer welcome requests for the classes owned here, on a thread of its own."""
        if self._listening is not None:
            return
        pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        pubsub.subscribe(CHANNEL)

        def serve():
            for message in pubsub.listen():
                request = json.loads(message["data"])
                welcome(request["code"], request["sid"])

        self._listening = threading.Thread(target=serve, daemon=True, name="class-directory")
        self._listening.start()


def directory_for(url):
    """Return the directory for a message queue URL (or for none)."""
    return RedisDirectory(url) if url else NoDirectory()
