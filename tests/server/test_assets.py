"""The gzipped copies of the page's files: made once, made again when the file changes, and not kept."""

import gzip
import os

from server import assets


def test_a_copy_is_made_once_and_a_changed_file_gets_a_new_one_in_place_of_the_old(tmp_path):
    cache = tmp_path / "gzip"
    style = tmp_path / "app.css"
    style.write_text("body { color: black; }\n" * 100)
    first = assets.gzipped(style, cache)
    assert gzip.decompress(first.read_bytes()) == style.read_bytes()
    made = first.stat().st_mtime_ns
    assert assets.gzipped(style, cache) == first and first.stat().st_mtime_ns == made, "made once"
    style.write_text("body { color: navy; }\n" * 100)
    os.utime(style, ns=(made + 10**9, made + 10**9))  # a later time, whatever the file system's grain
    second = assets.gzipped(style, cache)
    assert second != first and gzip.decompress(second.read_bytes()) == style.read_bytes()
    assert sorted(cache.iterdir()) == [second], "the copy of the earlier content is removed"


def test_a_file_of_the_same_name_elsewhere_has_its_own_copy_and_a_day_old_copy_is_removed(tmp_path):
    cache = tmp_path / "gzip"
    for folder in ("one", "two"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "app.js").write_text(f"export const folder = '{folder}';\n" * 100)
    one = assets.gzipped(tmp_path / "one" / "app.js", cache)
    day_ago = one.stat().st_mtime - assets.STALE - 60
    os.utime(one, (day_ago, day_ago))
    two = assets.gzipped(tmp_path / "two" / "app.js", cache)
    assert b"two" in gzip.decompress(two.read_bytes())
    assert sorted(cache.iterdir()) == [two], "the day-old copy (of a bundle since replaced, say) is gone"


def test_small_files_and_packed_kinds_are_sent_as_they_are(tmp_path):
    small, image = tmp_path / "small.js", tmp_path / "board.png"
    small.write_text("export const a = 1;\n")
    image.write_bytes(bytes(4096))
    assert assets.gzipped(small, tmp_path / "gzip") is None
    assert assets.gzipped(image, tmp_path / "gzip") is None
