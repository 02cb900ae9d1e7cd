"""The page's words: the English and Chinese catalogs match, every id is used and known, and the
page in Chinese is wholly Chinese, switches back, remembers the choice and fits on every screen."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from server.edge import app_guesses as guesses
from server.edge import app_seats
from server.edge.keys import load_secret
from server.edge.seats import KEY_FILE, new_key
from tests.support.page import FASTEST, READY, artifact

SCRIPTS = Path(__file__).resolve().parents[2] / "static" / "js"
# The code lab's Python (it runs in the page) names its problems by the ids the page shows them by.
LAB_PYTHON = Path(__file__).resolve().parents[2] / "server" / "codelab"
LAB_PROBLEMS = {
    why for path in LAB_PYTHON.glob("*.py") for why in re.findall(r'"(lab\.[A-Za-z]+)"', path.read_text())
}
PLACEHOLDER = re.compile(r"\{(\w+)\}")
# Such as "status.ready"; a file's name ("pyodide.mjs") is no id.
ID_LITERAL = re.compile(
    r"""["']([a-z][a-zA-Z]*\.[a-zA-Z][\w.-]*(?<!\.js)(?<!\.mjs)(?<!\.wasm)(?<!\.zip)(?<!\.json))["']"""
)
T_LITERAL = re.compile(r"""\bt\(\s*["']([^"']*)["']""")  # t("...")
# The ids the scripts build at run time, so that no literal names them: `outcome.found${closed}`,
# the words of the server's refusal codes and class endings (test_refusal_codes.py checks those
# against the server), an ordering's keys, the composer's buttons and a strip's outcomes.
BUILT = re.compile(
    r"outcome\.(found|none|all)(Closed)?|refusal\.[a-z_.]+|class\.ending\.[a-z]+"
    r"|orderKey\.[a-z]+\.(asc|desc|code)|composer\.(flip|raise|remove)(Label)?|strip\.outcome\.[a-z]+"
    r"|lab\.(exercise|task|order)\.[a-z]+"
)
# ASCII words the Chinese page keeps: proper names, file formats, and the names in the Python code.
KEPT = {
    "Warnsdorff",
    "Roth",
    "Pohl",
    "Schwenk",
    "Python",
    "JSON",
    "PNG",
    "GIF",
    "WebM",
    "tour",
    "True",
    "False",
}
SCREENS = [(390, 844), (1280, 800), (1920, 1080)]  # phone, laptop, projector
MID_SEARCH = "() => knightsTour.model.events >= 20 && document.querySelector('#dead-end').textContent"

# [id, shown words] of every element of root that the template marks for translation.
MARKED = """(root) => [
    ...[...root.querySelectorAll('[data-i18n]')].map((el) => [el.dataset.i18n, el.textContent]),
    ...[...root.querySelectorAll('[data-i18n-label]')]
        .map((el) => [el.dataset.i18nLabel, el.getAttribute('aria-label')]),
    ...[...root.querySelectorAll('[data-i18n-placeholder]')]
        .map((el) => [el.dataset.i18nPlaceholder, el.getAttribute('placeholder')]),
]"""
# [element, text] of every text node the page shows, but for the code, the language menu and class codes.
SHOWN_TEXT = """() => {
    const shown = [], nodes = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = nodes.nextNode(); node; node = nodes.nextNode()) {
        const el = node.parentElement, box = el.closest('select') ?? el;
        // Code, and the written forms of an ordering's keys, are the same in every language.
        const code = el.closest('#code, #ordered-code, #language, .code-chip, .composer-words code');
        if (node.data.trim() && box.checkVisibility() && !code) {
            shown.push([el.id || el.tagName.toLowerCase(), node.data.trim()]);
        }
    }
    return shown;
}"""


def ready(words, square="a5"):
    """Return the words of the page's status before a search, the knight on square."""
    return words["status.ready"].replace("{square}", square)


@pytest.fixture
def loaded(open_page):
    """A page of the app whose modules can be imported, connected or not."""
    return open_page(until="() => document.readyState === 'complete'")


def catalogs(page):
    """Return EN and ZH as the page's own modules export them, in their order."""
    words = page.evaluate("""async () => ({
        en: (await import('/static/js/words/en.js')).EN,
        zh: (await import('/static/js/words/zh.js')).ZH,
    })""")
    return words["en"], words["zh"]


def template_words(page):
    """Return [id, English] of every marked element of the page and of the embed (whose board has
    its own Play button and link) as the server renders them."""
    return page.evaluate(f"""async () => (await Promise.all(['/', '/embed?controls=none'].map(async (path) =>
        ({MARKED})(new DOMParser().parseFromString(await (await fetch(path)).text(), 'text/html')))))
        .flat()""")


def forms(entry):
    """Return a catalog entry's forms: {"": text} for a plain message, else its plural forms."""
    return {"": entry} if isinstance(entry, str) else entry


def english_words(text):
    """Return the English words (ASCII words of 3 letters or more, but the kept ones) in text."""
    words = re.findall(r"[A-Za-z]{3,}", re.sub(r"https?://\S+", "", text))
    return [word for word in words if word not in KEPT]


def assert_chinese(page, zh):
    """Check that every text the page shows is Chinese, the code's comments too."""
    english = [(where, text) for where, text in page.evaluate(SHOWN_TEXT) if english_words(text)]
    assert english == [], f"English on the Chinese page: {english}"
    code = page.locator("#code").inner_text().splitlines()
    comments = [line.split("# ", 1)[1] for line in code if "# " in line]
    assert comments == [zh["code.gray"], zh["code.tour"], zh["code.white"]]
    # The ordering's code explains its keys after their names, in the page's language.
    keys = page.locator("#ordered-code").inner_text().splitlines()
    assert [line for line in keys if "# " in line and english_words(line.split(":", 1)[1])] == []


def finish(page):
    """Press Play and wait until the search has finished."""
    page.locator("#play").click()
    page.wait_for_function("() => knightsTour.state === 'finished'", timeout=30_000)


def step_until(page, condition):
    """Press Step, one event at a time, until the JavaScript condition holds."""
    for _ in range(100):
        if page.evaluate(condition):
            return
        events = page.evaluate("() => knightsTour.model.events")
        page.locator("#step").click()
        page.wait_for_function(f"() => knightsTour.model.events === {events + 1}")
    pytest.fail(f"{condition} still false after 100 steps")


def test_the_catalogs_have_the_same_ids_placeholders_and_plurals(loaded):
    en, zh = catalogs(loaded)
    assert list(zh) == list(en), "zh.js has the ids of en.js, in the same order"
    for id, english in en.items():
        assert forms(english).keys() == forms(zh[id]).keys(), f"{id}: plural forms differ"
        for form, text in forms(english).items():
            chinese = forms(zh[id])[form]
            assert chinese != text or PLACEHOLDER.fullmatch(text), f"{id} is not translated"
            placeholders = sorted(PLACEHOLDER.findall(text))
            assert sorted(PLACEHOLDER.findall(chinese)) == placeholders, f"{id}: placeholders differ"
            assert not re.search(r"[{}]", PLACEHOLDER.sub("", chinese)), f"{id}: a stray brace"
            assert form == "" or "{n}" in text, f"{id}: a plural message without its count {{n}}"


def test_the_template_marks_known_ids_with_their_english(loaded):
    en, _ = catalogs(loaded)
    marked = template_words(loaded)
    assert len(marked) > 50, "the served page marks its words"
    wrong = [(id, " ".join(text.split())) for id, text in marked if " ".join(text.split()) != en.get(id)]
    assert wrong == [], "the template's English differs from en.js (or names an unknown id)"


def test_every_id_in_the_scripts_is_known_and_every_id_is_used(loaded, site):
    en, _ = catalogs(loaded)
    # The page as an instructor's browser with a seat sees it: with the words of both.
    seats = app_seats(site.app)
    key, seat = (
        load_secret(site.app, "INSTRUCTOR_KEY", KEY_FILE, new_key).decode(),
        seats.seats(seats.roster(1))[0][1],
    )
    loaded.evaluate(f"""async () => {{
        await fetch('/instructor', {{method: 'POST', body: new URLSearchParams({{key: '{key}'}})}});
        await fetch('/seat/{seat}', {{method: 'POST'}});
    }}""")
    scripts = [path for path in SCRIPTS.rglob("*.js") if "words" not in path.parts]
    sources = {path: path.read_text(encoding="utf-8") for path in scripts}
    named = {id: path.name for path, source in sources.items() for id in ID_LITERAL.findall(source)}
    named |= {id: path.name for path, source in sources.items() for id in T_LITERAL.findall(source)}
    named |= {id: "server/codelab" for id in LAB_PROBLEMS}
    assert {id: where for id, where in named.items() if id not in en} == {}, "ids missing from en.js"
    used = set(named) | {id for id, _ in template_words(loaded)}
    unused = [id for id in en if id not in used and not BUILT.fullmatch(id)]
    assert unused == [], "en.js has words that nothing shows"


def test_switching_to_chinese_and_back(page):
    en, zh = catalogs(page)
    page.locator("#speed").fill(FASTEST)
    # The position as text, the key, the strip, the composer: every one shown (a class's tournament is not).
    for summary in page.locator("details:not([hidden]) > summary").all():
        summary.click()
    page.get_by_label("Language").select_option(label="简体中文")
    expect(page.locator("html")).to_have_attribute("lang", "zh-CN")
    assert [(id, text) for id, text in page.evaluate(f"() => ({MARKED})(document)") if text != zh[id]] == []
    expect(page.locator("#status")).to_have_text(ready(zh))
    assert page.title() == zh["page.title"]
    assert_chinese(page, zh)

    finish(page)
    found = zh["outcome.found"]["other"]  # plural forms, by the backtracks
    expect(page.locator("#status")).to_contain_text(found.split("：")[0])
    assert_chinese(page, zh)

    page.get_by_label(zh["mode.race"], exact=True).check()
    expect(page.locator("#undo-bar")).to_contain_text(zh["undo.text"])
    finish(page)
    expect(page.locator("#status")).to_contain_text(zh["order.warnsdorff"])
    assert_chinese(page, zh)

    page.get_by_label(zh["mode.example"], exact=True).check()
    finish(page)
    expect(page.locator("#status")).to_contain_text(f"A{zh['list.comma']}B")
    assert_chinese(page, zh)

    page.get_by_label(zh["mode.board"], exact=True).check()
    step_until(page, "() => knightsTour.model.backtracks > 0")
    expect(page.locator("#status")).to_have_text(zh["status.paused"])
    expect(page.locator("#dead-end")).not_to_be_empty()
    expect(page.locator("#line-note")).not_to_be_empty()
    expect(page.locator("#stack li").first).to_be_visible()
    assert_chinese(page, zh)
    page.get_by_label(zh["view.lines"]).check()
    page.locator("#step").click()
    expect(page.locator("#status")).to_have_text(zh["status.pausedLine"])
    assert_chinese(page, zh)

    page.get_by_label(zh["page.language"]).select_option(label="English")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.locator("#status")).to_have_text(en["status.pausedLine"])
    expect(page.locator("#play")).to_have_text(en["control.play"])
    expect(page.locator("label[for=rows]")).to_have_text(en["board.rows"])
    expect(page.locator("#mode legend")).to_have_text(en["mode.legend"])
    expect(page.locator("#code")).to_contain_text(f"# {en['code.gray']}")
    assert page.title() == en["page.title"]


def test_the_language_choice_survives_a_reload(page, site):
    en, zh = catalogs(page)
    page.get_by_label("Language").select_option(label="简体中文")
    page.goto(site.url)
    page.wait_for_function(READY)
    expect(page.locator("#language")).to_have_value("zh")
    expect(page.locator("html")).to_have_attribute("lang", "zh-CN")
    expect(page.locator("#status")).to_have_text(ready(zh))
    expect(page.locator("#play")).to_have_text(zh["control.play"])
    page.get_by_label(zh["page.language"]).select_option(label="English")
    page.goto(site.url)
    page.wait_for_function(READY)
    expect(page.locator("#status")).to_have_text(ready(en))


def test_a_link_with_lang_opens_the_page_in_its_language_and_leaves_the_choice_alone(page, site):
    en, zh = catalogs(page)
    page.goto(site.url + "/?lang=zh&rows=6&cols=6")
    page.wait_for_function(READY)
    expect(page.locator("html")).to_have_attribute("lang", "zh-CN")
    expect(page.locator("#language")).to_have_value("zh")
    expect(page.locator("#status")).to_have_text(ready(zh, "a6"))
    # The link's language is the link's: the page opened without it is in the reader's own.
    page.goto(site.url)
    page.wait_for_function(READY)
    expect(page.locator("#status")).to_have_text(ready(en))
    # A language the page does not have is no language: the reader's own again.
    page.goto(site.url + "/?lang=fr")
    page.wait_for_function(READY)
    expect(page.locator("#status")).to_have_text(ready(en))


def test_the_servers_refusals_are_said_in_the_pages_language(page, site):
    _, zh = catalogs(page)
    page.get_by_label("Language").select_option(label="简体中文")
    page.get_by_label(zh["class.joinLabel"]).fill("ZZZZZ")
    page.get_by_role("button", name=zh["class.join"], exact=True).click()
    note = page.locator("#class-note")
    expect(note).to_have_text(zh["class.joinFailed"].replace("{error}", zh["refusal.class.no_such_class"]))
    # No more free mistakes, and more: the next try must wait 8 seconds, still waiting however slow
    # the machine is to click again (a wait of 1 s may be over by then).
    guesses(site.app).free = -3
    page.get_by_role("button", name=zh["class.join"], exact=True).click()
    waiting = re.escape(zh["refusal.class.wait"]["other"]).replace(re.escape("{n}"), "[1-8]")
    expect(note).to_have_text(
        re.compile(re.escape(zh["class.joinFailed"]).replace(re.escape("{error}"), waiting))
    )


def test_chinese_page_screenshots(page, site):
    """Save the Chinese page at its start, mid-search and finished, on a phone, a laptop and a
    projector, in tests/artifacts/zh-<state>-<width>.png: to be looked at for text that does not fit."""
    _, zh = catalogs(page)
    page.get_by_label("Language").select_option(label="简体中文")
    for width, height in SCREENS:
        page.set_viewport_size({"width": width, "height": height})
        page.goto(site.url)
        page.wait_for_function(READY)
        expect(page.locator("#status")).to_have_text(ready(zh))
        page.screenshot(path=artifact(f"zh-start-{width}.png"), full_page=True)
        step_until(page, MID_SEARCH)
        page.screenshot(path=artifact(f"zh-mid-{width}.png"), full_page=True)
        page.locator("#speed").fill(FASTEST)
        finish(page)
        expect(page.locator("#depth")).to_have_text("25 / 25")
        page.screenshot(path=artifact(f"zh-finished-{width}.png"), full_page=True)
