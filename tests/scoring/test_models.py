"""The database itself refuses a second result, a second confirmed version, a second side out.

What only one game needs (Kalooki's sums, R8.5; its nine games, R4.1) is the game's to check:
the service refuses those (tests/scoring/test_services.py)."""

import pytest
from django.db import IntegrityError, transaction

from scoring.models import Deal, DealResult, ResultRevision, Ruling
from tests.factories import (
    DealFactory,
    DealResultFactory,
    EntryFactory,
    RulingFactory,
    TableFactory,
)

pytestmark = pytest.mark.django_db


def test_a_player_has_one_result_per_deal() -> None:
    result = DealResultFactory()
    with pytest.raises(IntegrityError), transaction.atomic():
        DealResult.objects.create(deal=result.deal, entry=result.entry, side=4, points=5)


def test_a_side_has_one_result_per_deal() -> None:
    result = DealResultFactory(side=0)
    other = EntryFactory(tournament=result.entry.tournament)
    with pytest.raises(IntegrityError), transaction.atomic():
        DealResult.objects.create(deal=result.deal, entry=other, side=0, points=5)


def test_only_one_side_goes_out_in_a_deal_r10_1() -> None:
    deal = DealFactory()
    tournament = deal.table.round.tournament
    DealResultFactory(deal=deal, entry=EntryFactory(tournament=tournament), went_out=True, points=0)
    with pytest.raises(IntegrityError), transaction.atomic():
        DealResultFactory(
            deal=deal, entry=EntryFactory(tournament=tournament), went_out=True, points=0
        )


def test_points_may_be_negative_for_games_that_score_so() -> None:
    """Hand and Foot takes points away for cards left in hand (HF6.3): a result is signed."""
    assert DealResultFactory(points=-1700).points == -1700


def test_one_scored_attempt_per_game_but_void_attempts_are_kept_r9_2() -> None:
    table = TableFactory()
    Deal.objects.create(table=table, number=4, attempt=1, is_void=True)
    Deal.objects.create(table=table, number=4, attempt=2)
    with pytest.raises(IntegrityError), transaction.atomic():
        Deal.objects.create(table=table, number=4, attempt=3)


def test_an_attempt_number_is_used_once() -> None:
    deal = DealFactory(number=2, is_void=True)
    with pytest.raises(IntegrityError), transaction.atomic():
        Deal.objects.create(table=deal.table, number=2, attempt=1, is_void=True)


def test_deals_are_numbered_from_one() -> None:
    """How many deals a match has is the game's to say (its schedule, checked by the service:
    tests/scoring/test_services.py); a number below one is no deal of any game."""
    with pytest.raises(IntegrityError), transaction.atomic():
        DealFactory(number=0)


def _revision(deal: Deal, version: int, status: str) -> ResultRevision:
    return ResultRevision.objects.create(
        deal=deal, version=version, status=status, entry={}, scores=[], entered_via="table link"
    )


def test_only_one_version_of_a_result_is_confirmed() -> None:
    deal = DealFactory()
    _revision(deal, 1, ResultRevision.Status.CONFIRMED)
    _revision(deal, 2, ResultRevision.Status.PENDING)
    with pytest.raises(IntegrityError), transaction.atomic():
        _revision(deal, 3, ResultRevision.Status.CONFIRMED)


def test_every_version_is_kept_under_its_own_number() -> None:
    deal = DealFactory()
    _revision(deal, 1, ResultRevision.Status.SUPERSEDED)
    with pytest.raises(IntegrityError), transaction.atomic():
        _revision(deal, 1, ResultRevision.Status.PENDING)


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
