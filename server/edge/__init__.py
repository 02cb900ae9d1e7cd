"""What stands between a client and the handlers: limits by address, the WebSocket end, checks
of every packet, frame headers, and the goodbye of a stopping server."""
