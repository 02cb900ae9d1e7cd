"""The offline badge: on every page (solo, instructor's, student's) while its connection is down,
in the page's language, and gone once the page is connected again.

Taken offline, Chromium keeps an open WebSocket open but holds its frames, and refuses new ones;
the page's Socket.IO client closes its connection on the browser's offline event, so the badge
shows at once, and holds its retries until the browser is online again. A server that goes away
drops the connection from its side instead.
"""

import re
import threading

from playwright.sync_api import expect
from werkzeug.serving import make_server

from server.classes.registry import classes
from tests.support.page import READY, STEP, artifact
from tests.support.servers import RequestHandler
from tests.support.waiting import wait_for

OFFLINE = "Offline: the connection to the server is down. Reconnecting…"
OFFLINE_ZH = "已离线：与服务器的连接已断开，正在重新连接……"
# A student's page has joined its class: only a page once connected shows the badge when it drops
# (a page still making its first connection says so in its status line instead).
FOLLOWING = "() => knightsTour.store.klass.role === 'student' && knightsTour.store.connection === 'up'"
BACK = 5_000  # ms for a page to reconnect: it tries at once when the browser is back online
RETRY = 15_000  # ms for a page to find a server back: Socket.IO waits up to 5 s between tries

# Whether the badge is on screen and on top: nothing covers the middle of its box.
ON_TOP = """(badge) => {
  const box = badge.getBoundingClientRect();
  const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  return box.top >= 0 && box.bottom <= innerHeight && badge.contains(top);
}"""


def badge(page):
    """Return the page's offline badge."""
    return page.locator("#offline")


def expect_offline(page, text=OFFLINE):
    """Check that the page shows the offline badge, a status of its own, with text, on top."""
    shown = badge(page)
    expect(shown).to_be_visible()
    expect(shown).to_have_text(text)
    assert shown.get_attribute("role") == "status"
    assert shown.evaluate(ON_TOP)


def test_a_solo_page_shows_the_badge_while_offline(page):
    expect(badge(page)).to_be_hidden()
    page.context.set_offline(True)
    expect_offline(page)
    expect(page.get_by_role("button", name="Play")).to_be_disabled()
    page.screenshot(path=artifact("offline_solo.png"))
    page.context.set_offline(False)
    expect(badge(page)).to_be_hidden(timeout=BACK)
    expect(page.get_by_role("button", name="Play")).to_be_enabled()


def test_the_class_sees_the_badge_in_its_own_language(page, site, open_page):
    page.get_by_role("button", name="Start a class").click()
    expect(page.locator("#lead-code")).to_have_text(re.compile(r"^[A-Z2-9]{7}$"))
    code = page.locator("#lead-code").inner_text()
    student = open_page(f"/?class={code}", until=FOLLOWING, locale="zh-CN")
    expect(student.locator("#follow-code")).to_have_text(code)
    expect(badge(student)).to_be_hidden()

    student.context.set_offline(True)
    expect_offline(student, OFFLINE_ZH)
    expect(badge(page)).to_be_hidden()
    student.screenshot(path=artifact("offline_student_zh.png"))
    student.context.set_offline(False)
    expect(badge(student)).to_be_hidden(timeout=BACK)
    # Back, the student follows the class again: the instructor's next step reaches them.
    page.get_by_role("button", **STEP).click()
    student.wait_for_function("() => knightsTour.model.events === 1")

    page.context.set_offline(True)
    expect_offline(page)
    expect(badge(student)).to_be_hidden()
    page.context.set_offline(False)
    expect(badge(page)).to_be_hidden(timeout=BACK)
    expect(page.locator("#class-note")).to_contain_text(f"You lead class {code} again")
    page.get_by_role("button", name="End class").click()
    assert wait_for(lambda: len(classes(site.app)) == 0, 5), "the class outlived its end"


def test_the_badge_shows_while_the_server_is_gone(open_page, site):
    # Not the page fixture: the page logs its refused tries to reconnect as console errors.
    page = open_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    port = int(site.url.rsplit(":", 1)[1])
    # The server stops taking connections and drops the page's, as a server going down would.
    site.httpd.shutdown()
    site.httpd.server_close()
    site.thread.join(5)
    for each in list(site.app.extensions["socketio"].server.eio.sockets.values()):
        each.close(wait=False)  # without waiting on the thread that writes to it, here
    expect_offline(page)
    serve_again(site, port)
    expect(badge(page)).to_be_hidden(timeout=RETRY)
    expect(page.get_by_role("button", name="Play")).to_be_enabled()
    assert errors == []


def serve_again(site, port):
    """Serve site's app again on port, as site served it, for site.close() to stop."""
    site.httpd = make_server("127.0.0.1", port, site.app, threaded=True, request_handler=RequestHandler)
    site.thread = threading.Thread(
        target=site.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True, name="live-server"
    )
    site.thread.start()


def test_an_offline_page_holds_its_retries_until_the_browser_is_online(open_page):
    # Each retry made offline would fail (Chromium logs each as an error), on a phone's battery.
    page = open_page("/")
    page.clock.install()  # from the next load on: the client takes its timers as it starts
    page.reload()
    page.wait_for_function(READY)
    opened = []
    page.on("websocket", lambda socket: opened.append(socket.url))
    page.context.set_offline(True)
    expect_offline(page)
    page.clock.run_for(60_000)  # the client's own retries would back off to 5 s: a dozen or more
    assert opened == [], "the page tried to reconnect while the browser was offline"
    page.context.set_offline(False)
    expect(badge(page)).to_be_hidden(timeout=BACK)  # back online, it tries at once
