"""Limits on guessing class codes, on their own clock: delays per connection, buckets per address."""

import re

import pytest

from server.classes.guesses import Guesses, address_key
from server.classes.sessions import CODE_ALPHABET, CODE_LENGTH
from tests.support.clock import Clock


@pytest.fixture
def clock():
    return Clock()


def refusal(guesses, sid, address):
    """Return the message check() refuses with, or None if sid may guess."""
    try:
        guesses.check(sid, address)
    except ValueError as exc:
        return str(exc)
    return None


def test_a_connection_waits_longer_after_each_failure_up_to_a_cap(clock):
    guesses = Guesses(clock=clock)
    waits = []
    for _ in range(12):
        assert refusal(guesses, "s", "10.0.0.1") is None
        guesses.failed("s", "10.0.0.1")
        message = refusal(guesses, "s", "10.0.0.1")
        wait = int(re.search(r"wait (\d+) seconds?", message).group(1)) if message else 0
        waits.append(wait)
        clock.advance(wait)
    assert waits == [0, 0, 0, 1, 2, 4, 8, 16, 32, 60, 60, 60]


def test_the_wait_is_rounded_up_and_counts_down(clock):
    guesses = Guesses(free=0, clock=clock)
    guesses.failed("s", "10.0.0.1")  # the first failure already costs a second
    assert refusal(guesses, "s", "10.0.0.1") == (
        "too many wrong class codes: wait 1 second before trying again (check the code with your instructor)"
    )
    clock.advance(0.999)
    assert "wait 1 second " in refusal(guesses, "s", "10.0.0.1")
    clock.advance(0.001)
    assert refusal(guesses, "s", "10.0.0.1") is None


def test_a_very_long_lived_guesser_does_not_overflow_the_delay():
    guesses = Guesses()
    assert guesses.delay(10_000) == 60


def test_an_address_has_a_burst_then_a_slow_refill(clock):
    guesses = Guesses(clock=clock)  # 100 at once, then 10 a minute
    for n in range(100):  # a class behind one NAT, each student on a connection of its own
        assert refusal(guesses, f"student {n}", "10.0.0.1") is None
        guesses.failed(f"student {n}", "10.0.0.1")
    assert refusal(guesses, "a new page", "10.0.0.1") == (
        "too many wrong class codes from your network: wait 6 seconds before trying again, "
        "or open the class's link or QR code"
    )
    assert refusal(guesses, "elsewhere", "10.0.0.2") is None  # other addresses are not affected
    clock.advance(5.9)
    assert "wait 1 second " in refusal(guesses, "a new page", "10.0.0.1")
    clock.advance(0.1)
    assert refusal(guesses, "a new page", "10.0.0.1") is None
    guesses.failed("a new page", "10.0.0.1")
    assert "wait 6 seconds" in refusal(guesses, "another page", "10.0.0.1")
    clock.advance(60)  # a minute earns ten guesses back, and no more than the burst is ever kept
    for n in range(10):
        assert refusal(guesses, f"late {n}", "10.0.0.1") is None
        guesses.failed(f"late {n}", "10.0.0.1")
    assert "from your network" in refusal(guesses, "late 10", "10.0.0.1")


def test_a_gone_connection_is_forgotten_but_its_address_is_not(clock):
    guesses = Guesses(burst=5, clock=clock)
    for _ in range(5):
        guesses.failed("s", "10.0.0.1")
    assert (len(guesses), guesses.addresses) == (1, 1)
    guesses.forget("s")
    assert (len(guesses), guesses.addresses) == (0, 1)
    # Reconnecting starts a new connection afresh, but its address is still drained.
    assert "from your network" in refusal(guesses, "s again", "10.0.0.1")


def test_full_buckets_are_forgotten_once_the_table_is_large(clock):
    guesses = Guesses(burst=2, per_minute=60, max_addresses=100, clock=clock)
    for n in range(99):
        guesses.failed(f"s{n}", f"10.0.0.{n}")
    guesses.failed("a", "10.9.9.9")
    guesses.failed("b", "10.9.9.9")
    assert guesses.addresses == 100
    clock.advance(1)  # a guess a second back: every bucket is full again but 10.9.9.9's
    guesses.failed("new", "10.1.0.1")
    assert guesses.addresses == 2
    guesses.failed("c", "10.9.9.9")  # kept, it has nothing left
    assert "from your network" in refusal(guesses, "d", "10.9.9.9")


def test_the_address_table_stays_bounded_under_a_flood_of_addresses(clock):
    guesses = Guesses(burst=1, max_addresses=100, clock=clock)
    for n in range(1000):
        guesses.failed(f"s{n}", f"10.0.{n // 250}.{n % 250}")
        assert guesses.addresses <= 100
    assert "from your network" in refusal(guesses, "t", "10.0.3.249")  # the latest are still kept


@pytest.mark.parametrize(
    "address, key",
    [
        ("203.0.113.7", "203.0.113.7"),
        ("::ffff:203.0.113.7", "203.0.113.7"),
        ("2001:db8:1:2:aaaa::1", "2001:db8:1:2::/64"),
        ("2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64"),
        ("2001:db8:1:3::1", "2001:db8:1:3::/64"),
        (None, "None"),
    ],
)
def test_ipv6_addresses_share_the_bucket_of_their_64_network(address, key):
    assert address_key(address) == key


def test_the_arithmetic_in_the_protocol_holds():
    # docs/protocol.md: at the default rate, brute force takes more than a day, even for 100 classes.
    codes = len(CODE_ALPHABET) ** CODE_LENGTH
    guesses = Guesses()
    per_day = guesses.rate * 86_400
    assert codes == 28_629_151
    assert ((codes + 1) / 2 - guesses.burst) / per_day == pytest.approx(994.06, abs=0.01)
    any_of_100 = ((codes + 1) / 101 - guesses.burst) / per_day
    assert any_of_100 == pytest.approx(19.68, abs=0.01) and any_of_100 > 1


def test_nonsense_limits_are_refused():
    with pytest.raises(ValueError, match="JOIN_FAILURES_PER_MINUTE"):
        Guesses(per_minute=0)
