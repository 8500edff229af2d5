"""Settings come from the environment and a bad value stops start-up naming the variable."""

import subprocess
import sys

import pytest

from config.env import env_bool, env_int, env_list, env_url


def _start(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Import the settings in a fresh interpreter, as a process starting up would."""
    return subprocess.run(
        [sys.executable, "-c", "import config.settings"],
        env={"PATH": "/usr/bin:/bin", **env},
        capture_output=True,
        text=True,
        check=False,
    )


def test_it_refuses_to_start_without_a_secret_key_when_debug_is_off() -> None:
    started = _start({"DEBUG": "0"})
    assert started.returncode != 0
    assert "SECRET_KEY is not set" in started.stderr


def test_it_starts_with_a_development_key_when_debug_is_on() -> None:
    assert _start({"DEBUG": "1"}).returncode == 0


def test_it_starts_in_production_mode_with_a_secret_key() -> None:
    assert (
        _start({"DEBUG": "0", "SECRET_KEY": "x" * 50, "ALLOWED_HOSTS": "example.org"}).returncode
        == 0
    )


@pytest.mark.parametrize(
    ("variable", "value"),
    [("DEBUG", "maybe"), ("DATABASE_URL", "mysql://x/y"), ("REDIS_URL", "localhost:6379")],
)
def test_a_bad_value_fails_loudly_naming_the_variable(variable: str, value: str) -> None:
    started = _start({"DEBUG": "1", variable: value})
    assert started.returncode != 0
    assert variable in started.stderr


def test_env_helpers_read_their_types(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("X_BOOL", "Yes")
    monkeypatch.setenv("X_INT", "42")
    monkeypatch.setenv("X_LIST", "a.example, b.example,")
    monkeypatch.setenv("X_URL", "redis://127.0.0.1:6379/0")
    assert env_bool("X_BOOL") is True
    assert env_int("X_INT", 0) == 42
    assert env_list("X_LIST", []) == ["a.example", "b.example"]
    assert env_url("X_URL", ("redis",)) == "redis://127.0.0.1:6379/0"


def test_a_whole_number_setting_names_itself_when_it_is_not_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from django.core.exceptions import ImproperlyConfigured

    monkeypatch.setenv("DB_CONN_MAX_AGE", "sixty")
    with pytest.raises(ImproperlyConfigured, match="DB_CONN_MAX_AGE"):
        env_int("DB_CONN_MAX_AGE", 60)
