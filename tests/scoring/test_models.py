"""The database itself refuses a second result, a second confirmed version and sums that lie."""

import pytest
from django.db import IntegrityError, transaction

from scoring.models import Game, HandResult, ResultRevision, Ruling
from tests.factories import (
    EntryFactory,
    GameFactory,
    HandResultFactory,
    RulingFactory,
    TableFactory,
)

pytestmark = pytest.mark.django_db


def test_a_player_has_one_result_per_game() -> None:
    hand = HandResultFactory()
    with pytest.raises(IntegrityError), transaction.atomic():
        HandResult.objects.create(game=hand.game, entry=hand.entry, card_points=5, total=5)


def test_only_one_player_goes_out_in_a_game_r10_1() -> None:
    game = GameFactory()
    tournament = game.table.round.tournament
    HandResultFactory(
        game=game, entry=EntryFactory(tournament=tournament), went_out=True, card_points=0, total=0
    )
    with pytest.raises(IntegrityError), transaction.atomic():
        HandResultFactory(
            game=game,
            entry=EntryFactory(tournament=tournament),
            went_out=True,
            card_points=0,
            total=0,
        )


def test_the_player_who_went_out_has_no_card_points_r10_2() -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        HandResultFactory(went_out=True, card_points=12, total=12)


@pytest.mark.parametrize(
    ("doubled", "card_points", "penalty_points", "total", "adds_up"),
    [
        (False, 20, 50, 70, True),
        (True, 20, 50, 90, True),  # R8.4: the penalty is added after doubling
        (True, 20, 50, 140, False),
        (False, 20, 0, 21, False),
    ],
    ids=["plain", "R8.3-doubled", "R8.4-penalty-not-doubled", "wrong-sum"],
)
def test_a_stored_total_must_add_up_r8_5(
    doubled: bool, card_points: int, penalty_points: int, total: int, adds_up: bool
) -> None:
    values = {
        "doubled": doubled,
        "card_points": card_points,
        "penalty_points": penalty_points,
        "total": total,
    }
    if adds_up:
        assert HandResultFactory(**values).total == total
        return
    with pytest.raises(IntegrityError), transaction.atomic():
        HandResultFactory(**values)


def test_one_scored_attempt_per_game_but_void_attempts_are_kept_r9_2() -> None:
    table = TableFactory()
    Game.objects.create(table=table, number=4, attempt=1, is_void=True)
    Game.objects.create(table=table, number=4, attempt=2)
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.create(table=table, number=4, attempt=3)


def test_an_attempt_number_is_used_once() -> None:
    game = GameFactory(number=2, is_void=True)
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.create(table=game.table, number=2, attempt=1, is_void=True)


@pytest.mark.parametrize("number", [0, 10])
def test_a_set_has_games_one_to_nine_r4_1(number: int) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        GameFactory(number=number)


def test_a_void_game_is_not_down_and_out() -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        GameFactory(is_void=True, down_and_out=True)


def _revision(game: Game, version: int, status: str) -> ResultRevision:
    return ResultRevision.objects.create(
        game=game, version=version, status=status, entry={}, scores=[], entered_via="table link"
    )


def test_only_one_version_of_a_result_is_confirmed() -> None:
    game = GameFactory()
    _revision(game, 1, ResultRevision.Status.CONFIRMED)
    _revision(game, 2, ResultRevision.Status.PENDING)
    with pytest.raises(IntegrityError), transaction.atomic():
        _revision(game, 3, ResultRevision.Status.CONFIRMED)


def test_every_version_is_kept_under_its_own_number() -> None:
    game = GameFactory()
    _revision(game, 1, ResultRevision.Status.SUPERSEDED)
    with pytest.raises(IntegrityError), transaction.atomic():
        _revision(game, 1, ResultRevision.Status.PENDING)


def test_a_warning_ruling_carries_no_points_r12_4() -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        RulingFactory(kind=Ruling.Kind.WARNING, points=10)


def test_a_penalty_ruling_carries_points_r12_4() -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        RulingFactory(kind=Ruling.Kind.PENALTY_POINTS, points=0)


def test_a_ruling_is_about_someone_or_something() -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        RulingFactory(entry=None, kind=Ruling.Kind.WARNING, points=0)


def test_a_score_correction_may_take_points_away() -> None:
    assert RulingFactory(kind=Ruling.Kind.SCORE_CORRECTION, points=-15).points == -15
