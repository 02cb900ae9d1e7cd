"""The heap's trim after a flood: when it runs, and that glibc's malloc_trim is found."""

import sys

import pytest

from server.edge.heap import DROP, Trimmer, malloc_trim


class Count:
    """Open connections, set by the test; and the trims asked for."""

    def __init__(self, open_now):
        self.open, self.trims = open_now, []

    def __call__(self):
        return self.open

    def trim(self, pad):
        self.trims.append(pad)
        return 1


def test_a_flood_gone_trims_once_and_a_pages_coming_and_going_never():
    count = Count(10)
    trimmer = Trimmer(count, count.trim)
    for now in (12, 9, 11, 10 + DROP, 12 + DROP, 13):  # up to the most, then a drop short of DROP
        count.open = now
        assert not trimmer.look()
    count.open = 12
    assert trimmer.look() and count.trims == [0]
    # Counted from the trim on: the same connections still gone, or a few more, trim nothing.
    for now in (12, 5, 12 + DROP - 1, 13):
        count.open = now
        assert not trimmer.look()
    assert count.trims == [0]
    count.open = 12 + DROP - 1 - DROP
    assert trimmer.look() and trimmer.trims == 2


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's")
def test_glibc_has_malloc_trim_and_it_runs():
    trim = malloc_trim()
    assert trim is not None, "this Linux's C library is not glibc"
    assert trim(0) in (0, 1)  # 1: it gave memory back
