"""What a run's handlers ask of the rest of the server: who else sees a run, and who may drive it.

A run on its own is seen by its page alone, which may always drive it. A feature that shares
runs (the classes package) puts its own answers in the registry's seams at init_app.
"""


class Nobody:
    """The audience of a run its page watches alone: there is nobody else to tell."""

    outlines = False  # whether it is sent the outline of batches it is not sent (see batch)

    def started(self, payload, player):
        """Tell the others a run has begun."""

    def batch(self, payload, player, outline=None):
        """Pass a batch of the run's events on, or, if it is not sent, its outline (see
        engine/outline.py) when it comes."""

    def progress(self, snapshot):
        """Pass on the progress of a skip."""

    def finished(self, payload, player):
        """Tell the others the run has ended, and how."""

    def control(self, player):
        """Tell the others the run was paused, resumed, stepped, sped up, skipped or stopped."""

    def stalled(self, player, stalled):
        """Tell the others the run's page stopped taking its batches (True), or takes them again."""


class Alone:
    """The seams of a server whose runs are each their own page's."""

    def audience(self, sid, run):
        """Return who else sees the run sid starts (run None: the run sid has now)."""
        return Nobody()

    def page(self, sid):
        """Return a function that names the page taking sid's run now (None while it is away)."""
        return lambda: sid

    def share(self, sid, browser):
        """Return whose turns at searching a run of sid's takes (see turns.py): its browser's
        (edge/badges.py: the address, and the badge if any)."""
        return browser

    def check(self, sid, action):
        """Raise ValueError if sid may not take action ("start", "pause", ...) on its run."""
