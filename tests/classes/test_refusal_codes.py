"""Refusals by code: every code the server can send is documented, and the page says it in
each of its languages; so does every reason a class can end for."""

import re
from pathlib import Path

from server.classes.events import ENDINGS

ROOT = Path(__file__).resolve().parents[2]
CODE = re.compile(r'"((?:request|server|run|class|question|tournament|strip|badge|exercise)\.[a-z_]+)"')
LANGUAGES = ("en", "zh")


def codes():
    """Return every refusal code written in the server's code."""
    return {code for path in (ROOT / "server").rglob("*.py") for code in CODE.findall(path.read_text())}


def catalog(language):
    """Return the message ids of one of the page's catalogs."""
    words = (ROOT / "static/js/words" / f"{language}.js").read_text()
    return set(re.findall(r'^\s*"([\w.]+)":', words, re.M))


def test_the_server_sends_codes_of_every_kind():
    some = {"request.invalid", "server.full", "run.none", "class.no_such_class", "question.answered"}
    assert some <= codes()


def test_every_code_is_documented():
    protocol = (ROOT / "docs/protocol.md").read_text()
    assert {code for code in codes() if f"| `{code}` |" not in protocol} == set()


def test_the_page_says_every_code_and_every_ending_in_each_language():
    for language in LANGUAGES:
        ids = catalog(language)
        # A page earns its badge out of sight and connects whatever the answer: it shows no
        # badge refusal, which only a script reads.
        shown = {code for code in codes() if not code.startswith("badge.")}
        missing = {code for code in shown if f"refusal.{code}" not in ids}
        missing |= {why for why in ENDINGS if f"class.ending.{why}" not in ids}
        assert missing == set(), f"{language}: no message for {sorted(missing)}"
