"""A class's answers to the runs' seams: an instructor's run goes to whichever page leads the
class and is relayed to its room; a follower may not drive it; an open question holds it."""

from ..runs.registry import runs
from .questions.slot import check_unasked
from .registry import classes
from .relay import relay_for
from .roles import check_in_control

# What a question's answer would give away: the run must not move on while it is open.
MOVES_ON = frozenset({"start", "resume", "step", "skip", "stop"})


class ClassSeams:
    """The runs' seams, answered by the classes of the app."""

    def audience(self, sid, run):
        """Return the relay to the room of the class whose run sid starts, if any."""
        return relay_for(sid, run)

    def page(self, sid):
        """Return a function that names the page that leads sid's class now, or sid's own."""
        klass = classes().led_by(sid)
        return (lambda: klass.instructor) if klass is not None else (lambda: sid)

    def share(self, sid, browser):
        """Return whose turns at searching a run of sid's takes: its class's, which a whole
        hall watches, or its browser's."""
        klass = classes().led_by(sid)
        return f"class:{klass.code}" if klass is not None else browser

    def check(self, sid, action):
        """Raise ValueError if sid follows a class, or if action would move on past an open question."""
        check_in_control(sid)
        if action in MOVES_ON:
            check_unasked(sid)


def init_app(app):
    """Put the classes' answers in the app's runs' seams."""
    runs(app).seams = ClassSeams()
