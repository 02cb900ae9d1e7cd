"""Servers the tests and benchmarks start: the app in a thread, or whole processes."""

import os
import resource
import socket
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from werkzeug.serving import WSGIRequestHandler, make_server

from server.edge.farewell import say_goodbye
from server.runs.registry import runs

from .process import Worker
from .waiting import wait_for


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


def start_listening(command, tries=3, **popen_options):
    """Start the process command(port) on a free port; return it and its port once it listens."""
    # A port free when probed may be taken before the process binds it: then try another.
    for attempt in range(tries):
        port = free_port()
        process = subprocess.Popen(command(port), **popen_options)
        try:
            wait_until_listening(port, process)
            return process, port
        except AssertionError:
            stop_processes([process])
            if attempt == tries - 1:
                raise


class RequestHandler(WSGIRequestHandler):
    """Werkzeug's request handler, closing a connection once the WebSocket on it has ended."""

    # Werkzeug would otherwise read on for another HTTP request, taking the client's closing
    # frames for one and holding its thread until the client drops the connection: after
    # 3 s for a python-socketio client, which waits for a close frame that Werkzeug swallowed.
    def run_wsgi(self):
        """Handle the request; end the connection after it if it was a WebSocket."""
        try:
            super().run_wsgi()
        finally:
            if self.headers.get("Upgrade", "").lower() == "websocket":
                self.close_connection = True


class LiveServer:
    """An app served by a real threaded HTTP server on a free loopback port.

    Serve one app at a time: the server's background emits go through the one SocketIO
    object, which serves the app created last.
    """

    def __init__(self, app, request_handler=RequestHandler):
        self.app = app
        self.httpd = make_server("127.0.0.1", 0, app, threaded=True, request_handler=request_handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_port}"
        # A short poll interval makes shutdown() return within 50 ms instead of 500 ms.
        self.thread = threading.Thread(
            target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True, name="live-server"
        )
        self.thread.start()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def active_runs(self):
        """Return how many runs the app has alive."""
        return len(self.app.extensions["knights_tour_runs"])

    def close(self):
        """Say goodbye to the pages still connected, as a stopping server does; stop serving, and
        stop Engine.IO's service thread."""
        say_goodbye(self.app)
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(5)
        # Engine.IO starts a service thread with its first connection, and stops it only when
        # asked; the thread makes the event that stops it, so wait until it exists.
        engineio = self.app.extensions["socketio"].server.eio
        if engineio.service_task_handle is not None:
            wait_for(lambda: engineio.service_task_event is not None, 5)
            engineio.shutdown()
        runs(self.app).close()  # its helper processes, if it has any


class OtherSite:
    """Another site's pages (a course page, say), served on a free port of localhost.

    Its address is localhost's, not 127.0.0.1's as the app's is: another origin and another
    site, as a page of a course's own web server is to the app. pages maps paths to HTML.
    """

    def __init__(self):
        self.pages = {}
        pages = self.pages

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                html = pages.get(self.path)
                body = (html or "not found").encode()
                self.send_response(200 if html else 404)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://localhost:{self.httpd.server_port}"
        self.thread = threading.Thread(
            target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True, name="other-site"
        )
        self.thread.start()

    def close(self):
        """Stop serving; wait for the requests under way."""
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


def wait_until_serving(port, seconds=15):
    """Wait until the server on a loopback port answers a request for its page."""
    # The master listens before its worker has imported the app: a request waits in the queue.
    with socket.create_connection(("127.0.0.1", port), timeout=seconds) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        answer = sock.recv(64)
    if not answer.startswith(b"HTTP/1.1 200"):
        raise AssertionError(f"the server answered {answer!r}")


class ProductionServer:
    """`python -m server` (gunicorn with one gevent worker) on a free loopback port.

    args are extra command-line options; the server's output goes to log_path; open_files, if
    given, is the (soft, hard) limit of open files it starts under. close() stops it.
    """

    def __init__(self, args=(), *, log_path, cwd=None, open_files=None):
        self.args = list(args)
        self.log_path = Path(log_path)
        self.cwd = cwd
        self.open_files = open_files
        with open(self.log_path, "wb") as log:  # the child keeps its own copy of the descriptor
            self.process, self.port = start_listening(self._command, **self._options(log))
        self.url = f"http://127.0.0.1:{self.port}"
        self._serving()

    def _command(self, port):
        return [sys.executable, "-m", "server", "--port", str(port), *self.args]

    def _limit_open_files(self):
        resource.setrlimit(resource.RLIMIT_NOFILE, self.open_files)

    def _options(self, log):
        return {
            "preexec_fn": self._limit_open_files if self.open_files else None,
            "cwd": self.cwd,
            "env": {**os.environ, "PYTHONUNBUFFERED": "1"},
            "stdin": subprocess.DEVNULL,
            "stdout": log,
            "stderr": subprocess.STDOUT,
        }

    def _serving(self):
        try:
            self.worker = Worker.of(self.process.pid)
            wait_until_serving(self.port)
        except BaseException:
            self.close()
            raise

    def restart(self):
        """Stop the server and start it again on the same port, as a deploy or a crash does."""
        self.close()
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen(self._command(self.port), **self._options(log))
        wait_until_listening(self.port, self.process)
        self._serving()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def log(self):
        """Return what the server has written so far."""
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def close(self):
        """Stop the server (again, harmlessly, if it has stopped)."""
        stop_processes([self.process])
