"""Clubs, their directors and member registers: a member is a person who lasts across events.

May import: ``games`` only (``tournament`` and everything above build on this room).
"""
