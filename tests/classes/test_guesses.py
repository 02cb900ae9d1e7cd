"""Limits on guessing class codes, on their own clock: delays per connection, buckets per address."""

import re

import pytest

from server.classes.sessions import CODE_ALPHABET, CODE_LENGTH
from server.edge.badges import MINT_BURST, MINT_RATE
from server.edge.guesses import BROWSER_GUESSES, BROWSER_WINDOW, Guesses, address_key
from tests.support.clock import Clock


@pytest.fixture
def clock():
    return Clock()


def refusal(guesses, sid, address, badge=None):
    """Return the message check() refuses with, or None if sid may guess."""
    try:
        guesses.check(sid, address, badge)
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


NOW = 1_800_000_000.0  # a Unix time: badges' ids begin with the second they were given


def badge(given, n=0):
    """Return the id of a badge given at Unix time given."""
    return f"{int(given):08x}{n:020x}"


def test_a_browser_types_its_own_few_wrong_codes_whatever_its_network_has_spent(clock):
    guesses = Guesses(burst=3, clock=clock, wall=lambda: NOW)
    for n in range(3):  # a neighbour spends the address's
        guesses.failed(f"script {n}", "10.0.0.1")
    assert "from your network" in refusal(guesses, "student", "10.0.0.1")
    mine = badge(NOW - 60)
    for n in range(BROWSER_GUESSES):  # a student mistypes, on connections of its own or not
        assert refusal(guesses, f"student {n}", "10.0.0.1", mine) is None
        guesses.failed(f"student {n}", "10.0.0.1", mine)
    assert "from your network" in refusal(guesses, "student again", "10.0.0.1", mine)
    # Another browser has its own; a connection's own delays still hold for each.
    theirs = badge(NOW - 60, 1)
    for _ in range(4):
        guesses.failed("tab", "10.0.0.1", theirs)
    assert "wait 1 second " in refusal(guesses, "tab", "10.0.0.1", theirs)
    assert refusal(guesses, "another tab", "10.0.0.1", theirs) is None


def test_a_browser_spends_its_own_before_its_address(clock):
    guesses = Guesses(burst=3, clock=clock, wall=lambda: NOW)
    for n in range(BROWSER_GUESSES):
        guesses.failed(f"s{n}", "10.0.0.1", badge(NOW))
    assert refusal(guesses, "page", "10.0.0.1") is None, "the address's were not spent"


def test_a_badge_past_its_window_or_of_no_time_draws_on_its_address(clock):
    guesses = Guesses(burst=1, clock=clock, wall=lambda: NOW)
    guesses.failed("script", "10.0.0.1")
    for old in (badge(NOW - BROWSER_WINDOW), "not a badge of ours", "zzzzzzzz" + "0" * 20):
        assert "from your network" in refusal(guesses, "page", "10.0.0.1", old)
    assert refusal(guesses, "page", "10.0.0.1", badge(NOW - BROWSER_WINDOW + 1)) is None


def test_the_browsers_table_stays_bounded_and_forgets_what_no_longer_counts(clock):
    wall = [NOW]
    guesses = Guesses(burst=1, max_browsers=3, clock=clock, wall=lambda: wall[0])
    guesses.failed("script", "10.0.0.1")
    for n in range(3):
        guesses.failed(f"s{n}", "10.0.0.1", badge(NOW, n))
    # Full of badges within their window: a fourth browser draws on its address, which is spent.
    assert "from your network" in refusal(guesses, "s3", "10.0.0.1", badge(NOW, 3))
    wall[0] = NOW + BROWSER_WINDOW  # the three are past their window: forgotten for the newcomer
    assert refusal(guesses, "s4", "10.0.0.1", badge(NOW + 10, 4)) is None
    guesses.failed("s4", "10.0.0.1", badge(NOW + 10, 4))
    assert guesses.browsers == 1


def test_the_arithmetic_in_the_protocol_holds():
    # docs/protocol.md: a guesser with ten addresses takes years to find one given class, and
    # weeks to find any of 100, with every badge its addresses are given and the addresses' own.
    codes = len(CODE_ALPHABET) ** CODE_LENGTH
    guesses = Guesses()
    assert codes == 27_512_614_111
    badges_a_day = MINT_RATE * 86_400
    per_day = 10 * (guesses.rate * 86_400 + badges_a_day * BROWSER_GUESSES)
    first = 10 * (guesses.burst + MINT_BURST * BROWSER_GUESSES)
    assert per_day == 4_464_000
    one_class = ((codes + 1) / 2 - first) / per_day
    any_of_100 = ((codes + 1) / 101 - first) / per_day
    assert one_class == pytest.approx(3081.6, abs=0.1) and one_class > 994
    assert any_of_100 == pytest.approx(61.0, abs=0.1) and any_of_100 > 20


def test_nonsense_limits_are_refused():
    with pytest.raises(ValueError, match="JOIN_FAILURES_PER_MINUTE"):
        Guesses(per_minute=0)
