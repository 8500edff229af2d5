from django.conf import settings
from django.core.management.base import BaseCommand

from scoring.demo import PASSWORDS, demo_load


class Command(BaseCommand):
    help = "Load the demo tournament in progress (idempotent: a second run changes nothing)."

    def handle(self, *args: object, **options: object) -> None:
        summary = demo_load()
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
        self.stdout.write("  Demo logins (username / password):")
        for username, password in PASSWORDS.items():
            self.stdout.write(f"    {username:<12} {password}")
        self.stdout.write("")
