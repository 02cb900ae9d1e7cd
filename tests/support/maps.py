"""A map of rooms read from their imports: a room that imports itself through others, and the
floors the rooms stand on (the server's map and the page's, tests/layout)."""

import functools


def circle_through(rooms, doors):
    """Return a room that imports itself through other rooms (doors(room): the rooms it imports), or None."""
    for each in rooms:
        seen, todo = set(), list(doors(each))
        while todo:
            other = todo.pop()
            if other == each:
                return each
            if other not in seen:
                seen.add(other)
                todo.extend(doors(other))
    return None


def floors(rooms, doors):
    """Return how many floors the rooms stand on, each one above the highest it imports."""

    @functools.cache
    def floor(each, below=frozenset()):
        # below: the rooms on the way here, so that a circle (circle_through names it) ends.
        return 1 + max((floor(other, below | {each}) for other in doors(each) - below), default=0)

    return max(floor(each) for each in rooms)
