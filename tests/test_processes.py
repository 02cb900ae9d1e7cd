"""Several server processes sharing classes through Redis: an instructor on one, a student on another."""

import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import redis

from server.engine.graph import knight_graph
from server.engine.search import knight_tour
from server.wire import encode

from .conftest import wait_for
from .test_classroom import RUN, Client

ROOT = Path(__file__).resolve().parent.parent


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_until_listening(port, process, seconds=15):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        assert process.poll() is None, "the process ended early"
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise AssertionError(f"nothing listens on port {port}")


@pytest.fixture
def cluster(tmp_path):
    """Start a Redis server and two app processes that share it; yield the apps' URLs."""
    server = shutil.which("redis-server")
    if server is None:
        pytest.fail("redis-server is not installed: run `make test`, which installs it")
    processes = []
    try:
        redis_port = free_port()
        processes.append(
            subprocess.Popen(
                [
                    server,
                    "--port",
                    str(redis_port),
                    "--bind",
                    "127.0.0.1",
                    "--save",
                    "",
                    "--appendonly",
                    "no",
                    "--dir",
                    str(tmp_path),
                ],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        )
        wait_until_listening(redis_port, processes[-1])
        queue = f"redis://127.0.0.1:{redis_port}/0"
        urls = []
        for _ in range(2):
            port = free_port()
            processes.append(
                subprocess.Popen(
                    [sys.executable, "-m", "server", "--port", str(port), "--message-queue", queue],
                    cwd=ROOT,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    env={**os.environ, "PYTHONUNBUFFERED": "1"},
                )
            )
            wait_until_listening(port, processes[-1])
            urls.append(f"http://127.0.0.1:{port}")
        yield urls, redis.Redis.from_url(queue)
    finally:
        for process in reversed(processes):
            process.terminate()
        for process in processes:
            process.wait(10)


def test_a_student_on_another_process_follows_the_class_live(cluster):
    (first, second), shared = cluster
    teacher, student = Client(first), Client(second)
    try:
        answer = teacher.call("class_open")
        code = answer["code"]
        assert shared.exists(f"knights-tour:class:{code}")
        assert student.call("class_join", {"code": code}) == {"ok": True, "code": code}
        assert wait_for(lambda: student.named("class_state"), 10), "the owner welcomes the student"
        teacher.call("start", RUN)
        assert wait_for(lambda: student.named("finished"), 30)
        codes, path = student.codes()
        assert codes == encode(list(knight_tour(knight_graph(5, 5), 0)))
        assert student.named("finished")[0]["path"] == path
        # The student cannot take control through its own process either.
        refused = student.call("pause")
        assert refused["ok"] is False and "only its instructor controls the run" in refused["error"]
        # Ending the class reaches the student, whose own process then lets it explore.
        assert teacher.call("class_end")["ok"] is True
        assert wait_for(lambda: student.named("class_ended"), 10)
        assert not shared.exists(f"knights-tour:class:{code}")
        assert student.call("start", {**RUN, "speed": 0})["ok"] is True
    finally:
        teacher.close()
        student.close()
