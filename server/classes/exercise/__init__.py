"""A class's code exercise: the instructor asks for a search, each student's page checks its own code."""
