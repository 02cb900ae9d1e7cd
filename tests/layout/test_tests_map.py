"""The tests' map: tests in folders shaped like what they test, each importing only the code and
tests/support, never another test module."""

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
MODULES = [path for path in TESTS.rglob("*.py") if "artifacts" not in path.parts]


def imported(path):
    """Return the dotted names a module imports."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def test_no_test_module_imports_another():
    for path in MODULES:
        tests = {name for name in imported(path) if any(part.startswith("test_") for part in name.split("."))}
        assert tests == set(), (
            f"{path.relative_to(TESTS)} imports {sorted(tests)}: move what is shared to tests/support"
        )


def test_the_tests_stand_in_folders():
    top = sorted(path.name for path in TESTS.glob("test_*.py"))
    assert top == [], f"tests at the top of tests/: {top}"


def test_every_folder_of_tests_is_a_package():
    # Two test modules of one name in two folders are told apart only by their packages.
    for folder in {path.parent for path in MODULES if path.name.startswith("test_")}:
        assert (folder / "__init__.py").exists(), f"{folder.relative_to(TESTS)} has no __init__.py"
