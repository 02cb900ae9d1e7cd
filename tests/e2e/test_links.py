"""Crafted links: names every JavaScript object has, in place of settings, fall back to defaults;
the values a link gave that were not used are said."""

import re

from playwright.sync_api import expect

from server.classes.registry import classes
from server.edge import app_guesses as guesses
from server.edge.badges import COOKIE
from server.edge.guesses import BROWSER_GUESSES
from server.wire import DEFAULT_SPEED, SPEED_STEPS
from tests.support.clock import Clock
from tests.support.page import READY
from tests.support.waiting import wait_for

CRAFTED = [
    "order=toString",
    "order=constructor",
    "order=__proto__",
    "mode=constructor",
    "speed=constructor",
    "mode=__proto__&order=hasOwnProperty&speed=valueOf&rows=toString",
]


def test_crafted_links_load_with_the_defaults(page, site):
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    for query in CRAFTED:
        page.goto(f"{site.url}/?{query}")
        page.wait_for_function(READY)
        assert errors == [], f"/?{query}: {errors}"
        assert page.get_by_label("Ordering", exact=True).input_value() == "naive", query
        assert page.get_by_label("Speed").input_value() == str(SPEED_STEPS.index(DEFAULT_SPEED)), query
        assert page.evaluate("() => document.body.dataset.mode") == "board", query
        expect(page.get_by_label("Rows", exact=True)).to_have_value("5")
    page.get_by_role("button", name="Play").click()
    page.wait_for_function("() => knightsTour.model.events > 3")
    assert errors == []


def test_a_crafted_class_link_joins_the_class(page, site, open_page):
    page.get_by_role("button", name="Start a class").click()
    expect(page.locator("#lead-code")).to_have_text(re.compile(r"^[A-Z2-9]{7}$"))
    code = page.locator("#lead-code").inner_text()
    student = open_page(
        f"/?class={code}&order=constructor&mode=__proto__&speed=toString",
        until="() => knightsTour.state !== undefined",
    )
    expect(student.get_by_role("status")).to_contain_text(f"Following class {code}")
    page.get_by_role("button", name="End class").click()
    assert wait_for(lambda: len(classes(site.app)) == 0, 5)


def test_a_link_to_a_class_that_is_not_there_says_so_and_leaves_a_page_of_ones_own(page, site):
    page.goto(f"{site.url}/?class=ZZZZZZZ")  # an old link, or a code mistyped into one
    note = page.locator("#class-note")
    expect(note).to_contain_text("There is no class with that code")
    page.wait_for_function(READY)  # a page of one's own: nothing to follow, so Play is there
    expect(page.locator("#status")).not_to_contain_text("Following class")
    assert "class=" not in page.url
    page.get_by_role("button", name="Play").click()
    page.wait_for_function("() => knightsTour.model.events > 3")


def test_a_links_values_not_used_are_said_once_in_the_status(page, site):
    page.goto(f"{site.url}/?rows=999&cols=6&start=zz99&order=bogus&closed=maybe")
    page.wait_for_function(READY)
    status = page.get_by_role("status")
    expect(status).to_have_text(
        "This link's rows=999, start=zz99, order=bogus, closed=maybe could not be used"
        " (out of range or unknown): the usual settings stand in."
    )
    expect(page.get_by_label("Rows", exact=True)).to_have_value("5")
    expect(page.get_by_label("Columns", exact=True)).to_have_value("6")
    page.get_by_role("button", name="Step", exact=True).click()
    expect(status).to_have_text("Paused: press Step to see the next move.")
    # The page's own address, as it rewrote it, brings no complaint.
    page.reload()
    page.wait_for_function(READY)
    expect(status).to_contain_text("Ready")
    # In Chinese too; and a start by name, as the page writes squares, is used.
    page.goto(f"{site.url}/?rows=6&cols=6&start=c3&speed=7")
    page.locator("#language").select_option("zh")
    expect(status).to_have_text("此链接中的 speed=7 无法使用（超出范围或无法识别）：已改用通常的设置。")
    expect(page.locator("#start")).to_have_value("c3")


def test_the_class_link_lets_students_in_while_their_network_is_out_of_guesses(page, site, open_page):
    page.get_by_role("button", name="Start a class").click()
    expect(page.locator("#lead-code")).to_have_text(re.compile(r"^[A-Z2-9]{7}$"))
    code = page.locator("#lead-code").inner_text()
    expect(page.locator("#lead-link")).to_contain_text("&ticket=")
    link = page.locator("#lead-link").inner_text()
    # A prankster on the class's own network (every page here is 127.0.0.1) spent its guesses,
    # on a clock that stands still, so they never come back during the test.
    tried = guesses(site.app)
    tried.clock = Clock()
    for _ in range(tried.burst):
        tried.failed("prankster", "127.0.0.1")
    tried.forget("prankster")  # gone, as its connections would be: its network's count stays
    # A student typing the code gets in on their browser's own few wrong codes ...
    typed = open_page(f"/?class={code}", until="() => knightsTour.state !== undefined")
    expect(typed.get_by_role("status")).to_contain_text(f"Following class {code}")
    # ... but once that browser has mistyped its own few, its typed code waits with its network.
    badge = next(c["value"] for c in typed.context.cookies() if c["name"] == COOKIE).partition(".")[0]
    for _ in range(BROWSER_GUESSES):
        tried.failed("mistyper", "127.0.0.1", badge)
    tried.forget("mistyper")
    again = typed.context.new_page()
    again.goto(f"{site.url}/?class={code}")
    expect(again.locator("#class-note")).to_contain_text("Too many wrong class codes from your network")
    student = open_page(link[link.index("/?") :], until="() => knightsTour.state !== undefined")
    expect(student.get_by_role("status")).to_contain_text(f"Following class {code}")
    assert "&ticket=" in student.url, "a reload of the student's page is no guess either"
    student.reload()
    expect(student.get_by_role("status")).to_contain_text(f"Following class {code}")
    # The teacher's page, reloaded, takes its class back (however long a busy machine takes to reload it).
    classes(site.app).orphan_seconds = 600
    page.reload()
    expect(page.locator("#class-note")).to_contain_text(f"You lead class {code} again")
    page.get_by_role("button", name="End class").click()
    assert wait_for(lambda: not classes(site.app), 5), "the class outlived its end"
