"""A whole tournament as one JSON file, and back: a backup a director can keep on a memory stick.

The file holds every row of the tournament (its players, entries, rounds, staff and their
accounts, tables, seats, games, results with their history, rulings, standings snapshots and
audit log) in Django's serialisation format, with a header naming the format version. Rows keep
their ids, so the file loads into an empty database as it was: standings recomputed there are
identical. Loading refuses a database that already holds any of those rows.
"""

import json
from collections.abc import Iterable
from typing import Any

from django.contrib.auth import get_user_model
from django.core import serializers
from django.db import models, transaction

from scoring.models import Game, HandResult, ResultRevision, Ruling, StandingsSnapshot
from tables.models import Seat, Table
from tournament.models import AuditEvent, Entry, Player, Round, StaffRole, Tournament

FORMAT = "kalooki-tournament-backup"
VERSION = 1


class BackupRefused(Exception):
    """The file cannot be loaded here; the message says why."""


def tournament_export(*, tournament: Tournament) -> str:
    """Every row of the tournament, parents before children, as one JSON document."""
    rows = list(_rows(tournament))
    body = json.loads(serializers.serialize("json", rows))
    header = {"format": FORMAT, "version": VERSION, "tournament": tournament.slug}
    return json.dumps({**header, "rows": body}, indent=1, ensure_ascii=False)


def _rows(tournament: Tournament) -> Iterable[models.Model]:
    entries = Entry.objects.filter(tournament=tournament)
    games = Game.objects.filter(table__round__tournament=tournament)
    parts: list[Iterable[models.Model]] = [
        get_user_model().objects.filter(pk__in=_user_ids(tournament)),
        [tournament],
        Player.objects.filter(entries__tournament=tournament).distinct(),
        entries,
        Round.objects.filter(tournament=tournament),
        StaffRole.objects.filter(tournament=tournament),
        Table.objects.filter(round__tournament=tournament),
        Seat.objects.filter(round__tournament=tournament),
        games,
        HandResult.objects.filter(game__in=games),
        ResultRevision.objects.filter(game__in=games),
        Ruling.objects.filter(tournament=tournament).order_by(
            "id"
        ),  # a reversal follows its ruling
        StandingsSnapshot.objects.filter(tournament=tournament),
        AuditEvent.objects.filter(tournament=tournament),
    ]
    for part in parts:
        yield from part


def _user_ids(tournament: Tournament) -> set[int]:
    """Every account the tournament's rows refer to."""
    ids = set(StaffRole.objects.filter(tournament=tournament).values_list("user", flat=True))
    ids |= set(
        Table.scorekeepers.through.objects.filter(table__round__tournament=tournament).values_list(
            "user", flat=True
        )
    )
    revisions = ResultRevision.objects.filter(game__table__round__tournament=tournament)
    ids |= set(revisions.values_list("entered_by", flat=True))
    ids |= set(revisions.values_list("confirmed_by", flat=True))
    ids |= set(Ruling.objects.filter(tournament=tournament).values_list("decided_by", flat=True))
    ids |= set(AuditEvent.objects.filter(tournament=tournament).values_list("actor", flat=True))
    return ids - {None}


@transaction.atomic
def tournament_import(*, text: str) -> Tournament:
    """Load a backup into this database; nothing is loaded if any of its rows already exist."""
    document = _read(text)
    objects = list(serializers.deserialize("json", json.dumps(document["rows"])))
    clashes = [obj.object for obj in objects if _exists(obj.object)]
    if clashes:
        first = clashes[0]
        raise BackupRefused(
            f"This database already holds {len(clashes)} of the backup's rows (the first: "
            f"{first._meta.verbose_name} {first.pk}). Load a backup into an empty database."
        )
    for obj in objects:
        obj.save()
    return Tournament.objects.get(slug=document["tournament"])


def _read(text: str) -> dict[str, Any]:
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise BackupRefused(f"The file is not JSON: {error}") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise BackupRefused("The file is not a Kalooki tournament backup.")
    if document.get("version") != VERSION:
        raise BackupRefused(f"Backup format version {document.get('version')} is not {VERSION}.")
    return document


def _exists(row: models.Model) -> bool:
    return type(row).objects.filter(pk=row.pk).exists()
