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


# --- API tokens expire and can be revoked (issue #17, finding 12) --------------------------------


def _token(client: Client) -> str:
    response = client.post("/api/auth/token", {"username": "dana", "password": GOOD})
    assert response.status_code == 200, response.content
    return response.json()["token"]


def _my_tournaments(token: str) -> int:
    return Client().get("/api/tournaments", HTTP_AUTHORIZATION=f"Token {token}").status_code


def test_a_token_stops_working_when_it_expires(client: Client, dana: None, settings) -> None:
    from datetime import timedelta

    from rest_framework.authtoken.models import Token

    token = _token(client)
    assert _my_tournaments(token) == 200
    Token.objects.filter(key=token).update(created=Token.objects.get().created - timedelta(hours=1))
    settings.API_TOKEN_TTL = timedelta(minutes=30)
    refused = Client().get("/api/tournaments", HTTP_AUTHORIZATION=f"Token {token}")
    assert refused.status_code in (401, 403)
    assert "expired" in refused.json()["errors"][0]["message"]
    fresh = _token(client)
    assert fresh != token and _my_tournaments(fresh) == 200


def test_a_token_can_be_revoked_by_its_holder(client: Client, dana: None) -> None:
    token = _token(client)
    revoked = Client().delete("/api/auth/token", HTTP_AUTHORIZATION=f"Token {token}")
    assert revoked.status_code == 204
    assert _my_tournaments(token) in (401, 403)
