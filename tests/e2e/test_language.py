"""The page in Simplified Chinese: every string translated, switching back and forth, and the layout."""

import re
import shutil
import warnings
from html.parser import HTMLParser
from pathlib import Path

import pytest
from flask import Flask, render_template
from playwright.sync_api import expect

from server.views import page_context
from tests.support.page import FASTEST, artifact

ROOT = Path(__file__).resolve().parents[2]
PLACEHOLDER = re.compile(r"\{(\w+)\}")
FOUND = (
    "Tour found: the knight visited all {squares} squares, after {visits} visits and {backtracks} backtracks."
)


# Reading the page's English strings from its source.

PUNCTUATORS = sorted(
    """>>>= ... === !== **= <<= >>= >>> &&= ||= ??= => == != <= >= && || ?? ?. ++ -- += -= *= /= %=
    &= |= ^= ** << >> { } ( ) [ ] ; , < > + - * / % & | ^ ! ~ ? : = . @ #""".split(),
    key=len,
    reverse=True,
)
REGEX_AFTER = {
    "return",
    "typeof",
    "case",
    "do",
    "else",
    "in",
    "of",
    "new",
    "delete",
    "void",
    "throw",
    "yield",
    "await",
    "instanceof",
}
ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}


class Token:
    """One JavaScript token: kind is name, num, str, template (no ${}), head, middle, tail,
    regex or punct; value is a literal's text, raw the source."""

    def __init__(self, kind, value, raw, line):
        self.kind, self.value, self.raw, self.line = kind, value, raw, line

    def __repr__(self):
        return f"Token({self.kind}, {self.raw!r}, line {self.line})"

    def opens(self):
        return self.raw in ("(", "[", "{") or self.kind == "head"

    def closes(self):
        return self.raw in (")", "]", "}") or self.kind == "tail"


def unescape(text):
    """Decode a JavaScript string literal's escapes."""
    out, i = [], 0
    while i < len(text):
        ch = text[i]
        if ch != "\\":
            out.append(ch)
            i += 1
            continue
        nxt = text[i + 1]
        if nxt == "u" and text[i + 2] == "{":
            end = text.index("}", i)
            out.append(chr(int(text[i + 3 : end], 16)))
            i = end + 1
        elif nxt == "u":
            out.append(chr(int(text[i + 2 : i + 6], 16)))
            i += 6
        elif nxt == "x":
            out.append(chr(int(text[i + 2 : i + 4], 16)))
            i += 4
        elif nxt == "\n":
            i += 2  # a line continuation
        else:
            out.append(ESCAPES.get(nxt, nxt))
            i += 2
    return "".join(out)


def tokenize(source):
    """Split JavaScript into tokens, skipping comments and whitespace."""
    tokens, braces, i, line = [], [], 0, 1

    def significant_before():
        return tokens[-1] if tokens else None

    def template_part(start):
        """Scan template text from start (just after ` or }) to its ` or ${; return (end, text, ends)."""
        j = start
        while True:
            if j >= len(source):
                raise SyntaxError(f"unterminated template literal at line {line}")
            if source[j] == "\\":
                j += 2
            elif source[j] == "`":
                return j + 1, source[start:j], True
            elif source.startswith("${", j):
                return j + 2, source[start:j], False
            else:
                j += 1

    while i < len(source):
        ch = source[i]
        if ch in " \t\r\n":
            line += ch == "\n"
            i += 1
        elif source.startswith("//", i):
            i = source.find("\n", i) if "\n" in source[i:] else len(source)
        elif source.startswith("/*", i):
            end = source.index("*/", i) + 2
            line += source.count("\n", i, end)
            i = end
        elif ch in "'\"":
            j = i + 1
            while source[j] != ch:
                if source[j] == "\n":
                    raise SyntaxError(f"unterminated string at line {line}")
                j += 2 if source[j] == "\\" else 1
            tokens.append(Token("str", unescape(source[i + 1 : j]), source[i : j + 1], line))
            i = j + 1
        elif ch == "`" or (ch == "}" and braces and braces[-1] == "${"):
            if ch == "}":
                braces.pop()
            end, text, ends = template_part(i + 1)
            kind = ("template" if ends else "head") if ch == "`" else ("tail" if ends else "middle")
            if not ends:
                braces.append("${")
            tokens.append(Token(kind, unescape(text), source[i:end], line))
            line += source.count("\n", i, end)
            i = end
        elif ch.isalpha() or ch in "_$":
            m = re.compile(r"[\w$]+").match(source, i)
            tokens.append(Token("name", m.group(), m.group(), line))
            i = m.end()
        elif ch.isdigit() or (ch == "." and source[i + 1 : i + 2].isdigit()):
            m = re.compile(r"[\w.]+").match(source, i)
            tokens.append(Token("num", m.group(), m.group(), line))
            i = m.end()
        elif ch == "/" and (
            (before := significant_before()) is None
            or (before.kind == "punct" and before.raw not in (")", "]", "}"))
            or (before.kind == "name" and before.raw in REGEX_AFTER)
            or before.kind in ("head", "middle")
        ):
            j, in_class = i + 1, False
            while in_class or source[j] != "/":
                if source[j] == "\\":
                    j += 1
                elif source[j] == "[":
                    in_class = True
                elif source[j] == "]":
                    in_class = False
                j += 1
            m = re.compile(r"\w*").match(source, j + 1)
            tokens.append(Token("regex", None, source[i : m.end()], line))
            i = m.end()
        else:
            punct = next((p for p in PUNCTUATORS if source.startswith(p, i)), None)
            if punct is None:
                raise SyntaxError(f"unexpected {ch!r} at line {line}")
            if punct == "{":
                braces.append("{")
            elif punct == "}":
                braces.pop()
            tokens.append(Token("punct", None, punct, line))
            i += len(punct)
    return tokens


def until(tokens, start, stops):
    """Return the index of the first token from start, at bracket depth 0, whose raw is in stops."""
    depth = 0
    for k in range(start, len(tokens)):
        tok = tokens[k]
        if depth == 0 and tok.kind == "punct" and tok.raw in stops:
            return k
        if tok.opens():
            depth += 1
        elif tok.closes():
            depth -= 1
            if depth < 0:
                return k
    return len(tokens)


def split_top(tokens, separator):
    """Split tokens at the separator where it is not nested in brackets."""
    parts, start = [], 0
    while start <= len(tokens):
        end = until(tokens, start, {separator})
        parts.append(tokens[start:end])
        start = end + 1
    return parts


class Dynamic(Exception):
    """An expression whose strings cannot be read from the source alone."""


def literal(tokens):
    """Return the string of "a" + 'b' + `c` (no ${}), or None."""
    if not tokens or len(tokens) % 2 == 0:
        return None
    if any(tok.raw != "+" for tok in tokens[1::2]):
        return None
    if any(tok.kind not in ("str", "template") for tok in tokens[0::2]):
        return None
    return "".join(tok.value for tok in tokens[0::2])


def strings_of(tokens):
    """Return the strings an expression can give: a literal, or either branch of cond ? a : b.
    Raise Dynamic for anything else."""
    value = literal(tokens)
    if value is not None:
        return [value]
    ask = until(tokens, 0, {"?"})
    if ask < len(tokens):
        depth, k = 0, ask + 1  # find the ':' of this '?' (nested ternaries sit in between)
        while k < len(tokens):
            k = until(tokens, k, {"?", ":"})
            if k >= len(tokens) or tokens[k].raw == ":" and depth == 0:
                break
            depth += 1 if tokens[k].raw == "?" else -1
            k += 1
        if k < len(tokens):
            return strings_of(tokens[ask + 1 : k]) + strings_of(tokens[k + 1 :])
    raise Dynamic(" ".join(tok.raw for tok in tokens) or "(nothing)")


def function_body(tokens, name):
    """Return the tokens inside the braces of `function name(...) { ... }`."""
    for k in range(len(tokens) - 1):
        if tokens[k].raw == "function" and tokens[k + 1].raw == name:
            body = until(tokens, k + 2, {"{"})
            return tokens[body + 1 : until(tokens, body + 1, set())]
    raise AssertionError(f"function {name} not found")


def property_values(tokens, key):
    """Return the strings of every `key: value` in tokens."""
    found = []
    for k in range(len(tokens) - 1):
        if tokens[k].raw == key and tokens[k + 1].raw == ":" and (k == 0 or tokens[k - 1].raw in "{,"):
            found += strings_of(tokens[k + 2 : until(tokens, k + 2, {",", ";"})])
    return found


def object_values(tokens, name):
    """Return the strings of every value of `const name = { ... }`."""
    for k in range(len(tokens) - 2):
        if tokens[k].raw == name and tokens[k + 1].raw == "=" and tokens[k + 2].raw == "{":
            entries = tokens[k + 3 : until(tokens, k + 3, set())]
            values = []
            for entry in split_top(entries, ","):
                if entry:
                    assert entry[1].raw == ":", f"{name}: unexpected entry {entry}"
                    values += strings_of(entry[2:])
            return values
    raise AssertionError(f"object {name} not found")


def returned(tokens):
    """Return the strings of every `return ...;` in tokens."""
    found = []
    for k, tok in enumerate(tokens):
        if tok.raw == "return":
            found += strings_of(tokens[k + 1 : until(tokens, k + 1, {";"})])
    return found


class MarkedText(HTMLParser):
    """Collect the data-i18n texts, data-i18n-label and data-i18n-placeholder values of a page."""

    VOID = {
        "area",
        "base",
        "br",
        "col",
        "embed",
        "hr",
        "img",
        "input",
        "link",
        "meta",
        "source",
        "track",
        "wbr",
    }

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.found = []  # (text, line)
        self.open = []  # [tag, collected text or None, line] of each open element

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        line = self.getpos()[0]
        for name in ("data-i18n-label", "data-i18n-placeholder"):
            if name in attrs:
                self.found.append((attrs[name], line))
        if tag not in self.VOID:
            self.open.append([tag, [] if "data-i18n" in attrs else None, line])

    def handle_endtag(self, tag):
        while self.open:
            open_tag, text, line = self.open.pop()
            if text is not None:
                self.found.append(("".join(text), line))
            if open_tag == tag:
                break

    def handle_data(self, data):
        for _, text, _ in self.open:
            if text is not None:
                text.append(data)


def collapse(text):
    return re.sub(r"\s+", " ", text).strip()


def page_strings(root=ROOT):
    """Return {English text: where it is} for every string the page can show, read from the source."""
    strings = {}

    def add(texts, where):
        for text in texts:
            strings.setdefault(text, where)

    js = root / "static" / "js"
    # The strings that reach t() through a variable, and where each variable's strings come from.
    sources = {
        "why . text": (
            "feasibility.js",
            lambda toks: property_values(function_body(toks, "whyNoTour"), "text"),
        ),
        "ORDERINGS [ els . order . value ]": ("theme.js", lambda toks: object_values(toks, "ORDERINGS")),
        "result": ("share.js", lambda toks: returned(function_body(toks, "exportTour"))),
        "v . skip . label": (
            "controls.js",
            lambda toks: property_values(function_body(toks, "view"), "label"),
        ),
        "el . dataset . i18nSource": (None, None),  # the template's data-i18n texts, below
        "el . dataset [ attribute ]": (None, None),  # its data-i18n-label and -placeholder
    }
    dynamic = set()
    for path in sorted(js.glob("*.js")):
        if path.name == "zh.js":
            continue
        tokens = tokenize(path.read_text(encoding="utf-8"))
        for k, tok in enumerate(tokens[:-1]):
            if not (tok.raw == "t" and tokens[k + 1].raw == "("):
                continue
            if k and tokens[k - 1].raw in (".", "?.", "function"):
                continue  # a method, or the definition of t itself
            end = until(tokens, k + 2, {",", ")"})
            argument = tokens[k + 2 : end]
            where = f"static/js/{path.name}:{tok.line}"
            try:
                add(strings_of(argument), where)
            except Dynamic as exc:
                text = str(exc)
                assert text in sources, (
                    f"{where}: t({text}) takes a string this test cannot read from the source; "
                    "pass t() a literal, or teach page_strings() where the variable's strings come from"
                )
                dynamic.add(text)
    for text in dynamic:
        file_name, read = sources[text]
        if file_name:
            texts = read(tokenize((js / file_name).read_text(encoding="utf-8")))
            assert texts, f"no strings found for t({text}) in {file_name}"
            add(texts, f"static/js/{file_name}")
    marked = MarkedText()
    marked.feed(rendered_page(root))
    marked.close()
    for text, line in marked.found:
        add([collapse(text)], f"templates/index.html:{line}")
    return strings


def rendered_page(root):
    """Render the page's template under root as the server does, with the server's options."""
    app = Flask("page", root_path=str(root), template_folder="templates", static_folder="static")
    with app.test_request_context():
        return render_template("index.html", **page_context())


def load_zh(page):
    return page.evaluate("async () => (await import('/static/js/zh.js')).ZH")


# The tests.


def test_reading_the_source_finds_every_kind_of_string():
    strings = page_strings()
    assert strings["Knight's Tour Live"].startswith("static/js/i18n.js")
    assert {"Pause", "Play", "Cancel skip", "Skip to end", "none", "Fastest"} <= set(strings)
    assert "playing" not in strings, "a ternary's condition is not a string of the page"
    assert any(text.startswith("The textbook's estimate") and text.endswith("so far.") for text in strings)
    assert any(
        text.startswith("Warnsdorff's rule, breaking ties") and "large boards." in text for text in strings
    )
    assert "The board was saved as a PNG image." in strings
    assert "The {size} board has no closed tour at all (Schwenk's theorem)." in strings
    assert strings["no limit"].startswith("templates/index.html")
    assert "The board. Click a square to start the knight there." in strings


def test_a_new_untranslated_string_is_noticed(tmp_path):
    """Add strings to a scratch copy of the page (never the real one) and check they are read."""
    for folder in ("static/js", "templates"):
        shutil.copytree(ROOT / folder, tmp_path / folder)
    before = set(page_strings(tmp_path))
    app = tmp_path / "static" / "js" / "app.js"
    app.write_text(
        app.read_text(encoding="utf-8")
        + (
            '\nsay(t("A fake new string, {n} times.", { n: 2 }));\n'
            "say(`${t('Single ' +\n  `and template`)}`);\n"
            'say(t(page.mode === "compare" ? "Fake branch one" : "Fake branch two"));\n'
        ),
        encoding="utf-8",
    )
    html = tmp_path / "templates" / "index.html"
    html.write_text(
        html.read_text(encoding="utf-8").replace(
            "</body>", '<p data-i18n>\n  A fake\n  paragraph </p><i data-i18n-label="Fake label"></i></body>'
        ),
        encoding="utf-8",
    )
    added = set(page_strings(tmp_path)) - before
    assert added == {
        "A fake new string, {n} times.",
        "Single and template",
        "Fake branch one",
        "Fake branch two",
        "A fake paragraph",
        "Fake label",
    }
    app.write_text(app.read_text(encoding="utf-8") + "\nsay(t(someone.elses.text));\n", encoding="utf-8")
    with pytest.raises(AssertionError, match="cannot read"):
        page_strings(tmp_path)


def test_every_string_has_a_chinese_translation(page):
    zh = load_zh(page)
    strings = page_strings()
    missing = {text: where for text, where in strings.items() if text not in zh}
    assert not missing, f"not in static/js/zh.js: {missing}"
    for text in strings:
        words = zh[text]
        assert isinstance(words, str) and words.strip(), f"empty translation of {text!r}"
        assert words != text, f"untranslated: {text!r}"
        assert set(PLACEHOLDER.findall(words)) == set(PLACEHOLDER.findall(text)), (
            f"placeholders differ: {text!r} -> {words!r}"
        )
        assert not re.search(r"[{}]", PLACEHOLDER.sub("", words)), f"a stray brace in {words!r}"
    table = tokenize((ROOT / "static" / "js" / "zh.js").read_text(encoding="utf-8"))
    keys = [
        tok.value
        for before, tok, after in zip(table[:-2], table[1:-1], table[2:], strict=True)
        if before.raw in "{," and after.raw == ":"
    ]
    assert len(keys) == len(zh) and set(keys) == set(zh), "zh.js names a key twice (the last one wins)"
    unused = set(zh) - set(strings)
    assert not unused, f"zh.js has entries the page never shows: {unused}"
    # The keys the page looks up at run time (textContent.trim(), not collapsed) are those read above.
    runtime = page.evaluate("""() => [
        ...[...document.querySelectorAll('[data-i18n]')]
            .map((el) => el.dataset.i18nSource ?? el.textContent.trim()),
        ...[...document.querySelectorAll('[data-i18n-label]')].map((el) => el.dataset.i18nLabel),
        ...[...document.querySelectorAll('[data-i18n-placeholder]')].map((el) => el.dataset.i18nPlaceholder),
    ]""")
    assert [key for key in runtime if key not in zh] == []


def switch_to(page, language, label="Language"):
    """Choose a language in the menu labelled label (its label in the page's current language)."""
    page.get_by_label(label, exact=True).select_option(label=language)


def marked_elements(page):
    """Return (English source, shown text) of every element marked data-i18n."""
    return page.evaluate("""() => [...document.querySelectorAll('[data-i18n]')]
        .map((el) => [el.dataset.i18nSource ?? el.textContent.trim(), el.textContent])""")


def expected_sentence(template, **known):
    """A regular expression for a translated sentence: known placeholders filled, others any number."""
    parts = re.split(r"(\{\w+\})", template)
    return (
        "^"
        + "".join(
            re.escape(str(known[p[1:-1]]))
            if p[1:-1] in known
            else r"[\d,]+"
            if PLACEHOLDER.fullmatch(p)
            else re.escape(p)
            for p in parts
        )
        + "$"
    )


def test_switching_to_chinese_and_back(page):
    zh = load_zh(page)
    ready = "Ready: click a square to choose where the knight starts, then press Play."
    expect(page.get_by_role("status")).to_have_text(ready)
    switch_to(page, "简体中文")

    expect(page.locator("html")).to_have_attribute("lang", "zh-CN")
    expect(page.get_by_role("button", name=zh["Play"], exact=True)).to_be_visible()
    expect(page.get_by_role("status")).to_have_text(zh[ready])
    expect(page.locator("label[for=rows]")).to_have_text(zh["Rows"])
    expect(page.get_by_label(zh["Rows"])).to_have_value("5")
    orderings = ["Naive", "Warnsdorff", "Warnsdorff + Roth's tie-break", "Random"]
    assert page.locator("#order option").all_inner_texts() == [zh[text] for text in orderings]
    expect(page.locator("#order-note")).to_have_text(
        zh["Tries the moves in order of square number, as the textbook's first version does."]
    )
    assert page.title() == zh["Knight's Tour Live"]
    marked = marked_elements(page)
    assert [(source, shown) for source, shown in marked if shown == source and zh.get(source) != source] == []
    assert [(source, shown) for source, shown in marked if source in zh and shown != zh[source]] == []
    expect(page.get_by_role("button", name=zh["Skip to end"])).to_be_visible()
    labels = page.evaluate(
        "() => [...document.querySelectorAll('[data-i18n-label]')].map((el) => "
        "[el.dataset.i18nLabel, el.getAttribute('aria-label')])"
    )
    assert all(label == zh[source] for source, label in labels), labels
    expect(page.locator("#budget")).to_have_attribute("placeholder", zh["no limit"])

    page.get_by_label(zh["Rows"]).fill("5")
    page.get_by_label(zh["Rows"]).dispatch_event("change")
    page.get_by_label(zh["Columns"]).fill("5")
    page.get_by_label(zh["Columns"]).dispatch_event("change")
    page.get_by_label(zh["Ordering"]).select_option("warnsdorff")
    page.get_by_label(zh["Speed"]).fill(FASTEST)
    expect(page.locator("#speed-out")).to_have_text(zh["Fastest"])
    page.get_by_role("button", name=zh["Play"], exact=True).click()
    found = zh[FOUND]
    expect(page.get_by_role("status")).to_have_text(
        re.compile(expected_sentence(found, squares=25)), timeout=10_000
    )
    expect(page.get_by_role("status")).to_contain_text("25")
    expect(page.locator("#depth")).to_have_text("25 / 25")

    page.reload()
    expect(page.get_by_role("button", name=zh["Play"], exact=True)).to_be_enabled()
    expect(page.locator("html")).to_have_attribute("lang", "zh-CN")
    expect(page.get_by_label(zh["Language"], exact=True)).to_have_value("zh")
    expect(page.get_by_role("status")).to_have_text(zh[ready])
    assert page.evaluate("() => localStorage.getItem('knights-tour-language')") == "zh"

    switch_to(page, "English", zh["Language"])
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.get_by_role("button", name="Play", exact=True)).to_be_visible()
    expect(page.get_by_role("status")).to_have_text(ready)
    expect(page.locator("label[for=rows]")).to_have_text("Rows")
    assert all(shown == source for source, shown in marked_elements(page))
    assert page.title() == "Knight's Tour Live"
    assert page.evaluate("() => localStorage.getItem('knights-tour-language')") == "en"


def spilling(page):
    """Return the shown elements whose content spills out of their box (not counting boxes that
    scroll, screen-reader-only text and the code), each as a path from <body>, with its text."""
    return page.evaluate("""() => {
        const spills = (el) => {
            const style = getComputedStyle(el);
            // + 2: a range input's margin
            return (style.overflowX === 'visible' && el.scrollWidth > el.clientWidth + 2)
                || (style.overflowY === 'visible' && el.scrollHeight > el.clientHeight + 2)
                || document.documentElement.scrollWidth > window.innerWidth && el === document.body;
        };
        const path = (el) => {
            const steps = [];
            for (; el !== document.body; el = el.parentElement) {
                const nth = [...el.parentElement.children].indexOf(el) + 1;
                steps.unshift(el.id ? `#${el.id}` : `${el.tagName.toLowerCase()}:nth-child(${nth})`);
                if (el.id) break;
            }
            return steps.join(' > ') || 'body';
        };
        return Object.fromEntries([...document.querySelectorAll('body, body *')]
            .filter((el) => el.getClientRects().length && el.clientWidth > 0
                && !el.closest('.sr-only, pre') && spills(el))
            .map((el) => [path(el), el.textContent.trim().replace(/\\s+/g, ' ').slice(0, 60)]));
    }""")


def test_chinese_page_screenshots(page):
    zh = load_zh(page)
    found = zh[FOUND]
    worse, both = {}, {}

    def shoot(name, **options):
        """Save a screenshot of the Chinese page, and note where its text spills out of its box,
        apart from the places where the English page's text spills too (not the translation's doing)."""
        page.screenshot(path=artifact(f"{name}.png"), **options)
        chinese = spilling(page)
        switch_to(page, "English", zh["Language"])
        english = spilling(page)
        switch_to(page, "简体中文")
        worse.update({f"{name}: {where}": text for where, text in chinese.items() if where not in english})
        both.update({f"{name}: {where}": text for where, text in chinese.items() if where in english})

    switch_to(page, "简体中文")
    page.get_by_label(zh["Ordering"]).select_option("warnsdorff")
    page.get_by_label(zh["Speed"]).fill(FASTEST)
    page.get_by_role("button", name=zh["Play"], exact=True).click()
    expect(page.get_by_role("status")).to_have_text(
        re.compile(expected_sentence(found, squares=25)), timeout=10_000
    )
    shoot("zh_desktop")
    page.locator("details.legend summary").click()
    shoot("zh_desktop_key")

    page.get_by_label(zh["Show"]).select_option("compare")
    page.get_by_role("button", name=zh["Play"], exact=True).click()
    expect(page.get_by_role("status")).to_contain_text(zh["Warnsdorff"], timeout=20_000)
    shoot("zh_desktop_compare")

    page.get_by_label(zh["Show"]).select_option("example")
    page.get_by_role("button", name=zh["Play"], exact=True).click()
    expect(page.get_by_role("status")).to_contain_text("A、B、D、E、F、C", timeout=10_000)
    shoot("zh_desktop_example")

    page.get_by_label(zh["Show"]).select_option("board")
    page.set_viewport_size({"width": 390, "height": 844})
    page.get_by_role("button", name=zh["Play"], exact=True).click()
    expect(page.get_by_role("status")).to_have_text(
        re.compile(expected_sentence(found, squares=25)), timeout=10_000
    )
    shoot("zh_phone", full_page=True)
    page.get_by_role("button", name=zh["Keyboard shortcuts"]).click()
    shoot("zh_phone_help")
    page.keyboard.press("Escape")

    if both:
        warnings.warn(f"text spills out of its box in English and Chinese alike: {both}", stacklevel=1)
    assert worse == {}, f"the Chinese text spills out of its box (see tests/artifacts/): {worse}"
