"""A client's own run: its player, the registry of runs, and the handlers that drive it."""
