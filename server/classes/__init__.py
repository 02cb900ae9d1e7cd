"""Classes: an instructor's run followed by a room of students, and the class's questions and
tournament.

Each feature keeps its part of a class in a slot of its own, made with the class by the factory
the feature gives at init_app: the mirror of the instructor's view (mirror.py), a race's other
board (relay.py), the questions (questions/), the tournament (tournament/) and the code exercise
(exercise/). The handlers of each (events.py, questions/events.py, tournament/events.py,
exercise/events.py) import none of the others'; what
they share lives below them (roles.py, throttle.py, sessions.py, registry.py).
"""

from . import mirror, registry, relay, seams
from .exercise import slot as exercise
from .questions import slot as questions
from .tournament import slot as tournament

# The slots in the order a joining follower's welcome carries them.
SLOTS = (
    (mirror.NAME, mirror.Mirror),
    (relay.SECOND, relay.Lane),
    (questions.NAME, questions.Questions),
    (tournament.NAME, tournament.Contest),
    (exercise.NAME, exercise.Exercise),
)


def init_app(app):
    """Give an app its classes, each with the slots of its features, and answer the runs' seams."""
    registry.init_app(app)
    for name, make in SLOTS:
        registry.classes(app).add_slot(name, make)
    seams.init_app(app)
