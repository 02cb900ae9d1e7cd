"""A class's tournament: each student's ordering searched on the same boards, its standings told."""
