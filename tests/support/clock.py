"""A clock for code that takes one: it moves only when a test says so."""


class Clock:
    """A clock that moves only when told to."""

    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now

    def advance(self, seconds):
        self.now += seconds
