"""A whole tournament exports to one JSON file and imports into an empty database with
identical standings."""

import json

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from scoring.backup import BackupRefused, tournament_export, tournament_import
from scoring.models import Game, HandResult, ResultRevision, Ruling
from scoring.rulings import ruling_record
from scoring.services import result_submit
from scoring.standings import standings_compute
from tables.models import Seat, Table
from tests.scoring.playing import (
    director_of,
    entry,
    play,
    play_set,
    published_round,
    tournament_with,
)
from tournament.models import AuditEvent, Entry, Player, Round, StaffRole, Tournament

pytestmark = pytest.mark.django_db
MODELS = [
    Tournament,
    Player,
    Entry,
    Round,
    StaffRole,
    Table,
    Seat,
    Game,
    HandResult,
    ResultRevision,
    Ruling,
    AuditEvent,
]


def _empty_the_database() -> None:
    for model in reversed(MODELS):
        model.objects.all().delete()
    get_user_model().objects.all().delete()


@pytest.fixture
def played() -> Tournament:
    """Ten players, two tables; one finished set, a correction, a void game and a ruling."""
    tournament = tournament_with(10)
    dana = director_of(tournament, "dana")
    one, two = published_round(tournament).tables.order_by("number")
    play_set(one)
    play(two, 1)
    game = two.games.get(number=1)
    hands = [h for h in game.revisions.get().entry["hands"]]
    result_submit(
        table=two,
        number=1,
        by=dana,
        via="director dana",
        base_version=1,
        hands=_inputs(hands, bump=3),
    )
    ruling_record(
        tournament=tournament,
        by=dana,
        kind="penalty_points",
        points=20,
        entry=entry(tournament, "Ben"),
        decision="20 points for slow play",
    )
    return tournament


def _inputs(hands: list[dict], bump: int):
    from scoring.services import HandInput

    return [
        HandInput(
            h["entry"],
            went_out=h["went_out"],
            cards=h["cards"],
            points=(h["points"] + bump) if h["points"] else h["points"],
        )
        for h in hands
    ]


def test_an_export_imports_into_an_empty_database_with_identical_standings(played) -> None:
    before = standings_compute(tournament=played)
    counts = {model.__name__: model.objects.count() for model in MODELS}
    text = tournament_export(tournament=played)
    _empty_the_database()
    tournament = tournament_import(text=text)
    assert standings_compute(tournament=tournament) == before
    assert {model.__name__: model.objects.count() for model in MODELS} == counts
    assert (
        get_user_model().objects.get(username="dana").check_password("correct horse battery staple")
    )


def test_the_history_of_a_corrected_result_travels_with_it(played) -> None:
    text = tournament_export(tournament=played)
    _empty_the_database()
    tournament_import(text=text)
    game = Game.objects.get(table__number=2, number=1)
    assert game.version == 2
    assert list(game.revisions.order_by("version").values_list("status", flat=True)) == [
        "superseded",
        "confirmed",
    ]


def test_it_refuses_to_load_over_existing_rows(played) -> None:
    with pytest.raises(BackupRefused, match="empty database"):
        tournament_import(text=tournament_export(tournament=played))


@pytest.mark.parametrize("text", ["not json", "[]", json.dumps({"format": "other"})])
def test_it_refuses_a_file_that_is_not_a_backup(text: str) -> None:
    with pytest.raises(BackupRefused):
        tournament_import(text=text)


def test_the_commands_write_and_load_a_file(played, tmp_path) -> None:
    backup = tmp_path / "spring-open.json"
    before = standings_compute(tournament=played)
    call_command("tournament_export", played.slug, output=str(backup))
    _empty_the_database()
    call_command("tournament_import", str(backup))
    assert standings_compute(tournament=Tournament.objects.get()) == before
