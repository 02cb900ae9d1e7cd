"""The production server that the hostile clients' tests share, and what they open, closed after each."""

import pytest

from tests.support.hostile import PING_INTERVAL, PING_TIMEOUT, warm_up


@pytest.fixture(scope="module")
def site(production):
    """One production server for the module, with short pings, warmed up by a whole run."""
    server = production("--ping-interval", str(PING_INTERVAL), "--ping-timeout", str(PING_TIMEOUT))
    warm_up(server)
    return server


@pytest.fixture
def opened():
    """Return opened(thing): thing (a socket, a Wire), closed after the test even if it fails."""
    things = []

    def keep(thing):
        things.append(thing)
        return thing

    yield keep
    for thing in things:
        thing.close()


@pytest.fixture
def hall(production):
    """Return a server of its own whose address a test may fill (5 connections), warmed up."""
    with production("--max-per-address", "5") as server:
        warm_up(server)
        yield server
