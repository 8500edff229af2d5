"""Accounts and deployment: sign-in attempts are limited, and production settings pass
Django's deployment checks."""

import os
import subprocess
import sys

import pytest
from django.conf import settings
from django.test import Client

from tests.factories import StaffRoleFactory

pytestmark = pytest.mark.django_db
GOOD = "correct horse battery staple"


@pytest.fixture
def dana() -> None:
    StaffRoleFactory(user__username="dana")


def _sign_in(client: Client, password: str) -> int:
    return client.post("/accounts/login/", {"username": "dana", "password": password}).status_code


def test_repeated_wrong_passwords_lock_the_account_out(client: Client, dana: None) -> None:
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert _sign_in(client, "guess") == 200  # the form again, with its error
    locked = client.post("/accounts/login/", {"username": "dana", "password": "guess"})
    assert locked.status_code == 429
    assert "0:15:00" in locked.content.decode()
    assert _sign_in(client, GOOD) == 429  # locked out: even the right password is refused
    assert "_auth_user_id" not in client.session


def test_a_few_mistakes_do_not_lock_anyone_out(client: Client, dana: None) -> None:
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        _sign_in(client, "guess")
    assert _sign_in(client, GOOD) == 302


def test_the_api_token_endpoint_is_limited_too(client: Client, dana: None) -> None:
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post("/api/auth/token", {"username": "dana", "password": "guess"})
    response = client.post("/api/auth/token", {"username": "dana", "password": GOOD})
    assert response.status_code in (400, 403, 429)
    assert "token" not in response.json()


def test_production_settings_pass_the_deployment_checks() -> None:
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "DEBUG": "0",
        "SECRET_KEY": "k" * 20 + "-production-secret-key-with-enough-entropy-0123456789",
        "ALLOWED_HOSTS": "kalooki.example.org",
    }
    checked = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert checked.returncode == 0, checked.stderr
