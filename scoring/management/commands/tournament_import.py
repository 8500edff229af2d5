from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.backup import BackupRefused, tournament_import
from scoring.standings import standings_refresh


class Command(BaseCommand):
    help = "Load a tournament backup (made by tournament_export) into an empty database."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the backup's JSON file")

    def handle(self, *args: object, file: str, **options: object) -> None:
        try:
            with open(file, encoding="utf-8") as backup:
                tournament = tournament_import(text=backup.read())
        except (OSError, BackupRefused) as error:
            raise CommandError(str(error)) from None
        standings_refresh(tournament_id=tournament.pk)
        self.stdout.write(self.style.SUCCESS(f"Loaded {tournament.name} ({tournament.slug})."))
