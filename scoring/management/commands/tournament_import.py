import os

from django.core.management.base import BaseCommand, CommandError, CommandParser

from clubs.models import Club
from scoring.backup import BackupRefused, Imported, backup_read, tournament_import
from scoring.standings import standings_refresh


class Command(BaseCommand):
    help = (
        "Load a tournament backup (made by tournament_export). Every row is checked first; a "
        "file with any fault loads nothing. Accounts are never created: staff roles are granted "
        "only with --grant-staff, to users that exist here."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the backup's JSON file")
        parser.add_argument("--slug", help="load it under this address instead of the file's")
        parser.add_argument(
            "--grant-staff",
            action="store_true",
            help="give the file's staff (users of the same name here) their roles",
        )
        parser.add_argument(
            "--club",
            help="the club (its address name) the tournament joins: each player is linked to "
            "its members by member number, else by name",
        )

    def handle(self, *args: object, file: str, **options: object) -> None:
        club = self._club(options["club"])
        try:
            with open(file, "rb") as backup:
                document = backup_read(backup, size=os.fstat(backup.fileno()).st_size)
            imported = tournament_import(
                document=document,
                slug=options["slug"],
                grant_staff=options["grant_staff"],
                club=club,
            )
        except (OSError, BackupRefused) as error:
            raise CommandError(str(error)) from None
        standings_refresh(tournament_id=imported.tournament.pk)
        self._report(imported)

    def _club(self, slug: object) -> Club | None:
        if not slug:
            return None
        club = Club.objects.filter(slug=str(slug)).first()
        if club is None:
            raise CommandError(f"There is no club with the address {str(slug)[:80]!r} here.")
        return club

    def _report(self, imported: Imported) -> None:
        tournament = imported.tournament
        self.stdout.write(self.style.SUCCESS(f"Loaded {tournament.name} ({tournament.slug})."))
        self.stdout.write("Its tables have new links: print the table cards again.")
        for label in imported.granted:
            self.stdout.write(f"  staff role granted: {label}")
        for label in imported.to_add:
            self.stdout.write(f"  staff to add (no role granted): {label}")
