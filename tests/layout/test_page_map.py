"""The page's map, read from its modules' imports: folders that each own one thing, a top level
that stays small, and imports that only run down."""

import functools
import re
from pathlib import Path

from tests.support.maps import circle_through, floors

PAGE = Path(__file__).resolve().parents[2] / "static" / "js"

# `import ... from "x"` and `export ... from "x"` (over lines, as a long list of names wraps), a
# bare `import "x"`, and `import("x")` with the name written out.
IMPORT = re.compile(
    r"""\b(?:import|export)\s[^;"'`]*?\bfrom\s*["']([^"']+)["']"""
    r"""|\bimport\s*\(?\s*["']([^"']+)["']"""
)

MODULES = {path.relative_to(PAGE).as_posix(): path for path in PAGE.rglob("*.js")}


@functools.cache
def imports(module):
    """Return the page's modules that module imports (the libraries under /vendor/ are not the page's)."""
    found = set()
    for match in IMPORT.finditer(MODULES[module].read_text()):
        name = match.group(1) or match.group(2)
        if name.startswith("."):
            found.add((PAGE / module).parent.joinpath(name).resolve().relative_to(PAGE).as_posix())
        elif name.startswith("/static/js/"):
            found.add(name.removeprefix("/static/js/"))
    return frozenset(found)


def test_every_import_names_a_module_of_the_page():
    # A name the browser cannot find stops the page: its module and every one importing it fail.
    missing = {module: sorted(imports(module) - MODULES.keys()) for module in MODULES}
    assert {module: names for module, names in missing.items() if names} == {}


def room(module):
    """Return the room a module is drawn in: its folder below static/js/, or itself at the top."""
    return module.partition("/")[0]


ROOMS = {room(module) for module in MODULES}


@functools.cache
def doors(each):
    """Return the other rooms the modules of a room import."""
    return frozenset(room(m) for module in MODULES if room(module) == each for m in imports(module)) - {each}


def test_no_import_runs_back_up():
    # The rooms' imports form no circle: each room stands above every room it imports.
    circle = circle_through(ROOMS, doors)
    assert circle is None, f"{circle} imports itself through other rooms"


def test_the_floors_are_few():
    assert floors(ROOMS, doors) <= 8


def test_the_top_level_keeps_few_modules():
    top = sorted(path.name for path in PAGE.glob("*.js"))
    assert len(top) <= 20, top
