"""Redis and `python -m server` processes sharing it, and the faults a test can make them have."""

import shutil
import signal
import subprocess

import psutil
import redis

from .servers import ProductionServer, start_listening, stop_processes, wait_until_listening

QUIET = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
KEY = "knights-tour:class:{}"  # a class's key in Redis, as server/classes/directory.py names it


class RedisProcess:
    """A redis-server on a loopback port: it can hang (SIGSTOP), and die and come back empty."""

    def __init__(self, directory):
        self.binary = shutil.which("redis-server")
        if self.binary is None:
            raise AssertionError("redis-server is not installed: run `make test`, which installs it")
        self.directory = directory
        self.process, self.port = start_listening(self._command, **QUIET)
        self.url = f"redis://127.0.0.1:{self.port}/0"
        # The test's own view of Redis, never waiting long for it.
        self.client = redis.Redis.from_url(self.url, socket_timeout=2, socket_connect_timeout=2)

    def _command(self, port):
        return [self.binary, "--port", str(port), "--bind", "127.0.0.1", "--save", ""] + [
            *("--appendonly", "no", "--dir", str(self.directory))
        ]

    def has_class(self, code):
        """Tell whether Redis holds the key of a class."""
        return bool(self.client.exists(KEY.format(code)))

    def pause(self):
        """Make Redis hang: it keeps its connections and answers nothing."""
        self.process.send_signal(signal.SIGSTOP)

    def resume(self):
        """Let a hung Redis go on."""
        self.process.send_signal(signal.SIGCONT)

    def kill(self):
        """Kill Redis: its connections drop, and what it held is lost."""
        self.process.kill()
        self.process.wait(10)

    def restart(self):
        """Start an empty Redis on the same port again."""
        self.process = subprocess.Popen(self._command(self.port), **QUIET)
        wait_until_listening(self.port, self.process)

    def close(self):
        """Stop Redis, hung or not."""
        self.client.close()
        if self.process.poll() is None:
            self.resume()  # a stopped process would not take SIGTERM until continued
        stop_processes([self.process])


class Cluster:
    """Redis and n `python -m server` processes sharing it, with extra options args each."""

    def __init__(self, directory, n, args, cwd):
        self.redis = RedisProcess(directory)
        self.apps = []
        try:
            for number in range(1, n + 1):
                self.apps.append(
                    ProductionServer(
                        ["--message-queue", self.redis.url, *args],
                        log_path=directory / f"server-{number}.log",
                        cwd=cwd,
                    )
                )
        except BaseException:
            self.close()
            raise

    def close(self):
        """Stop every process (the app servers first, then Redis)."""
        for app in self.apps:
            # gunicorn's quick shutdown: SIGTERM would let open connections finish for 5 s.
            if app.process.poll() is None:
                app.process.send_signal(signal.SIGINT)
        stop_processes([app.process for app in self.apps])
        for app in self.apps:
            kill_worker(app)
        self.redis.close()


def kill(app):
    """Kill an app server and its worker at once, as a crash or an out-of-memory kill would."""
    app.process.send_signal(signal.SIGKILL)  # first, or it would start another worker
    app.process.wait(10)
    kill_worker(app)


def kill_worker(app):
    """Kill an app server's worker if it outlived its master."""
    try:
        app.worker.process.kill()  # psutil's: never another process that took the same pid
    except psutil.NoSuchProcess:
        pass
