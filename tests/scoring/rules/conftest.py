"""The rules tests run without Django (``-p no:django``): no database, no settings.

The project-wide ``tests/conftest.py`` tunes Django settings for every test through an autouse
fixture; the rules engine has no settings to tune, so here that fixture does nothing, and these
tests run the same with or without pytest-django.
"""

import pytest


@pytest.fixture(autouse=True)
def _fast_password_hashing() -> None:
    """Stands in for the project-wide fixture of the same name, which needs Django's settings."""
