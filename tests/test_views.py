"""The page's routes: the page shows the server's own option lists and limits."""

import re

from server.engine import ORDERINGS
from server.wire import DEFAULT_SPEED, MAX_BUDGET, MAX_SEED, MAX_SIDE, SPEED_STEPS


def field(html, element_id, attribute):
    """Return an attribute of the element with an id in the page."""
    tag = re.search(rf'<[^>]*\bid="{element_id}"[^>]*>', html).group(0)
    return re.search(rf'\b{attribute}="([^"]*)"', tag).group(1)


def test_the_page_takes_its_options_and_limits_from_the_server(app):
    html = app.test_client().get("/").get_data(as_text=True)
    select = re.search(r'<select id="order".*?</select>', html, re.S).group(0)
    assert re.findall(r'<option value="([^"]+)"', select) == list(ORDERINGS)
    steps = [int(step) for step in field(html, "speed", "data-steps").split(",")]
    assert steps == list(SPEED_STEPS)
    assert int(field(html, "speed", "max")) == len(SPEED_STEPS) - 1
    assert steps[int(field(html, "speed", "value"))] == DEFAULT_SPEED
    assert int(field(html, "rows", "max")) == int(field(html, "cols", "max")) == MAX_SIDE
    assert int(field(html, "seed", "max")) == MAX_SEED
    assert int(field(html, "budget", "max")) == MAX_BUDGET
