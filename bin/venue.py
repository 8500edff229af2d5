#!/usr/bin/env python3
"""Venue mode (`make venue`): the event served on the venue's own network from the director's
laptop, with no internet.

- Production settings: DEBUG off, a secret key made once and kept in `var/secret_key`. A venue's
  network is plain http, so there is no HTTPS redirect and cookies are not secure-only
  (SECURE_SSL_REDIRECT, SESSION_COOKIE_SECURE, CSRF_COOKIE_SECURE off, no HSTS): anyone on that
  network can read its traffic, as on any open Wi-Fi.
- The laptop's **network address** (not loopback) is found (or taken from VENUE_ADDRESS) and
  becomes `SITE_URL`, so every printed link and QR code opens on the players' phones; it is an
  allowed host. The front (nginx, bin/front.py) listens at VENUE_PORT (8000): on every interface
  when the address was found, on VENUE_ADDRESS alone when it was given. gunicorn listens only on
  its Unix socket behind it.
- SQLite in `var/` by default; PostgreSQL when DATABASE_URL is set. A Celery worker and beat run
  beside gunicorn: through Redis with REDIS_URL; without it, through files in `var/shared/`,
  which also hold the cache every process shares (config/settings.py: SHARED_DIR).
- No demo and no demo accounts: `python manage.py createsuperuser` makes the director's account.
- bin/supervise.py runs the processes: one that dies is started again, the others run on.
"""

import ipaddress
import os
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PORT = os.environ.get("VENUE_PORT", "8000")


def addresses_of(ip_output: str) -> list[str]:
    """The IPv4 addresses in `ip -o -4 addr show` output that other machines can reach: not
    loopback, not link-local; global scope first."""
    found = []
    for line in ip_output.splitlines():
        parts = line.split()
        if "inet" not in parts:
            continue
        address = parts[parts.index("inet") + 1].split("/")[0]
        ip = ipaddress.ip_address(address)
        if ip.is_loopback or ip.is_link_local or ip.is_unspecified:
            continue
        found.append((0 if "global" in parts else 1, address))
    return [address for _, address in sorted(found)]


def lan_address() -> str | None:
    if os.environ.get("VENUE_ADDRESS"):
        return os.environ["VENUE_ADDRESS"]
    try:
        shown = subprocess.run(
            ["ip", "-o", "-4", "addr", "show"], capture_output=True, text=True, check=True
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        shown = _hostname_addresses()
    found = addresses_of(shown)
    return found[0] if found else None


def _hostname_addresses() -> str:
    """`hostname -I`, written as `ip` would, for a machine without iproute2."""
    try:
        words = subprocess.run(["hostname", "-I"], capture_output=True, text=True).stdout.split()
    except OSError:
        return ""
    return "\n".join(f"inet {word}/32 scope global" for word in words if "." in word)


def secret_key() -> str:
    path = ROOT / "var" / "secret_key"
    path.parent.mkdir(exist_ok=True)
    if not path.exists() or not path.read_text().strip():
        path.write_text(secrets.token_urlsafe(50) + "\n")
        path.chmod(0o600)
    return path.read_text().strip()


def venue_env(address: str, *, given: bool = False) -> dict[str, str]:
    """The stack's environment; `given`: the address was VENUE_ADDRESS, the only one listened on."""
    site = f"http://{address}:{PORT}"
    env = {
        **os.environ,
        "DEBUG": "0",
        "SECRET_KEY": os.environ.get("SECRET_KEY") or secret_key(),
        "SITE_URL": site,
        "ALLOWED_HOSTS": f"{address},127.0.0.1,localhost",
        "CSRF_TRUSTED_ORIGINS": site,
        "SECURE_SSL_REDIRECT": "0",
        "SESSION_COOKIE_SECURE": "0",
        "CSRF_COOKIE_SECURE": "0",
        "SECURE_HSTS_SECONDS": "0",
        "SECURE_HSTS_PRELOAD": "0",
        "WEB_BIND": address if given else "0.0.0.0",
        "WEB_PORT": PORT,
        "PATH": f"{ROOT / '.venv' / 'bin'}:{os.environ.get('PATH', '')}",
    }
    if not env.get("REDIS_URL"):
        env["SHARED_DIR"] = str(ROOT / "var" / "shared")
    return env


def manage(env: dict[str, str], *args: str) -> None:
    subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, check=True)


def announce(env: dict[str, str], address: str) -> None:
    site = env["SITE_URL"]
    database = "PostgreSQL" if env.get("DATABASE_URL") else f"SQLite ({ROOT / 'var'})"
    queue = "Redis" if env.get("REDIS_URL") else f"files in {env.get('SHARED_DIR')}"
    tasks = f"a Celery worker and beat through {queue}"
    where = "every interface" if env["WEB_BIND"] == "0.0.0.0" else env["WEB_BIND"]
    print(
        f"\nVenue mode: serving on the venue's network at {site}\n"
        f"  Players' home page   {site}/\n"
        f"  Director's sign-in   {site}/accounts/login/\n"
        f"  Administration       {site}/admin/\n"
        f"  Health               {site}/healthz\n"
        f"  Table links and QR codes point at {site}/t/...: print the table cards now.\n"
        f"  Database: {database}; {tasks}. Plain http: the venue's network only.\n"
        f"  Listening on {where}, port {PORT}, behind nginx.\n"
        f"  No account yet? In another terminal: python manage.py createsuperuser\n",
        flush=True,
    )


def main() -> int:
    os.chdir(ROOT)
    if subprocess.run([sys.executable, "bin/front.py", "--check"]).returncode != 0:
        return 1
    address = lan_address()
    if address is None:
        print(
            "No network address other than loopback was found: join the venue's network "
            "(Wi-Fi or cable), or set VENUE_ADDRESS to the address the phones will use.",
            file=sys.stderr,
        )
        return 1
    env = venue_env(address, given=bool(os.environ.get("VENUE_ADDRESS")))
    (ROOT / "var" / "run").mkdir(parents=True, exist_ok=True)
    if env.get("DATABASE_URL"):
        subprocess.run([sys.executable, "bin/createdb.py"], cwd=ROOT, env=env, check=True)
    manage(env, "migrate", "--noinput", "--verbosity", "0")
    manage(env, "collectstatic", "--noinput", "--verbosity", "0")
    announce(env, address)
    command = [sys.executable, "bin/supervise.py", "Procfile"]
    os.execvpe(command[0], command, env)
    return 0


if __name__ == "__main__":
    sys.exit(main())
