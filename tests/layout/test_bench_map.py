"""The benchmarks' map, read from their imports: a scenario (a script with a main()) imports
helpers (bench/hall.py, load.py, pages.py, prankster.py, processes.py, stats.py, common.py,
lab_cases.py), never
another scenario."""

import ast
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench"
TREES = {path.stem: ast.parse(path.read_text(), str(path)) for path in BENCH.glob("*.py")}


def is_scenario(tree):
    """Return whether a module is a script: a main() at its top, run under `if __name__ == "__main__"`."""
    has_main = any(isinstance(node, ast.FunctionDef) and node.name == "main" for node in tree.body)
    runs_main = any(
        isinstance(node, ast.If)
        and isinstance(node.test, ast.Compare)
        and isinstance(node.test.left, ast.Name)
        and node.test.left.id == "__name__"
        for node in tree.body
    )
    return has_main and runs_main


SCENARIOS = {name for name, tree in TREES.items() if is_scenario(tree)}


def imports(tree):
    """Return the bench modules a module imports, anywhere in it (bench/ is on a script's path)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            found.add(node.module.split(".")[0])
    return found & set(TREES)


def test_the_scenarios_are_told_from_the_helpers():
    scenarios = {"classroom", "polls", "hostile", "stream", "tree", "engine", "skip", "size", "refusals"}
    scenarios |= {"codelab", "wasm_python"}
    assert scenarios <= SCENARIOS
    assert not {"hall", "load", "pages", "prankster", "processes", "stats", "common", "lab_cases"} & SCENARIOS


def test_no_bench_module_imports_a_scenario():
    for name, tree in TREES.items():
        assert not imports(tree) & SCENARIOS, f"bench/{name}.py imports {sorted(imports(tree) & SCENARIOS)}"


def test_the_scenarios_share_the_hall():
    assert {"classroom", "polls", "hostile"} <= {
        name for name, tree in TREES.items() if "hall" in imports(tree)
    }
