"""A page that the production server has no room for says so at once, in the page's language."""

import pytest
from playwright.sync_api import expect

from server.__main__ import SPARE_FILES, websocket_capacity
from tests.e2e.conftest import VIEWPORT
from tests.support.clients import RawClient
from tests.support.servers import ProductionServer

OPEN_FILES = SPARE_FILES + 1  # room for one WebSocket


@pytest.mark.parametrize(
    ("locale", "sentence"),
    [("en-GB", "The server is full (1 connections at once)"), ("zh-CN", "服务器已满（同时最多 1 个连接）")],
)
def test_a_page_the_server_has_no_room_for_is_told(browser, tmp_path, locale, sentence):
    assert websocket_capacity(OPEN_FILES) == 1
    with ProductionServer(log_path=tmp_path / "server.log", open_files=(OPEN_FILES, OPEN_FILES)) as server:
        holder = RawClient(server.url)
        context = browser.new_context(viewport=VIEWPORT, locale=locale)
        try:
            page = context.new_page()
            page.goto(server.url)
            # Told within the page's first seconds, not after a connection attempt times out.
            expect(page.locator("#status")).to_contain_text(sentence, timeout=5000)
        finally:
            context.close()
            holder.close()
