"""The engine's boundary: it runs with nothing of Flask, sockets or the server around it."""

import subprocess
import sys
from pathlib import Path

SERVER = Path(__file__).resolve().parents[2] / "server"

# Load server/engine as a top-level package, so that server/__init__.py (which does import
# Flask) is not run, then run a search and list what the engine imported.
PROBE = """
import sys
sys.path.insert(0, sys.argv[1])
import engine
search = engine.Search(engine.knight_graph(5, 5), 0, "warnsdorff")
assert sum(1 for _ in search) == 26
print(" ".join(sorted(sys.modules)))
"""


def test_the_engine_imports_neither_flask_nor_the_server():
    probe = subprocess.run(
        [sys.executable, "-I", "-c", PROBE, str(SERVER)], capture_output=True, text=True, check=True
    )
    loaded = set(probe.stdout.split())
    assert "engine.search" in loaded
    outside = {
        name
        for name in loaded
        if name.split(".")[0] in {"flask", "flask_socketio", "socketio", "engineio", "werkzeug", "server"}
    }
    assert outside == set()
