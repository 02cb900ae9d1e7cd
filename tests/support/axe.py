"""axe-core's check of a page: no violation of the WCAG 2.1 A and AA rules.

axe-core comes from npm (package.json's devDependencies, pinned) and is put into the page by the
test alone: the app never serves it. No rule is excepted; one that had to be would be named here
with its reason.
"""

import json
from pathlib import Path

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
RULES = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
EXCEPTED = {}  # rule id -> why it is excepted (none)


def violations(page):
    """Return axe-core's violations of the WCAG 2.1 A and AA rules on the page as it is now."""
    if not page.evaluate("() => 'axe' in window"):
        page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    found = page.evaluate(
        """async (tags) => (await axe.run(document, { runOnly: { type: 'tag', values: tags } })).violations
             .map((v) => ({ rule: v.id, help: v.help, where: v.nodes.map((n) => n.target.join(' ')) }))""",
        RULES,
    )
    return [each for each in found if each["rule"] not in EXCEPTED]


def clean(page, state):
    """Check that a state of the page has no violation, naming the state and each one found."""
    found = violations(page)
    assert found == [], f"{state}: " + json.dumps(found, ensure_ascii=False, indent=1)
