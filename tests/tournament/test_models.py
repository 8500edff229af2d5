"""The database itself refuses what the tournament model forbids."""

import copy
import datetime
import importlib
import json
import pickle

import pytest
from django.apps import apps
from django.db import IntegrityError, transaction

from games.kalooki import ASAJ_2025, Ruleset
from tests.factories import (
    EntryFactory,
    PlayerFactory,
    RoundFactory,
    StaffRoleFactory,
    TournamentFactory,
)
from tournament.models import Entry, StaffRole, StoredRuleset, Tournament

pytestmark = pytest.mark.django_db


def test_a_new_tournament_is_played_under_the_asaj_2025_preset() -> None:
    tournament = TournamentFactory()
    tournament.refresh_from_db()
    assert tournament.rules().ruleset == ASAJ_2025


def test_a_tournament_keeps_its_own_ruleset_when_the_preset_changes() -> None:
    stored = {**ASAJ_2025.to_dict(), "table_size": 4}
    tournament = TournamentFactory(ruleset=stored)
    tournament.refresh_from_db()
    assert tournament.rules().ruleset == Ruleset.from_dict(stored)
    assert tournament.rules().ruleset.table_size == 4


def test_a_tournaments_rules_follow_its_ruleset_changed_in_place_or_replaced() -> None:
    """The rules are remembered on the instance, and made again as soon as its ruleset or
    game no longer equals what they were made from."""
    tournament = TournamentFactory(ruleset=ASAJ_2025.to_dict())
    first = tournament.rules()
    assert tournament.rules() is first
    tournament.ruleset["table_size"] = 4  # changed in place
    assert tournament.rules().ruleset.table_size == 4
    tournament.ruleset = ASAJ_2025.to_dict()  # replaced
    assert tournament.rules().ruleset == ASAJ_2025
    tournament.ruleset = {}
    tournament.game = "parcellus"
    assert tournament.rules().game.key == "parcellus"


def test_a_ruleset_read_from_the_database_finds_its_rules_by_its_text(monkeypatch) -> None:
    """A ruleset as the database answered it is not written out again to find its rules;
    changed after it was read, in place, it is: the rules follow the ruleset, not the text."""
    TournamentFactory(slug="read", ruleset={**ASAJ_2025.to_dict(), "table_size": 4})
    tournament = Tournament.objects.get(slug="read")
    assert isinstance(tournament.ruleset, StoredRuleset)
    with monkeypatch.context() as patched:
        patched.setattr(json, "dumps", lambda *args, **kwargs: pytest.fail("written out"))
        assert tournament.rules().ruleset.table_size == 4
        again = Tournament.objects.get(slug="read")
        assert again.rules() is tournament.rules()  # one per process, as for every ruleset
    again.ruleset["table_size"] = 5  # changed in place after it was read
    assert again.rules().ruleset.table_size == 5
    fresh = Tournament.objects.get(slug="read")
    fresh.ruleset["games"][0]["dealt"] = 11  # nested
    assert fresh.rules().ruleset.games[0].dealt == 11


def test_a_read_ruleset_copies_and_stores_as_the_dict_it_holds() -> None:
    TournamentFactory(slug="read")
    tournament = Tournament.objects.get(slug="read")
    for copied in (copy.deepcopy(tournament.ruleset), pickle.loads(pickle.dumps(tournament))):
        ruleset = getattr(copied, "ruleset", copied)
        assert type(ruleset) is dict and ruleset == tournament.ruleset
    tournament.save()
    tournament.refresh_from_db()
    assert tournament.rules().ruleset == ASAJ_2025


def test_a_player_cannot_enter_the_same_tournament_twice() -> None:
    entry = EntryFactory()
    with pytest.raises(IntegrityError), transaction.atomic():
        Entry.objects.create(tournament=entry.tournament, player=entry.player)


def test_a_player_enters_only_once() -> None:
    """A player is of one tournament's records: one entry, enforced by the database."""
    entry = EntryFactory()
    with pytest.raises(IntegrityError):
        Entry.objects.create(tournament=TournamentFactory(), player=entry.player)


def test_round_numbers_are_unique_within_a_tournament() -> None:
    first = RoundFactory(number=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        RoundFactory(tournament=first.tournament, number=1)


def test_a_tournament_cannot_end_before_it_starts() -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        TournamentFactory(
            starts_on=datetime.date(2026, 11, 22), ends_on=datetime.date(2026, 11, 21)
        )


def test_a_tournament_has_at_least_one_round() -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        TournamentFactory(rounds_planned=0)


def test_a_staff_role_is_granted_once_per_tournament() -> None:
    role = StaffRoleFactory(role=StaffRole.Role.DIRECTOR)
    with pytest.raises(IntegrityError), transaction.atomic():
        StaffRole.objects.create(tournament=role.tournament, user=role.user, role=role.role)


def test_the_same_person_may_direct_and_keep_score() -> None:
    role = StaffRoleFactory(role=StaffRole.Role.DIRECTOR)
    StaffRole.objects.create(
        tournament=role.tournament, user=role.user, role=StaffRole.Role.SCOREKEEPER
    )
    assert role.tournament.staff.count() == 2


def test_active_entries_leave_out_the_withdrawn_and_the_disqualified() -> None:
    tournament = TournamentFactory()
    for status in Entry.Status.values:
        EntryFactory(tournament=tournament, status=status)
    active = {entry.status for entry in tournament.entries.active()}
    assert active == {Entry.Status.REGISTERED, Entry.Status.CHECKED_IN}


def test_a_new_entry_dates_its_status_from_its_registration() -> None:
    """Entries made in bulk too: the standings reconcile looks for recent status dates."""
    tournament = TournamentFactory()
    players = PlayerFactory.create_batch(2, tournament=tournament)
    one = Entry.objects.create(tournament=tournament, player=players[0])
    [bulk] = Entry.objects.bulk_create([Entry(tournament=tournament, player=players[1])])
    for entry in (one, bulk):
        entry.refresh_from_db()
        assert entry.status_changed_at is not None
        assert abs(entry.status_changed_at - entry.registered_at) < datetime.timedelta(seconds=5)


def test_the_migration_dates_a_status_never_changed_from_its_registration() -> None:
    migration = importlib.import_module(
        "tournament.migrations.0002_entry_status_dated_from_registration"
    )
    unchanged, withdrawn = EntryFactory(), EntryFactory(status=Entry.Status.WITHDRAWN)
    withdrawn_at = withdrawn.registered_at + datetime.timedelta(hours=3)
    Entry.objects.filter(pk=unchanged.pk).update(status_changed_at=None)
    Entry.objects.filter(pk=withdrawn.pk).update(status_changed_at=withdrawn_at)
    migration.date_statuses_from_registration(apps, None)
    unchanged.refresh_from_db()
    withdrawn.refresh_from_db()
    assert unchanged.status_changed_at == unchanged.registered_at
    assert withdrawn.status_changed_at == withdrawn_at
