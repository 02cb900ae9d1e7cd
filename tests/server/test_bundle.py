"""The page's modules bundled by esbuild: entries, chunks, the kept build, and a module that breaks."""

import json

import pytest

from server import bundle


def modules(folder, files):
    """Write files ({name: source}) into folder; return their (path, content) pairs."""
    folder.mkdir(exist_ok=True)
    for name, source in files.items():
        (folder / name).write_text(source)
    return sorted(files.items())


def test_an_entry_is_bundled_with_its_imports_and_a_module_imported_when_used_is_a_chunk(tmp_path):
    source = tmp_path / "js"
    contents = modules(
        source,
        {
            "app.js": 'import { twice } from "./maths.js";\n'
            'export const shown = twice(21);\nexport const later = () => import("./later.js");\n',
            "maths.js": "export const twice = (n) => 2 * n;\n",
            "later.js": 'export const word = "later";\n',
        },
    )
    built = bundle.build(source, ["app.js"], tmp_path / "cache", contents)
    entry = built.folder / built.entries["app.js"]
    text = entry.read_text()
    assert "2*" in text.replace(" ", "") and "maths.js" not in text, "the imported module is inside the entry"
    chunks = [name for name in built.files if name.startswith("chunks/") and name.endswith(".js")]
    assert len(chunks) == 1 and "later" in (built.folder / chunks[0]).read_text()
    assert chunks[0].removeprefix("chunks/") in text, "the entry imports its chunk by its hashed name"
    assert json.loads((built.folder / "meta.json").read_text()) == built.entries


def test_a_bundle_of_the_same_content_is_found_kept_and_another_content_is_built_anew(tmp_path):
    source, cache = tmp_path / "js", tmp_path / "cache"
    first = bundle.build(source, ["app.js"], cache, modules(source, {"app.js": "export const a = 1;\n"}))
    bundle._built.clear()  # as another process of the same checkout would
    again = bundle.build(source, ["app.js"], cache, sorted({"app.js": "export const a = 1;\n"}.items()))
    assert again.folder == first.folder and again.entries == first.entries
    changed = bundle.build(source, ["app.js"], cache, modules(source, {"app.js": "export const a = 2;\n"}))
    assert changed.folder != first.folder and sorted(p.name for p in cache.iterdir()) == sorted(
        [first.folder.name, changed.folder.name]
    ), "nothing half built is left, and the other content's bundle is kept for a server still serving it"


def test_a_module_that_does_not_parse_is_refused_with_esbuilds_words_and_leaves_nothing(tmp_path):
    source, cache = tmp_path / "js", tmp_path / "cache"
    contents = modules(source, {"app.js": "export const = ;\n"})
    with pytest.raises(bundle.BundleError, match=r"could not bundle[\s\S]*app\.js"):
        bundle.build(source, ["app.js"], cache, contents)
    assert list(cache.iterdir()) == []
