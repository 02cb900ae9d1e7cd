"""Servers the tests and benchmarks start: the app in a thread, or whole processes."""

import socket
import subprocess
import threading
import time

from werkzeug.serving import make_server


def free_port():
    """Return a loopback port that is free now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_until_listening(port, process=None, seconds=15):
    """Wait until something accepts connections on a loopback port (and process still runs)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise AssertionError(f"the process ended early (exit {process.returncode})")
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise AssertionError(f"nothing listens on port {port}")


class LiveServer:
    """An app served by a real threaded HTTP server on a free loopback port."""

    def __init__(self, app):
        self.app = app
        self.httpd = make_server("127.0.0.1", 0, app, threaded=True)
        self.url = f"http://127.0.0.1:{self.httpd.server_port}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True, name="live-server")
        self.thread.start()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def active_runs(self):
        """Return how many runs the app has alive."""
        return len(self.app.extensions["knights_tour_runs"])

    def close(self):
        """Stop serving and wait for the serving thread to end."""
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(5)


def stop_processes(processes, timeout=10):
    """Terminate processes (last started first) and wait for each; kill any that hang."""
    for process in reversed(processes):
        if process.poll() is None:
            process.terminate()
    for process in processes:
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout)
