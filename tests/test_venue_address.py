"""Venue mode finds the laptop's network address, never loopback (bin/venue.py)."""

import importlib.util
from pathlib import Path

from django.conf import settings


def venue():
    path = Path(settings.BASE_DIR) / "bin" / "venue.py"
    spec = importlib.util.spec_from_file_location("venue", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


IP_OUTPUT = """\
1: lo    inet 127.0.0.1/8 scope host lo\\       valid_lft forever preferred_lft forever
2: docker0    inet 169.254.3.1/16 scope link docker0\\       valid_lft forever
3: wlan0    inet 192.168.1.23/24 brd 192.168.1.255 scope global dynamic wlan0\\  valid_lft 86000sec
"""


def test_the_address_is_the_global_one_not_loopback_or_link_local() -> None:
    assert venue().addresses_of(IP_OUTPUT) == ["192.168.1.23"]


def test_a_laptop_with_loopback_only_has_no_venue_address() -> None:
    assert venue().addresses_of(IP_OUTPUT.splitlines()[0]) == []


def test_the_venue_settings_are_production_on_plain_http(tmp_path, monkeypatch) -> None:
    module = venue()
    monkeypatch.setattr(module, "ROOT", tmp_path)
    env = module.venue_env("192.168.1.23")
    assert env["DEBUG"] == "0" and env["SITE_URL"] == "http://192.168.1.23:8000"
    assert "192.168.1.23" in env["ALLOWED_HOSTS"].split(",")
    assert env["SECURE_SSL_REDIRECT"] == env["SESSION_COOKIE_SECURE"] == "0"
    kept = (tmp_path / "var" / "secret_key").read_text().strip()
    assert env["SECRET_KEY"] == kept and module.venue_env("192.168.1.23")["SECRET_KEY"] == kept
