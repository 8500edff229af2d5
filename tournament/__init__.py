"""Tournaments (their club, game and frozen ruleset, stages), players and their entries linked
to a club's members, rounds, staff roles, self check-in, and the director's audit log.

May import ``clubs`` and ``games``; ``tables``, ``scoring`` and the rooms above build on it."""
