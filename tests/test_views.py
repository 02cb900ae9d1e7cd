"""The page's routes: the page with its controls and the server's own options, and the Socket.IO client."""

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


def test_page_is_served_with_its_controls(app):
    page = app.test_client().get("/")
    assert page.status_code == 200
    for label in (b'for="rows"', b'for="cols"', b'for="order"', b'for="speed"', b'role="status"'):
        assert label in page.data


def test_socket_io_client_is_served_locally(app):
    response = app.test_client().get("/vendor/socket.io/socket.io.esm.min.js")
    assert response.status_code == 200
    assert b"io" in response.data and len(response.data) > 10_000
