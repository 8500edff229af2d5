"""Venue mode from a clean clone (issue #14): `make venue` serves the event on this machine's
own network address, and a link printed on a table card opens the table's page in Chromium
from that address (not loopback).

The clone shares this checkout's virtualenv (a link to it), so `make venue` installs nothing.
Skipped, with the reason, on a machine with no address but loopback.
"""

import importlib.util
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings
from playwright.sync_api import Page, expect

pytestmark = [pytest.mark.slow]
SETUP = """
import datetime
from django.contrib.auth import get_user_model
from scoring.rounds import round_add, round_publish
from tables.services import round_seat
from tournament.services import entries_check_in_all, players_import_csv, tournament_create

director = get_user_model().objects.create_user("venue-director", password="venue-pass-2025")
day = datetime.date.today()
open_ = tournament_create(by=director, name="Venue Open", starts_on=day, ends_on=day, venue="Hall")
players_import_csv(tournament=open_, by=director, text="name\\nAnn\\nBen\\nCy\\nDi\\nEd\\n")
entries_check_in_all(tournament=open_, by=director)
round_ = round_add(tournament=open_, by=director)
round_seat(round=round_, by=director, seed=1)
round_publish(round=round_, by=director)
print(open_.slug)
"""


def lan_address() -> str | None:
    path = Path(settings.BASE_DIR) / "bin" / "venue.py"
    spec = importlib.util.spec_from_file_location("venue", path)
    venue = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(venue)
    return venue.lan_address()


def free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("0.0.0.0", 0))
        return probe.getsockname()[1]


@pytest.fixture
def venue(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """`make venue` running in a fresh clone; its printed site URL and the clone."""
    if lan_address() is None:
        pytest.skip("this machine has no network address but loopback: no venue to serve")
    if shutil.which("make") is None or shutil.which("git") is None:
        pytest.skip("needs make and git")
    clone = tmp_path / "venue-try"
    subprocess.run(["git", "clone", "-q", str(settings.BASE_DIR), str(clone)], check=True)
    (clone / ".venv").symlink_to(Path(sys.prefix))
    env = {
        key: value
        for key, value in os.environ.items()
        # Without CI: the Makefile would point DATABASE_URL at this machine's PostgreSQL.
        if key not in ("DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE", "DEBUG", "CI")
    }
    env["VENUE_PORT"] = str(free_port())
    log = (tmp_path / "venue.log").open("w+")
    process = subprocess.Popen(
        ["make", "venue"], cwd=clone, env=env, stdout=log, stderr=subprocess.STDOUT,
        start_new_session=True,
    )  # fmt: skip
    try:
        yield _site(log, process), clone
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)


def _site(log, process: subprocess.Popen) -> str:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        log.seek(0)
        found = re.search(r"serving on the venue's network at (http://\S+)", log.read())
        if found:
            _wait_for(found.group(1))
            return found.group(1)
        assert process.poll() is None, _tail(log)
        time.sleep(0.3)
    raise AssertionError(f"make venue printed no address:\n{_tail(log)}")


def _wait_for(site: str) -> None:
    import urllib.request

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{site}/healthz", timeout=5) as answer:
                if answer.status == 200:
                    return
        except OSError:
            time.sleep(0.3)
    raise AssertionError(f"{site} did not answer")


def _tail(log) -> str:
    log.seek(0)
    return log.read()[-3000:]


def test_a_printed_table_link_opens_from_the_machines_network_address(
    venue: tuple[str, Path], laptop: Page, phone: Page
) -> None:
    site, clone = venue
    host = site.split("//")[1].split(":")[0]
    assert not host.startswith("127.") and host != "localhost"
    env = {**os.environ, "DEBUG": "0", "SECRET_KEY": (clone / "var" / "secret_key").read_text()}
    env.pop("DATABASE_URL", None)
    env.pop("REDIS_URL", None)
    env["ALLOWED_HOSTS"] = host
    made = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", SETUP],
        cwd=clone, env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr[-3000:]
    slug = made.stdout.strip().splitlines()[-1]

    laptop.goto(f"{site}/accounts/login/")
    laptop.fill("#id_username", "venue-director")
    laptop.fill("#id_password", "venue-pass-2025")
    laptop.click("button[type=submit]")
    laptop.goto(f"{site}/director/{slug}/rounds/1/print/cards")
    printed = laptop.locator("article[data-table] .link").first.inner_text()
    assert printed.startswith(f"{site}/t/"), printed  # the laptop's address, not loopback

    phone.goto(printed)
    expect(phone.locator("body")).to_contain_text("Table 1")
    expect(phone.locator("body")).to_contain_text("Ann")
