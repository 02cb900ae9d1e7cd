"""An asyncio Socket.IO client that records what the server sends it, for many clients in one loop."""

import asyncio

import socketio
from aiohttp._websocket.helpers import ws_ext_gen

from .clients import Recording

# The extension offer of Chromium's WebSocket requests (Chrome, Edge; Firefox sends the same).
BROWSER_EXTENSIONS = "permessage-deflate; client_max_window_bits"
# aiohttp writes its own offer when asked to compress, replacing any given in headers. Where it
# is the browsers' (as in aiohttp 3.x), compress=15 sends it and also inflates what a server
# that accepts it sends; otherwise the offer goes in headers and aiohttp compresses nothing.
_AIOHTTP_OFFERS_BROWSERS = ws_ext_gen(compress=15) == BROWSER_EXTENSIONS


class AsyncRecordingClient(Recording):
    """A python-socketio AsyncClient over WebSocket that records what the server sends it.

    Every event is acknowledged as it is recorded. With deflate it offers permessage-deflate
    exactly as Chromium does (BROWSER_EXTENSIONS in its Sec-WebSocket-Extensions header);
    without, no extension. Once connected, extensions holds the server's answer: its
    Sec-WebSocket-Extensions header, or None if it accepted none.
    """

    def __init__(self, url, *, deflate=False):
        super().__init__()
        self.url = url
        self.deflate = deflate
        self.extensions = None
        options = {}
        if deflate:
            headers = {"Sec-WebSocket-Extensions": BROWSER_EXTENSIONS}
            compress = 15 if _AIOHTTP_OFFERS_BROWSERS else 0
            options = {"websocket_extra_options": {"headers": headers, "compress": compress}}
        self.sio = socketio.AsyncClient(reconnection=False, **options)
        self.sio.on("*", self.keep)
        self.sio.on("disconnect", self._gone)
        self.dropped = None  # why the connection ended, if this client did not end it
        self._closing = False

    def _gone(self, reason=None):
        if not self._closing:
            self.dropped = f"disconnected by the server ({reason})"

    async def connect(self, wait_timeout=30, headers=None):
        """Connect over WebSocket only, as the page does; note the extensions the server took."""
        try:
            await self.sio.connect(
                self.url, headers=headers or {}, transports=["websocket"], wait_timeout=wait_timeout
            )
        except Exception:
            # Engine.IO keeps its aiohttp session after a failed connect: close it here.
            if self.sio.eio.http is not None and not self.sio.eio.http.closed:
                await self.sio.eio.http.close()
            raise
        response = getattr(self.sio.eio.ws, "_response", None)  # aiohttp's upgrade response
        if response is not None:
            self.extensions = response.headers.get("Sec-WebSocket-Extensions")

    async def call(self, event, data=None, timeout=10):
        """Send an event and return the server's acknowledgement."""
        return await self.sio.call(event, data, timeout=timeout)

    async def close(self, timeout=10):
        """Disconnect, if still connected."""
        self._closing = True
        if self.sio.connected:
            await asyncio.wait_for(self.sio.disconnect(), timeout)
