"""Frames: the embed's route and options, the headers that let it (and nothing else) be framed."""

import re

import pytest

from server import __main__ as cli
from tests.support.page import limits_in


def test_the_page_and_every_other_response_refuse_frames(app):
    client = app.test_client()
    for path in ("/", "/static/js/app.js", "/vendor/gifenc/gifenc.esm.js", "/class/AB3XZ/qr.svg", "/no"):
        response = client.get(path)
        assert response.headers["Content-Security-Policy"] == "frame-ancestors 'none'", path
        assert response.headers["X-Frame-Options"] == "DENY", path
        assert response.headers["X-Content-Type-Options"] == "nosniff", path


def test_the_embed_may_be_framed_by_any_site_or_by_the_sites_named(app):
    client = app.test_client()
    response = client.get("/embed")
    assert response.status_code == 200
    # No policy at all: `frame-ancestors *` would refuse pages opened from disk (test_embed.py).
    assert "Content-Security-Policy" not in response.headers
    assert "X-Frame-Options" not in response.headers
    app.config["EMBED_ANCESTORS"] = ["https://lms.example.edu", "https://*.example.org"]
    response = client.get("/embed")
    assert (
        response.headers["Content-Security-Policy"]
        == "frame-ancestors https://lms.example.edu https://*.example.org"
    )


def options(controls="minimal", panels=(), autoplay=False, loop=False, language=None):
    """Return an embed's options as the page is given them."""
    return dict(controls=controls, panels=list(panels), autoplay=autoplay, loop=loop, language=language)


@pytest.mark.parametrize(
    "query, expected",
    [
        ("", options()),
        (
            "controls=full&panels=chart,code&autoplay=true&loop=1&lang=zh",
            options("full", ["code", "chart"], autoplay=True, loop=True, language="zh"),
        ),
        # With no controls it plays on its own: nothing else could start it.
        ("controls=none", options("none", autoplay=True)),
        # What it cannot use falls back, as a link's values do.
        ("controls=<b>&panels=stack,toString,,code&autoplay=no&lang=fr", options(panels=["code", "stack"])),
    ],
)
def test_the_embed_takes_its_options_from_its_address(app, query, expected):
    options = expected
    html = app.test_client().get(f"/embed?{query}").get_data(as_text=True)
    assert limits_in(html)["embed"] == options
    assert f'data-embed="{options["controls"]}"' in html
    for panel in ("code", "stack", "chart"):
        section = re.search(rf'<section data-panel="{panel}"[^>]*>', html).group(0)
        assert ("hidden" in section) == (panel not in options["panels"]), panel
    # The embed has a link to the whole page, the page an embed code to copy.
    assert 'id="open-full"' in html
    assert 'id="embed-play"' in html if options["controls"] == "none" else 'id="embed-play"' not in html


def test_the_page_is_no_embed(app):
    html = app.test_client().get("/?controls=none").get_data(as_text=True)
    assert limits_in(html)["embed"] is None
    assert "data-embed" not in html and 'id="open-full"' not in html
    assert 'id="embed-code"' in html


def test_the_sites_that_may_frame_the_embed_are_given_on_the_command_line():
    args = cli.parse(
        ["--embed-site", "https://lms.example.edu/", "--embed-site", "https://*.example.org:8443"]
    )
    config = re.fullmatch(r"server:create_app\((.*)\)", cli.gunicorn_command(args)[-1]).group(1)
    assert "'EMBED_ANCESTORS': ['https://lms.example.edu', 'https://*.example.org:8443']" in config


@pytest.mark.parametrize(
    "site",
    ["lms.example.edu", "https://lms.example.edu/a", "https://a.edu 'unsafe-eval'", "https://a.edu;x", "*"],
)
def test_a_site_that_is_not_one_is_refused(site, capsys):
    # Anything else would be written into the header as it is.
    with pytest.raises(SystemExit):
        cli.parse(["--embed-site", site])
    assert "--embed-site" in capsys.readouterr().err
