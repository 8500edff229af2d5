"""Kalooki's standings from the database's sums (`Rules.scores_from_sums`) are the
standings from every deal: the same rows, places, stats, last games and live rounds.

Each case plays a random round through the services: sets cut short at any game, void attempts
(R9.2), down-and-outs (R8.3), results waiting for a second person's confirmation, penalty points
and a tie-break ruling (R12.4), the round live or over (R12.1). Then it computes the standings
twice, once by the sums and once with the game made to score every deal, and compares them whole.
"""

import random

import pytest

from games.base import DealScore, SideScore, SideSums, side_sums
from games.kalooki.game import KalookiRules
from scoring.models import Deal
from scoring.rulings import ruling_record
from scoring.services import result_confirm, result_record
from scoring.standings import standings_compute
from tests.scoring.playing import (
    entry,
    penalty_ruling,
    play,
    published_round,
    rounds_over,
    seated,
    tables_of,
    tournament_with,
)

pytestmark = pytest.mark.django_db


def play_round(tournament, rng: random.Random) -> None:
    for table in tables_of(tournament.rounds.get(number=1)):
        for number in range(1, rng.randint(0, 9) + 1):
            if rng.random() < 0.15:  # R9.2: the stock ran out twice; dealt again
                result_record(table=table, number=number, hands=[], void=True, via="test")
            winner, points = rng.randrange(5), rng.randint(1, 60)
            play(table, number, winner=winner, points=points, down_and_out=rng.random() < 0.2)


def confirm_some(tournament, rng: random.Random) -> None:
    pending = Deal.objects.filter(table__round__tournament=tournament, status="pending")
    for deal in pending.order_by("pk"):
        if rng.random() < 0.7:
            result_confirm(deal=deal, by=None, via="second person")


def rule_some(tournament, rng: random.Random) -> None:
    tables = tables_of(tournament.rounds.get(number=1))
    for table in rng.sample(tables, 2):
        player = entry(tournament, rng.choice(seated(table)))
        penalty_ruling(tournament=tournament, entry=player, points=rng.choice([5, 25]),
                       decision="R12.4: penalty", table=table)  # fmt: skip
        ruling_record(tournament=tournament, by=None, kind="score_correction", entry=player,
                      points=-10, decision="R12.4: a miscount", table=table)  # fmt: skip
    name = rng.choice(seated(tables[0]))
    ruling_record(tournament=tournament, by=None, kind="tie_break", entry=entry(tournament, name),
                  decision="R12.4: a high-card draw", table=tables[0])  # fmt: skip


def by_every_deal(tournament, monkeypatch) -> dict:
    with monkeypatch.context() as patched:
        patched.setattr(KalookiRules, "scores_from_sums", False)
        return standings_compute(tournament=tournament)


@pytest.mark.parametrize("seed", range(8))
def test_the_sums_give_the_standings_every_deal_gives(seed: int, monkeypatch) -> None:
    rng = random.Random(seed)
    tournament = tournament_with(15, requires_confirmation=seed % 2 == 1)
    published_round(tournament)
    play_round(tournament, rng)
    confirm_some(tournament, rng)
    rule_some(tournament, rng)
    if seed % 4 < 2:
        rounds_over(tournament)
    summed = standings_compute(tournament=tournament)
    assert summed == by_every_deal(tournament, monkeypatch)
    assert any(row["games_played"] for row in summed["players"])


def test_a_game_that_sums_without_a_flag_gets_the_same_standings_both_ways(monkeypatch) -> None:
    monkeypatch.setattr(KalookiRules, "sums_flag", None)  # down-and-outs then count none
    rng = random.Random(99)
    tournament = tournament_with(15)
    published_round(tournament)
    play_round(tournament, rng)
    summed = standings_compute(tournament=tournament)
    assert summed == by_every_deal(tournament, monkeypatch)
    assert not any(row["stats"]["down_and_outs"] for row in summed["players"])


def test_a_flag_that_is_not_json_true_counts_for_nobody_either_way(monkeypatch) -> None:
    """A backup can be tampered with: "down_and_out": "yes" is not R8.3's flag, for the
    database's sums and for the game's alike."""
    tournament = tournament_with(10)
    published_round(tournament)
    table, other = tables_of(tournament.rounds.get(number=1))
    for game in (1, 2):
        play(table, game, winner=0, down_and_out=True)
        play(other, game)  # every table plays the game: it counts
    Deal.objects.filter(table=table, number=2).update(detail={"down_and_out": "yes"})
    summed = standings_compute(tournament=tournament)
    assert summed == by_every_deal(tournament, monkeypatch)
    assert max(row["stats"]["down_and_outs"] for row in summed["players"]) == 1


def test_side_sums_skip_void_deals_and_count_the_flag_for_the_side_that_went_out() -> None:
    """What the database's sums must equal (`games.base.side_sums`)."""
    out, held = SideScore(0, went_out=True), SideScore(30)
    played = [
        DealScore(1, (out, held), detail={"down_and_out": True}),
        DealScore(2, (SideScore(99), SideScore(99)), void=True),
        DealScore(3, (SideScore(12), out), detail={"down_and_out": False}),
    ]
    assert side_sums(played, "down_and_out") == [SideSums(12, 1, 1), SideSums(30, 1, 0)]
    assert side_sums(played, None) == [SideSums(12, 1, 0), SideSums(30, 1, 0)]
    assert side_sums([], "down_and_out") == []
    tampered = [DealScore(1, (out, held), detail={"down_and_out": "yes"})]  # a hostile backup
    assert side_sums(tampered, "down_and_out") == [SideSums(0, 1, 0), SideSums(30, 0, 0)]
