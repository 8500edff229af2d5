"""Byes in the standings: scored by the tournament's bye rule through the game (PA7.2), counted
as a round played, and kept out of the place while their round is live like everyone's (fair
mid-round standings). Totals worked out here from the rules, not read back from the game."""

import pytest

import games
from scoring.rounds import round_complete
from scoring.services import SideInput, result_record
from scoring.standings import standing_order, standings_compute
from tables.models import Bye
from tests.factories import TournamentFactory
from tests.scoring.other_games import entry_of, seated_by_hand, table_of
from tournament.models import Round, Tournament

pytestmark = pytest.mark.django_db

PARCELLUS = games.get("parcellus")
# (cards, parcels, J♥) for the three seats: seat 1 wins with 25 + 23 = 48 points, the match is
# over after two deals (PA5.2). Points: cards, +2 for the J♥, +6 for the most parcels (PA4).
DEALS = [
    [(11, 3, True), (6, 2, False), (5, 1, False)],  # 19, 6, 5
    [(10, 3, False), (8, 2, True), (4, 1, False)],  # 16, 10, 4
]
TOTALS = [19 + 16, 6 + 10, 5 + 4]


def parcellus(bye_rule: str, bye_points: int = 30) -> Tournament:
    ruleset = PARCELLUS.ruleset({"bye_rule": bye_rule, "bye_points": bye_points})
    return TournamentFactory(game="parcellus", ruleset=PARCELLUS.dump(ruleset), rounds_planned=3)


def round_with_bye(tournament: Tournament, names: list[str], bye: str, number: int) -> Round:
    round = seated_by_hand(tournament, [names], number=number)
    if not tournament.entries.filter(player__name=bye).exists():
        tournament.entries.create(player=tournament.players.create(name=bye))
    Bye.objects.create(round=round, entry=entry_of(tournament, bye))
    return Round.objects.select_related("tournament").get(pk=round.pk)


def play(round: Round, names: list[str], deals: int = 2) -> None:
    tournament, table = round.tournament, table_of(round)
    for number, deal in enumerate(DEALS[:deals], start=1):
        sides = [
            SideInput(
                entry_of(tournament, name).pk, {"cards": c, "parcels": p, "jack_of_hearts": j}
            )
            for name, (c, p, j) in zip(names, deal, strict=True)
        ]
        result_record(table=table, number=number, sides=sides, via="test")


def rows(tournament: Tournament) -> dict[str, dict]:
    return {row["player"]: row for row in standings_compute(tournament=tournament)["players"]}


def test_a_bye_under_the_win_rule_is_a_match_won_with_the_bye_points_pa7_2() -> None:
    tournament = parcellus("win", bye_points=30)
    round = round_with_bye(tournament, ["Ann", "Ben", "Cy"], "Di", 1)
    play(round, ["Ann", "Ben", "Cy"])
    got = rows(tournament)
    assert got["Di"]["byes"] == [1]
    assert got["Di"]["stats"]["match_points"] == 3 and got["Di"]["stats"]["wins"] == 1
    assert got["Di"]["total"] == 30 and got["Di"]["ranked_total"] == 30
    assert [got[n]["total"] for n in ("Ann", "Ben", "Cy")] == TOTALS
    # Ann and Di level on 3 match points; Ann's 35 points beat Di's 30 (PA7.4).
    assert (got["Ann"]["place"], got["Di"]["place"], got["Ben"]["place"]) == (1, 2, 3)


def test_a_bye_before_any_match_under_the_average_rule_counts_nothing_yet_pa7_2() -> None:
    tournament = parcellus("average")
    round = round_with_bye(tournament, ["Ann", "Ben", "Cy"], "Di", 1)
    play(round, ["Ann", "Ben", "Cy"])
    got = rows(tournament)
    assert got["Di"]["place"] == 4  # a bye is a round played: Di is placed, last on nothing
    assert got["Di"]["total"] == 0 and got["Di"]["stats"]["match_points"] == 0


def test_a_later_bye_under_the_average_rule_is_the_players_average_match_pa7_2() -> None:
    tournament = parcellus("average")
    first = round_with_bye(tournament, ["Ann", "Ben", "Cy"], "Di", 1)
    play(first, ["Ann", "Ben", "Cy"])
    round_complete(round=first, by=None)
    second = round_with_bye(tournament, ["Di", "Ben", "Cy"], "Ann", 2)
    play(second, ["Di", "Ben", "Cy"])
    got = rows(tournament)
    # Ann's one match: 35 points and 3 match points; her bye counts the same again.
    assert got["Ann"]["total"] == 2 * TOTALS[0] and got["Ann"]["stats"]["match_points"] == 6
    assert got["Ann"]["byes"] == [2]


def test_a_bye_in_a_live_round_waits_with_everyones_live_round() -> None:
    tournament = parcellus("win", bye_points=30)
    first = round_with_bye(tournament, ["Ann", "Ben", "Cy"], "Di", 1)
    play(first, ["Ann", "Ben", "Cy"])
    round_complete(round=first, by=None)
    second = round_with_bye(tournament, ["Di", "Ben", "Cy"], "Ann", 2)
    play(second, ["Di", "Ben", "Cy"], deals=1)  # round 2 in play: one deal, not over
    data = standings_compute(tournament=tournament)
    assert data["live_rounds"] == [2]
    got = {row["player"]: row for row in data["players"]}
    assert got["Ann"]["ranked_total"] == TOTALS[0]  # her round-2 bye waits: round 1 only
    assert got["Ann"]["total"] == TOTALS[0]  # the total shown is the one that places
    assert got["Ann"]["round_bye"] is True
    assert got["Ann"]["place"] is not None  # placed by round 1 (the others also by deal 1)


def test_standing_order_lists_the_placed_best_first() -> None:
    tournament = parcellus("nothing")
    round = round_with_bye(tournament, ["Ann", "Ben", "Cy"], "Di", 1)
    play(round, ["Ann", "Ben", "Cy"])
    names = {entry_of(tournament, n).pk: n for n in ("Ann", "Ben", "Cy", "Di")}
    assert [names[pk] for pk in standing_order(tournament=tournament)] == ["Ann", "Ben", "Cy", "Di"]
