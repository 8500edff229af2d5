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


# --- API tokens expire and can be revoked --------------------------------


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


# --- sign-in limits that cannot be turned against the director ----------


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


# --- a password change revokes what the old password opened ---------------------------


def _change_password(username: str, new: str) -> None:
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.get(username=username)
    user.set_password(new)
    user.save()


def test_a_password_change_revokes_every_token_and_session_of_the_user(dana: None) -> None:
    from django.contrib.sessions.models import Session

    laptop, phone = Client(), Client()
    token = _token(laptop)
    assert _sign_in(laptop, GOOD) == _sign_in(phone, GOOD) == 302
    bystander = StaffRoleFactory(user__username="bea").user
    bystanders = Client()
    bystanders.force_login(bystander)
    _change_password("dana", "a whole new passphrase 2026")
    assert _my_tournaments(token) in (401, 403)  # the token is gone...
    for browser in (laptop, phone):  # ...and every session, not just refused
        assert browser.get("/director/").status_code == 302
    assert bystanders.get("/director/").status_code == 200  # another user's session stays
    assert Session.objects.count() == 1
    again = laptop.post(
        "/api/auth/token", {"username": "dana", "password": "a whole new passphrase 2026"}
    )
    assert again.status_code == 200 and again.json()["token"] != token  # a new one, not the old


def test_the_browser_that_changes_its_password_stays_signed_in(dana: None) -> None:
    from django.contrib.auth import get_user_model

    get_user_model().objects.filter(username="dana").update(is_staff=True)
    laptop, other = Client(), Client()
    assert _sign_in(laptop, GOOD) == _sign_in(other, GOOD) == 302
    new = "a whole new passphrase 2026"
    changed = laptop.post(
        "/admin/password_change/",
        {"old_password": GOOD, "new_password1": new, "new_password2": new},
    )
    assert changed.status_code == 302, changed.content[:500]
    assert laptop.get("/director/").status_code == 200
    assert other.get("/director/").status_code == 302


# --- sign-in pauses a stranger on the same network cannot renew for ever ------------


def _device(client: Client) -> Client:
    """`client` made a device of dana's: it signs in, then out, keeping its device cookie."""
    from config.signin import DEVICE_COOKIE

    assert _sign_in(client, GOOD) == 302
    assert DEVICE_COOKIE in client.cookies
    client.post("/accounts/logout/")
    return client


def test_guesses_from_others_on_the_same_network_never_pause_the_directors_device(
    dana: None,
) -> None:
    """The stranger shares the director's address (a venue's Wi-Fi) and pauses it after each
    pause: the director's laptop, which signed in before, is let in every time."""
    laptop = _device(Client())
    stranger = Client()
    for _ in range(4):
        _fail(stranger, settings.AXES_FAILURE_LIMIT)
        assert _sign_in(stranger, GOOD) == 429  # the address is paused...
        assert _sign_in(laptop, GOOD) == 302  # ...the device is not
        laptop.post("/accounts/logout/")
        _wind_back(601)


def test_a_device_that_guesses_is_slowed_like_any_browser(dana: None) -> None:
    laptop = _device(Client())
    _fail(laptop, settings.AXES_FAILURE_LIMIT)  # its own wrong passwords: it is trusted no more
    _fail(laptop, settings.AXES_FAILURE_LIMIT)  # ...and then paused as any browser is
    assert _sign_in(laptop, GOOD) == 429


def test_a_device_cookie_of_another_user_or_forged_is_not_trusted(dana: None) -> None:
    from django.core import signing

    from config.signin import DEVICE_COOKIE, DEVICE_SALT

    StaffRoleFactory(user__username="eve", user__password=GOOD)
    theirs = _device_for("eve")
    forged = "x" + signing.dumps({"username": "dana", "device": "d"}, salt=DEVICE_SALT)[1:]
    for cookie in (theirs.cookies[DEVICE_COOKIE].value, forged):
        stranger = Client()
        _fail(stranger, settings.AXES_FAILURE_LIMIT)
        browser = Client()
        browser.cookies[DEVICE_COOKIE] = cookie
        assert _sign_in(browser, GOOD) == 429
        _wind_back(601)


def _device_for(username: str) -> Client:
    browser = Client()
    form = {"username": username, "password": GOOD}
    assert browser.post("/accounts/login/", form).status_code == 302
    return browser


def test_behind_the_front_each_client_address_counts_apart(client: Client, dana: None) -> None:
    """`make serve` and `make venue`: gunicorn hears nginx over a Unix socket (no address);
    nginx names the client in X-Forwarded-For, replacing whatever the client sent."""
    attacker = {"REMOTE_ADDR": "", "HTTP_X_FORWARDED_FOR": "203.0.113.9"}
    director = {"REMOTE_ADDR": "", "HTTP_X_FORWARDED_FOR": "198.51.100.7"}
    _fail(client, settings.AXES_FAILURE_LIMIT, **attacker)
    assert _sign_in(client, GOOD, **attacker) == 429
    assert _sign_in(client, GOOD, **director) == 302
