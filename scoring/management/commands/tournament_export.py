import sys

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.backup import tournament_export
from tournament.models import Tournament


class Command(BaseCommand):
    help = (
        "Write a whole tournament as one JSON file (a backup), to a file or standard output. "
        "It holds no passwords, tokens or table links."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="the tournament's address name, e.g. spring-open")
        parser.add_argument("--output", "-o", help="file to write (default: standard output)")

    def handle(self, *args: object, slug: str, output: str | None, **options: object) -> None:
        tournament = Tournament.objects.filter(slug=slug).first()
        if tournament is None:
            raise CommandError(f"No tournament has the slug {slug!r}.")
        text = tournament_export(tournament=tournament)
        if output:
            with open(output, "w", encoding="utf-8") as file:
                file.write(text)
            self.stderr.write(f"Wrote {tournament.name} to {output}.")
        else:
            sys.stdout.write(text)
