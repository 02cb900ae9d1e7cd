"""The embeddable board in another site's page: it plays there; the page itself refuses frames."""

import pytest
from playwright.sync_api import expect

from tests.support.page import READY, artifact

FINISHED = "() => window.knightsTour?.state === 'finished' && knightsTour.model.path.length === 25"
TOUR = "rows=5&cols=5&order=warnsdorff&speed=0"  # a 5x5 tour with no backtrack, as fast as it goes


@pytest.fixture
def visit(browser):
    """Return visit(url, expected=(), **context options): a page of its own at url, closed after
    the test, that fails the test on any error in it or its frames but those whose message
    includes one of the expected texts."""
    contexts, problems = [], []

    def visit(url, expected=(), **options):
        context = browser.new_context(viewport={"width": 1280, "height": 900}, **options)
        contexts.append(context)
        opened = context.new_page()
        opened.on("pageerror", lambda exc: problems.append(str(exc)))

        def console(msg):
            if msg.type == "error" and not any(text in msg.text for text in expected):
                problems.append(msg.text)

        opened.on("console", console)
        opened.goto(url)
        return opened

    yield visit
    for context in contexts:
        context.close()
    assert problems == []


def other_page(title, body):
    """Return another site's page of title and body (with no icon for the browser to ask for)."""
    return f'<!doctype html><title>{title}</title><link rel="icon" href="data:,">{body}'


def embedded(page, site):
    """Return the frame of page's iframe, once it shows the app's embed."""
    frame = page.wait_for_selector("iframe").content_frame()
    frame.wait_for_url(site.url + "/embed?**")
    return frame


def test_a_board_embedded_in_another_sites_page_plays_to_its_end(site, other_site, visit):
    # A class code in the embed's address is ignored: an embed has no class features.
    other_site.pages["/course.html"] = other_page(
        "Graphs, week 7",
        "<h1>Depth-first search</h1>"
        f'<iframe src="{site.url}/embed?{TOUR}&autoplay=true&class=ABCDE" width="480" height="544"></iframe>',
    )
    course = visit(other_site.url + "/course.html")
    frame = embedded(course, site)
    frame.wait_for_function(FINISHED)
    assert course.evaluate("location.origin") == other_site.url
    assert frame.evaluate("location.origin") == site.url
    assert frame.evaluate("knightsTour.store.klass.role") == "none"
    # The board and the minimal controls only: no header, settings, class or lesson panels.
    for shown in ("#board", "#play", "#step", "#back", "#reset", "#speed", "#open-full"):
        assert frame.locator(shown).is_visible(), shown
    for hidden in (".bar", "#board-setup", "#class-setup", "#embed-setup", "#poll", "#code", "#skip"):
        assert frame.locator(hidden).is_hidden(), hidden
    # The board fills the frame's width, less its margins.
    assert frame.evaluate("document.getElementById('board').getBoundingClientRect().width") > 400
    # The link opens the whole page, set up as the embed is.
    link = frame.locator("#open-full")
    assert link.get_attribute("target") == "_blank"
    href = link.get_attribute("href")
    assert href.startswith(f"{site.url}/?mode=board&rows=5&cols=5&start=0&order=warnsdorff")
    course.screenshot(path=artifact("embed-in-course-page.png"))


def test_the_page_itself_refuses_frames_and_other_sites_cannot_open_its_socket(site, other_site, visit):
    ws = site.url.replace("http", "ws", 1) + "/socket.io/?EIO=4&transport=websocket"
    other_site.pages["/clickjack.html"] = other_page(
        "Win a prize",
        f'<iframe src="{site.url}/" width="600" height="400"></iframe>'
        "<script>const ws = new WebSocket(" + repr(ws) + ");"
        "ws.onopen = () => { window.socket = 'open'; };"
        "ws.onclose = () => { window.socket ??= 'refused'; };</script>",
    )
    # The browser reports both refusals as errors: they are what this test expects.
    page = visit("about:blank", expected=("frame-ancestors 'none'", f"WebSocket connection to '{ws}' failed"))
    with page.expect_console_message(lambda msg: "frame-ancestors 'none'" in msg.text):
        page.goto(other_site.url + "/clickjack.html")
    assert not [f for f in page.frames if f.url.startswith(site.url)]
    page.wait_for_function("window.socket !== undefined")
    assert page.evaluate("window.socket") == "refused"
    # The embed, from the same site, is shown and its own socket is accepted.
    frame = f'<iframe src="{site.url}/embed?{TOUR}"></iframe>'
    other_site.pages["/course.html"] = other_page("Graphs", frame)
    page.goto(other_site.url + "/course.html")
    embedded(page, site).wait_for_function(READY)


def test_the_embed_code_copied_from_the_page_plays_and_loops_on_another_site(site, other_site, visit):
    # Five moves a second: the replay lasts five seconds, time enough to pause it.
    slow = TOUR.replace("speed=0", "speed=5")
    author = visit(f"{site.url}/?{slow}", permissions=["clipboard-read", "clipboard-write"])
    author.wait_for_function(READY)
    setup = author.locator("#embed-setup")
    setup.get_by_label("Controls").select_option("none")
    setup.get_by_label("The code").check()
    setup.get_by_label("Start again when it ends").check()
    setup.get_by_role("button", name="Copy embed code").click()
    author.wait_for_function("document.getElementById('embed-note').textContent.includes('copied')")
    code = author.evaluate("navigator.clipboard.readText()")
    assert code == author.locator("#embed-code").input_value()
    address = f"{site.url}/embed?mode=board&amp;rows=5&amp;cols=5&amp;start=0&amp;order=warnsdorff"
    assert code.startswith(f'<iframe src="{address}')
    assert "controls=none&amp;panels=code&amp;autoplay=true&amp;loop=true" in code
    assert 'width="840" height="480"' in code and 'title="' in code

    other_site.pages["/notes.html"] = other_page("Lecture notes", code)
    notes = visit(other_site.url + "/notes.html")
    frame = embedded(notes, site)
    frame.wait_for_function(FINISHED)
    assert frame.locator("#code").is_visible() and frame.locator("#stack").is_hidden()
    assert frame.locator(".panel").is_hidden()
    # Looped: the finished tour plays again from its start, then its Play button pauses it.
    frame.wait_for_function("knightsTour.store.run.replaying && knightsTour.model.events < 26")
    frame.locator("#embed-play").click()
    frame.wait_for_function("!knightsTour.store.run.replaying")
    # The button's label follows on the next frame's render: wait for it, not read it at once.
    expect(frame.locator("#embed-play")).to_have_text("Play")
    assert frame.evaluate("knightsTour.model.events") < 26


def test_an_embeds_language_is_its_own_and_the_readers_choice_stays_theirs(site, browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")

    def opens_in(path, lang):
        reader.goto(site.url + path)
        reader.wait_for_function(READY)
        expect(reader.locator("html")).to_have_attribute("lang", lang)

    try:
        reader = context.new_page()
        opens_in(f"/embed?{TOUR}&lang=zh&controls=full", "zh-CN")
        # The site itself, and another embed with no lang, open in the reader's language.
        opens_in("", "en")
        opens_in(f"/embed?{TOUR}&controls=full", "en")
        # The reader's own choice is kept, and an embed's lang does not undo it.
        opens_in("", "en")
        reader.locator("#language").select_option("zh")
        opens_in(f"/embed?{TOUR}&lang=en&controls=full", "en")
        opens_in("", "zh-CN")
    finally:
        context.close()


def test_an_embeds_options_not_used_are_said(open_page):
    page = open_page("/embed?rows=99&cols=5&controls=full&panels=code,bogus&lang=fr")
    expect(page.get_by_role("status")).to_have_text(
        "This link's rows=99, panels=bogus, lang=fr could not be used (out of range or unknown):"
        " the usual settings stand in."
    )


def test_the_embed_plays_in_a_course_page_opened_from_disk(site, visit, tmp_path):
    # (Nor data: pages nor about:blank are tried: Chromium keeps them from framing a loopback
    # address at all, whatever the address answers.)
    frame = f'<iframe src="{site.url}/embed?{TOUR}&autoplay=true" width="480" height="544"></iframe>'
    course = tmp_path / "course.html"
    course.write_text(other_page("Slides, week 7", frame), encoding="utf-8")
    embedded(visit(course.as_uri()), site).wait_for_function(FINISHED)


def test_the_sites_named_alone_may_frame_the_embed(serve, other_site, visit, tmp_path):
    site = serve({"EMBED_ANCESTORS": [other_site.url]})
    frame = f'<iframe src="{site.url}/embed?{TOUR}&autoplay=true"></iframe>'
    other_site.pages["/course.html"] = other_page("Graphs", frame)
    embedded(visit(other_site.url + "/course.html"), site).wait_for_function(FINISHED)
    # A page from disk is no site named: its frame is refused.
    course = tmp_path / "course.html"
    course.write_text(other_page("Slides", frame), encoding="utf-8")
    page = visit("about:blank", expected=("frame-ancestors",))
    with page.expect_console_message(lambda msg: "frame-ancestors" in msg.text):
        page.goto(course.as_uri())
    assert not [f for f in page.frames if f.url.startswith(site.url)]
