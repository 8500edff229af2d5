"""Tournaments, players and entries, rounds, staff roles and the director's audit log."""
