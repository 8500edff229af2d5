"""Venue mode from a clean clone: `make venue` serves the event on the machine's own
network address, and a link printed on a table card opens the table's page in Chromium from that
address (not loopback).

Test traffic goes only to loopback or into a network namespace the test makes itself:
the venue runs in a namespace of its own, joined to this one by a veth pair on a /30 of
10.231.0.0/16, so the only address `make venue` finds there is the namespace's end of the pair,
which is where Chromium opens the printed link. Nothing is sent to the machine's real interface.
The namespace, and the pair with it, are removed at the end. Where no namespace can be made (not
root, no `ip`) the test is skipped with the reason; under CI=true that is a failure.

The clone shares this checkout's virtualenv (a link to it), so `make venue` installs nothing.
"""

import contextlib
import ipaddress
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
IN_CI = os.environ.get("CI", "").lower() == "true"
VENUE_PORT = 8000  # the namespace's own: nothing else listens there
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


def _cannot(reason: str) -> None:
    if IN_CI:
        pytest.fail(f"CI=true: {reason}", pytrace=False)
    pytest.skip(reason)


def _ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, text=True, timeout=10)


def _free_subnet() -> ipaddress.IPv4Network:
    """A /30 of 10.231.0.0/16 that no interface of this machine uses (another run's, say)."""
    shown = subprocess.run(["ip", "-o", "-4", "addr", "show"], capture_output=True, text=True)
    subnets = list(ipaddress.ip_network("10.231.0.0/16").subnets(new_prefix=30))
    start = os.getpid() % len(subnets)
    for subnet in subnets[start:] + subnets[:start]:
        if not any(f" {address}/" in shown.stdout for address in subnet):
            return subnet
    raise AssertionError("no free /30 in 10.231.0.0/16")


@pytest.fixture
def venue_namespace() -> Iterator[tuple[str, str]]:
    """A network namespace joined to this one by a veth pair: (its name, its end's address)."""
    if shutil.which("ip") is None:
        _cannot("needs `ip` (iproute2) to give the venue a network namespace of its own")
    if os.geteuid() != 0:
        _cannot("needs root to make a network namespace for the venue (ip netns)")
    name, subnet = f"kalooki-venue-{os.getpid()}", _free_subnet()
    here, there = f"kv{os.getpid()}a"[:15], f"kv{os.getpid()}b"[:15]
    try:
        _ip("netns", "add", name)
    except subprocess.CalledProcessError as failed:
        _cannot(f"cannot make a network namespace: {failed.stderr.strip()}")
    try:
        _ip("link", "add", here, "type", "veth", "peer", "name", there)
        _ip("link", "set", there, "netns", name)
        _ip("addr", "add", f"{subnet[1]}/30", "dev", here)
        _ip("link", "set", here, "up")
        _ip("-n", name, "addr", "add", f"{subnet[2]}/30", "dev", there)
        _ip("-n", name, "link", "set", there, "up")
        _ip("-n", name, "link", "set", "lo", "up")
        yield name, str(subnet[2])
    finally:
        with contextlib.suppress(subprocess.CalledProcessError):
            _ip("link", "del", here)  # its peer goes with it
        _ip("netns", "del", name)


def _in_namespace(namespace: str) -> list[str]:
    return ["ip", "netns", "exec", namespace]


@pytest.fixture
def venue(tmp_path: Path, venue_namespace: tuple[str, str]) -> Iterator[tuple[str, Path]]:
    """`make venue` running in a fresh clone, in the venue's own network namespace: its printed
    site URL and the clone."""
    if shutil.which("make") is None or shutil.which("git") is None:
        pytest.skip("needs make and git")
    namespace, _ = venue_namespace
    clone = tmp_path / "venue-try"
    subprocess.run(["git", "clone", "-q", str(settings.BASE_DIR), str(clone)], check=True)
    (clone / ".venv").symlink_to(Path(sys.prefix))
    env = {
        key: value
        for key, value in os.environ.items()
        # Without CI: the Makefile would point DATABASE_URL at this machine's PostgreSQL.
        if key not in ("DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE", "DEBUG", "CI")
    }
    env["VENUE_PORT"] = str(VENUE_PORT)
    log = (tmp_path / "venue.log").open("w+")
    process = subprocess.Popen(
        [*_in_namespace(namespace), "make", "venue"], cwd=clone, env=env, stdout=log,
        stderr=subprocess.STDOUT, start_new_session=True,
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
    venue: tuple[str, Path], venue_namespace: tuple[str, str], laptop: Page, phone: Page
) -> None:
    site, clone = venue
    host = site.split("//")[1].split(":")[0]
    assert not host.startswith("127.") and host != "localhost"
    assert host == venue_namespace[1]  # the address it found is the namespace's, none other
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
