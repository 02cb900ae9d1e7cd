"""The server's map, read from its imports: packages that each own one thing, a run on its own
that needs nothing of classes, and imports that only run down."""

import ast
import functools
from pathlib import Path

from tests.support.maps import circle_through, floors

SERVER = Path(__file__).resolve().parents[2] / "server"


def name_of(path):
    """Return the dotted module name of a file under server/."""
    parts = path.relative_to(SERVER.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {name_of(path): path for path in SERVER.rglob("*.py")}


@functools.cache
def imports(module):
    """Return the server's modules that module imports (a package's submodule where one is named)."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join(anchor + ([node.module] if node.module else []))
            targets = [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base for alias in node.names
            ]
        else:
            continue
        found.update(target for target in targets if target in MODULES and target != module)
    return frozenset(found)


def reached(module):
    """Return every server module module imports, directly or through others."""
    seen, todo = set(), [module]
    while todo:
        for each in imports(todo.pop()):
            if each not in seen:
                seen.add(each)
                todo.append(each)
    return seen


def test_a_run_on_its_own_imports_nothing_of_classes_or_questions():
    alone = ("server.runs", "server.engine", "server.edge")
    for module in (name for name in MODULES if name.startswith(alone)):
        classy = {each for each in reached(module) if each.startswith("server.classes")}
        assert classy == set(), f"{module} reaches {sorted(classy)}"


def room(module):
    """Return the room a module is drawn in: its package below server/, or itself at the top."""
    parts = module.split(".")
    return ".".join(parts[:2]) if len(parts) > 2 or MODULES[module].name == "__init__.py" else module


ROOMS = {room(module) for module in MODULES}


@functools.cache
def doors(each):
    """Return the other rooms the modules of a room import."""
    return frozenset(room(m) for module in MODULES if room(module) == each for m in imports(module)) - {each}


def test_no_import_runs_back_up():
    # Only python -m server imports the factory; below it, the rooms' imports form no circle.
    assert {name for name in MODULES if "server" in imports(name)} <= {"server.__main__"}
    circle = circle_through(ROOMS, doors)
    assert circle is None, f"{circle} imports itself through other rooms"


def test_the_floors_are_few():
    assert floors(ROOMS, doors) <= 7


def test_the_top_level_keeps_few_modules():
    top = [path.name for path in SERVER.glob("*.py")]
    assert len(top) <= 10, top


def registers_handlers(module):
    """Tell whether a module registers Socket.IO event handlers (a function decorated socketio.on...)."""
    path = MODULES[module]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for decorator in node.decorator_list:
                target = decorator.func if isinstance(decorator, ast.Call) else decorator
                if (
                    isinstance(target, ast.Attribute)
                    and isinstance(target.value, ast.Name)
                    and target.value.id == "socketio"
                    and target.attr.startswith("on")
                ):
                    return True
    return False


HANDLERS = frozenset(module for module in MODULES if registers_handlers(module))


def test_no_handler_module_imports_another():
    # What handlers share lives below them, in modules of its own: a feature's handlers can be
    # read, moved or dropped without the others'.
    assert {"server.connection", "server.classes.events", "server.runs.events"} <= HANDLERS
    for module in HANDLERS:
        others = imports(module) & HANDLERS - {module}
        assert not others, f"{module} imports the handler modules {sorted(others)}"
