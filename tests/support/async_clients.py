"""An asyncio Socket.IO client that records what the server sends it, for many clients in one loop."""

import asyncio

import socketio

from .clients import Recording


class AsyncRecordingClient(Recording):
    """A python-socketio AsyncClient over WebSocket that records what the server sends it.

    Every event is acknowledged as it is recorded. With deflate it offers permessage-deflate,
    as browsers do: simple-websocket accepts it, but aiohttp offers it only when asked.
    """

    def __init__(self, url, *, deflate=False):
        super().__init__()
        self.url = url
        options = {"websocket_extra_options": {"compress": 15}} if deflate else {}
        self.sio = socketio.AsyncClient(reconnection=False, **options)
        self.sio.on("*", self.keep)
        self.sio.on("disconnect", self._gone)
        self.dropped = None  # why the connection ended, if this client did not end it
        self._closing = False

    def _gone(self, reason=None):
        if not self._closing:
            self.dropped = f"disconnected by the server ({reason})"

    async def connect(self, wait_timeout=30):
        """Connect over WebSocket only, as the page does."""
        await self.sio.connect(self.url, transports=["websocket"], wait_timeout=wait_timeout)

    async def call(self, event, data=None, timeout=10):
        """Send an event and return the server's acknowledgement."""
        return await self.sio.call(event, data, timeout=timeout)

    async def close(self, timeout=10):
        """Disconnect, if still connected."""
        self._closing = True
        if self.sio.connected:
            await asyncio.wait_for(self.sio.disconnect(), timeout)
