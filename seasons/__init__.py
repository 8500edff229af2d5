"""Seasons and their tables, ratings (OpenSkill) and their history, federation exports; the
Celery tasks that recompute them from stored results.

May import: ``scoring`` and the rooms below it (``tables``, ``tournament``, ``clubs``, ``games``).
"""
