import logging
from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from scoring.demo import PASSWORDS, demo_load, hand_and_foot_demo_load, parcellus_demo_load

# Celery logs every task it runs; run eagerly (no REDIS_URL) that is a line per standings refresh
# of the demo, printed before the addresses and logins a newcomer needs to see last.
TASK_LOG = "celery.app.trace"


@contextmanager
def tasks_quiet() -> Iterator[None]:
    """The demo's tasks run without a line each; warnings and errors still show."""
    logger = logging.getLogger(TASK_LOG)
    level = logger.level
    logger.setLevel(max(level, logging.WARNING))
    try:
        yield
    finally:
        logger.setLevel(level)


class Command(BaseCommand):
    help = (
        "Load the demo tournaments in progress, Kalooki, Parcellus and Hand and Foot "
        "(idempotent: a second run changes nothing). Their demo accounts, whose passwords are "
        "public, are created only with DEBUG on or --accounts."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--accounts",
            action="store_true",
            help="create the demo accounts even with DEBUG off (never on a public server)",
        )

    def handle(self, *args: object, accounts: bool, **options: object) -> None:
        accounts = accounts or settings.DEBUG
        for load in (demo_load, parcellus_demo_load, hand_and_foot_demo_load):
            with tasks_quiet():
                summary = load(accounts=accounts)
            tournament = summary.tournament
            state = "loaded" if summary.created else "already loaded, left as it was"
            self.stdout.write(self.style.SUCCESS(f"Demo tournament '{tournament.name}' {state}."))
        site = settings.SITE_URL
        self.stdout.write(
            f"\n  Home            {site}/\n"
            f"  Admin           {site}/admin/\n"
            f"  API docs        {site}/api/docs/\n"
            f"  Health          {site}/healthz\n"
        )
        if not accounts:
            self.stdout.write("  No demo accounts (DEBUG is off): `manage.py createsuperuser`.\n")
            return
        self.stdout.write("  Demo logins (username / password):")
        for username, password in PASSWORDS.items():
            self.stdout.write(f"    {username:<12} {password}")
        self.stdout.write("")
