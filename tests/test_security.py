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


def _sign_in(client: Client, password: str, **meta: str) -> int:
    form = {"username": "dana", "password": password}
    return client.post("/accounts/login/", form, **meta).status_code


def test_repeated_wrong_passwords_pause_the_sign_in_briefly(client: Client, dana: None) -> None:
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert _sign_in(client, "guess") == 200  # the form again, with its error
    locked = client.post("/accounts/login/", {"username": "dana", "password": "guess"})
    assert locked.status_code == 429
    assert "0:00:30" in locked.content.decode()  # the first pause: 30 seconds, not 15 minutes
    assert _sign_in(client, GOOD) == 429  # paused: even the right password is refused
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


# --- sign-in limits that cannot be turned against the director (issue #17, finding 7) ----------


def _wind_back(seconds: float) -> None:
    """As if the failures so far had happened `seconds` earlier."""
    from datetime import timedelta

    from axes.models import AccessAttempt, AccessFailureLog

    for model in (AccessAttempt, AccessFailureLog):
        for row in model.objects.all():
            row.attempt_time -= timedelta(seconds=seconds)
            row.save(update_fields=["attempt_time"])


def _fail(client: Client, times: int, **meta: str) -> None:
    for _ in range(times):
        _sign_in(client, "guess", **meta)


def test_the_pause_ends_by_itself_and_grows_only_with_more_failures(
    client: Client, dana: None
) -> None:
    from config.signin import signin_pause

    limit = settings.AXES_FAILURE_LIMIT
    _fail(client, limit)
    assert _sign_in(client, GOOD) == 429
    _wind_back(31)
    assert _sign_in(client, GOOD) == 302  # the pause is over: the director is in
    client.logout()
    pauses = []
    for _ in range(12):  # someone at the venue keeps guessing, round after round
        _fail(client, limit)
        pauses.append(signin_pause(username="dana", ip_address="127.0.0.1").total_seconds())
        _wind_back(pauses[-1] + 1)
    assert pauses[:4] == [60, 120, 240, 480]  # growing (the first pause is remembered)...
    assert max(pauses) == settings.SIGNIN_PAUSE_MAX.total_seconds() == 600  # ...and bounded
    assert _sign_in(client, GOOD) == 302  # never locked out for good


def test_guessing_during_a_pause_does_not_lengthen_it(client: Client, dana: None) -> None:
    _fail(client, settings.AXES_FAILURE_LIMIT)
    _wind_back(20)
    _fail(client, 10)  # refused while paused: not counted, the pause not restarted
    _wind_back(11)
    assert _sign_in(client, GOOD) == 302


def test_failures_from_another_address_do_not_pause_the_director(
    client: Client, dana: None
) -> None:
    _fail(client, settings.AXES_FAILURE_LIMIT, REMOTE_ADDR="10.9.8.7")
    assert _sign_in(client, GOOD, REMOTE_ADDR="10.1.1.1") == 302


def test_behind_a_trusted_proxy_each_client_address_counts_apart(
    client: Client, dana: None, settings
) -> None:
    settings.TRUSTED_PROXIES = ["10.0.0.2"]
    attacker = {"REMOTE_ADDR": "10.0.0.2", "HTTP_X_FORWARDED_FOR": "203.0.113.9"}
    director = {"REMOTE_ADDR": "10.0.0.2", "HTTP_X_FORWARDED_FOR": "198.51.100.7"}
    _fail(client, settings.AXES_FAILURE_LIMIT, **attacker)
    assert _sign_in(client, GOOD, **attacker) == 429
    assert _sign_in(client, GOOD, **director) == 302


def test_a_forwarded_address_from_an_untrusted_client_is_ignored(
    client: Client, dana: None, settings
) -> None:
    settings.TRUSTED_PROXIES = ["10.0.0.2"]
    _fail(client, settings.AXES_FAILURE_LIMIT, REMOTE_ADDR="203.0.113.9")
    spoofed = {"REMOTE_ADDR": "203.0.113.9", "HTTP_X_FORWARDED_FOR": "198.51.100.7"}
    assert _sign_in(client, GOOD, **spoofed) == 429  # still counted by its real address


def test_an_administrator_can_unlock_a_director(client: Client, dana: None) -> None:
    from django.core.management import call_command

    _fail(client, settings.AXES_FAILURE_LIMIT)
    assert _sign_in(client, GOOD) == 429
    call_command("axes_reset_username", "dana")
    assert _sign_in(client, GOOD) == 302
