"""Classes: an instructor's run followed by a room of students, and the class's questions."""
