"""The games' tests run without Django (``-p no:django``): no database, no settings, no Celery.

The project-wide ``tests/conftest.py`` tunes Django settings and Celery for every test through
autouse fixtures; the games have neither, so here those fixtures do nothing, and these tests run
the same with or without pytest-django.
"""

import pytest


@pytest.fixture(autouse=True)
def _fast_password_hashing() -> None:
    """Stands in for the project-wide fixture of the same name, which needs Django's settings."""


@pytest.fixture(autouse=True)
def _tasks_run_eagerly() -> None:
    """Stands in for the project-wide fixture of the same name, which needs the Celery app."""
