"""Hand and Foot and Parcellus through the same services as Kalooki: entered, stored, corrected,
confirmed, signed off and ranked, each number checked against totals worked out here from the
games' rules (HF6, HF10, HF11; PA4, PA5, PA7), not read back from the game."""

import pytest

from scoring.models import Deal, DealResult, ResultRevision
from scoring.rulings import ruling_record
from scoring.services import (
    ResultConflict,
    ResultRefused,
    SideInput,
    WarningsNotConfirmed,
    deal_current,
    result_confirm,
    result_record,
    result_submit,
    table_sign_off,
)
from scoring.standings import standings_compute
from tests.scoring.other_games import entry_of, game_tournament, seated_by_hand, table_of

pytestmark = pytest.mark.django_db

# --- Hand and Foot ----------------------------------------------------------------------------


def hf_points(red: int, black: int, laid_down: int, left: int, out: bool) -> int:
    """HF6 by hand: 500 a red book, 300 a black one, the cards laid down, less the cards left
    in hands and feet, and 100 for going out."""
    return 500 * red + 300 * black + laid_down - left + (100 if out else 0)


def hf_side(name: str, red: int, black: int, laid_down: int, left: tuple[int, int], out: int = -1):
    """A team's entry named by one partner: member `out` went out (its hand and foot played);
    a partner who did not left `left[m]` points in hand, and, unless the team went out, a
    foot not played worth `FOOT` (HF6.3: it counts against the team)."""
    members = []
    for member, points in enumerate(left):
        if member == out:
            members.append({"went_out": True, "hand": "", "foot_played": True})
        elif out >= 0:
            members.append({"hand_points": points, "foot_played": True})
        else:
            members.append({"hand_points": points, "foot_played": False, "foot_points": FOOT})
    values = {"red_books": red, "black_books": black, "laid_down": laid_down}
    return name, values, tuple(members)


FOOT = 40  # a foot of 13 cards not played: at least 25 (HF8.5)
# Three hands at table 1: Ann & Cy (seats 1 and 3) against Ben & Di (seats 2 and 4).
HANDS = [
    (hf_side("Cy", 2, 2, 200, (0, 10), out=0), hf_side("Ben", 1, 0, 150, (20, 30))),
    (hf_side("Ann", 1, 1, 130, (40, 15)), hf_side("Di", 2, 3, 310, (25, 0), out=1)),
    (hf_side("Ann", 2, 2, 240, (0, 35), out=0), hf_side("Ben", 0, 1, 150, (55, 10))),
]
EXPECTED = [  # (Ann & Cy, Ben & Di) per hand, by HF6; a team not out left two feet too
    (hf_points(2, 2, 200, 10, True), hf_points(1, 0, 150, 50 + 2 * FOOT, False)),
    (hf_points(1, 1, 130, 55 + 2 * FOOT, False), hf_points(2, 3, 310, 25, True)),
    (hf_points(2, 2, 240, 35, True), hf_points(0, 1, 150, 65 + 2 * FOOT, False)),
]


@pytest.fixture
def hand_and_foot():
    tournament = game_tournament("hand_and_foot", requires_confirmation=True)
    return tournament


def hf_round(tournament, tables=(("Ann", "Ben", "Cy", "Di"),)):
    return seated_by_hand(tournament, [list(names) for names in tables])


def hf_inputs(tournament, hand) -> list[SideInput]:
    return [
        SideInput(entry_of(tournament, name).pk, values, members) for name, values, members in hand
    ]


def enter_hf(tournament, table, number, hand, via="table link · Ann", **options) -> Deal:
    sides = hf_inputs(tournament, hand)
    return result_record(table=table, number=number, sides=sides, via=via, **options)


def test_a_hand_is_stored_per_team_under_the_team_entry(hand_and_foot) -> None:
    tournament, round = hand_and_foot, hf_round(hand_and_foot)
    table = table_of(round)
    deal = enter_hf(tournament, table, 1, HANDS[0])
    results = list(deal.results.order_by("side").select_related("entry__player"))
    assert [(r.side, r.entry.team_name, r.points) for r in results] == [
        (0, "Ann & Cy", EXPECTED[0][0]),
        (1, "Ben & Di", EXPECTED[0][1]),
    ]
    assert {r.entry_id for r in results} == {s.entry_id for s in table.seats.all()}
    assert results[0].went_out and not results[1].went_out
    assert results[0].members[0]["went_out"] is True  # the partner who went out
    assert results[0].detail["red_books"] == 2  # the game's breakdown, kept
    revision = deal.revisions.get()
    assert [side["label"] for side in revision.entry["sides"]] == ["Ann & Cy", "Ben & Di"]
    assert deal.status == Deal.Status.PENDING  # this tournament asks for a second person


def test_problems_say_which_team_partner_and_field(hand_and_foot) -> None:
    tournament, round = hand_and_foot, hf_round(hand_and_foot)
    bad = (hf_side("Ann", 2, 2, 200, (0, 10), out=0), hf_side("Ben", 1, 0, 150, (20, 30)))
    bad[1][2][0]["hand_points"] = -5  # no hand holds fewer than no points
    with pytest.raises(ResultRefused) as refused:
        enter_hf(tournament, table_of(round), 1, bad)
    problem = refused.value.problems[0]
    assert (problem.side, problem.member, problem.field) == (1, 0, "hand_points")
    assert problem.rule.startswith("HF") and problem.rule in problem.message
    assert not Deal.objects.exists()


def test_a_whole_game_entered_corrected_confirmed_signed_off_and_ranked(hand_and_foot) -> None:
    tournament, round = hand_and_foot, hf_round(hand_and_foot)
    table = table_of(round)
    for number, hand in enumerate(HANDS, start=1):
        deal = enter_hf(tournament, table, number, hand)
        result_confirm(deal=deal, by=None, via="table link · Ben")
    with pytest.raises(ResultRefused, match="cannot be entered: the game at Table 1 is over"):
        enter_hf(tournament, table, 4, HANDS[0])
    # Hand 2 was wrong: Ann and Cy laid down 170, not 130. The correction is a new version.
    corrected = [list(side) for side in HANDS[1]]
    corrected[0][1] = {**corrected[0][1], "laid_down": 170}
    outcome = result_submit(
        table=table,
        number=2,
        sides=hf_inputs(tournament, corrected),
        via="table link · Ann",
        base_version=1,
    )
    assert outcome.deal.version == 2 and outcome.deal.status == Deal.Status.PENDING
    assert outcome.deal.revisions.get(version=2).reason == (
        f"corrected: Ann & Cy {EXPECTED[1][0]} → {EXPECTED[1][0] + 40}"
    )
    with pytest.raises(ResultRefused, match="Hand 2 awaits confirmation"):
        table_sign_off(table=table, by=None, via="table link", signer="Ann")
    result_confirm(deal=outcome.deal, by=None, via="table link · Di")
    table_sign_off(table=table, by=None, via="table link", signer="Ann")

    team_ac = EXPECTED[0][0] + EXPECTED[1][0] + 40 + EXPECTED[2][0]
    team_bd = EXPECTED[0][1] + EXPECTED[1][1] + EXPECTED[2][1]
    rows = {row["player"]: row for row in standings_compute(tournament=tournament)["players"]}
    assert set(rows) == {"Ann & Cy", "Ben & Di"}  # one line a team (HF11.2)
    assert rows["Ann & Cy"]["club"] == "Ann & Cy"  # its partners
    assert (rows["Ann & Cy"]["total"], rows["Ben & Di"]["total"]) == (team_ac, team_bd)
    ac, bd = rows["Ann & Cy"]["stats"], rows["Ben & Di"]["stats"]
    assert (ac["games_won"], bd["games_won"]) == (1, 0)
    assert rows["Ann & Cy"]["games_played"] == 3
    assert (rows["Ann & Cy"]["place"], rows["Ann & Cy"]["shared"]) == (1, False)
    assert rows["Ben & Di"]["place"] == 2


def test_the_standings_rank_games_won_then_points_across_tables(hand_and_foot) -> None:
    tables = (("Ann", "Ben", "Cy", "Di"), ("Eve", "Flo", "Gus", "Hal"))
    tournament, round = hand_and_foot, hf_round(hand_and_foot, tables)
    one, two = table_of(round, 1), table_of(round, 2)
    for number, hand in enumerate(HANDS, start=1):
        result_confirm(deal=enter_hf(tournament, one, number, hand), by=None, via="x · Ben")
    # Table 2: Flo & Hal win every hand by more than Ann & Cy's total.
    big = (hf_side("Flo", 4, 4, 900, (0, 0), out=0), hf_side("Eve", 0, 0, 0, (30, 40)))
    for number in (1, 2, 3):
        result_confirm(deal=enter_hf(tournament, two, number, big), by=None, via="x · Eve")
    standings = standings_compute(tournament=tournament)
    order = [(row["player"], row["place"]) for row in standings["players"]]
    assert order == [("Flo & Hal", 1), ("Ann & Cy", 2), ("Ben & Di", 3), ("Eve & Gus", 4)]
    flo = next(row for row in standings["players"] if row["player"] == "Flo & Hal")
    assert flo["total"] == 3 * hf_points(4, 4, 900, 0, True)
    assert [c["stat"] for c in standings["columns"]][:2] == ["games_won", "total"]
    assert standings["higher_wins"] and standings["deal_noun"] == "hands"


def test_a_tie_is_decided_by_a_ruling_hf10(hand_and_foot) -> None:
    tournament, round = hand_and_foot, hf_round(hand_and_foot)
    table = table_of(round)
    level = (hf_side("Ann", 1, 0, 200, (50, 50)), hf_side("Ben", 1, 0, 200, (50, 50)))
    for number in (1, 2, 3):  # nobody went out: draw-pile ends, confirmed (HF8.8)
        deal = enter_hf(tournament, table, number, level, confirm_warnings=True)
        result_confirm(deal=deal, by=None, via="x · Ben")
    rows = {r["player"]: r for r in standings_compute(tournament=tournament)["players"]}
    assert rows["Ann & Cy"]["place"] == rows["Ben & Di"]["place"] == 1  # level: nobody won yet
    ruling_record(
        tournament=tournament,
        by=None,
        kind="tie_break",
        entry=entry_of(tournament, "Ben"),
        table=table,
        decision="Ben and Di won the high-card draw (HF10).",
    )
    rows = {r["player"]: r for r in standings_compute(tournament=tournament)["players"]}
    bd, ac = rows["Ben & Di"], rows["Ann & Cy"]
    assert (bd["stats"]["games_won"], ac["stats"]["games_won"]) == (1, 0)
    assert (bd["place"], ac["place"]) == (1, 2)


# --- Parcellus ----------------------------------------------------------------------------------


def pa_points(cards: int, jack: bool, bonus: int) -> int:
    """PA4 by hand: a point a card, the J♥ 3 (2 more than a card), the parcels bonus."""
    return cards + (2 if jack else 0) + bonus


# (cards, parcels, J♥) for Ann, Ben and Cy; 22 cards captured, six parcels in all.
DEALS = [
    [(11, 3, True), (6, 2, False), (5, 1, False)],  # Ann the most parcels: 6 bonus
    [(10, 3, False), (8, 2, True), (4, 1, False)],  # Ann reaches 30: the match is over
]
POINTS = [
    [pa_points(11, True, 6), pa_points(6, False, 0), pa_points(5, False, 0)],
    [pa_points(10, False, 6), pa_points(8, True, 0), pa_points(4, False, 0)],
]


@pytest.fixture
def parcellus():
    tournament = game_tournament("parcellus")
    round = seated_by_hand(tournament, [["Ann", "Ben", "Cy"]])
    return tournament, round


def pa_inputs(tournament, names, deal) -> list[SideInput]:
    return [
        SideInput(
            entry_of(tournament, name).pk,
            {"cards": cards, "parcels": parcels, "jack_of_hearts": jack},
        )
        for name, (cards, parcels, jack) in zip(names, deal, strict=True)
    ]


def test_a_match_to_30_is_over_when_the_game_says_and_ranks_by_match_points(parcellus) -> None:
    tournament, round = parcellus
    table = table_of(round)
    names = ["Ann", "Ben", "Cy"]
    with pytest.raises(ResultRefused, match="played 0 deals: sign off when the match"):
        table_sign_off(table=table, by=None, via="x", signer="Ann")
    first = result_record(
        table=table, number=1, sides=pa_inputs(tournament, names, DEALS[0]), via="x"
    )
    assert [r.points for r in first.results.order_by("side")] == POINTS[0]
    # Deal 2 entered wrong (Ben's J♥ given to Cy), then corrected.
    wrong = [DEALS[1][0], (8, 2, False), (4, 1, True)]
    result_record(table=table, number=2, sides=pa_inputs(tournament, names, wrong), via="x")
    with pytest.raises(ResultConflict, match="you had version 3, it is now version 1"):
        result_submit(
            table=table, number=2, sides=pa_inputs(tournament, names, DEALS[1]), via="x",
            base_version=3,
        )  # fmt: skip
    result_submit(
        table=table, number=2, sides=pa_inputs(tournament, names, DEALS[1]), via="x",
        base_version=1, reason="Ben took the J♥",
    )  # fmt: skip
    with pytest.raises(ResultRefused, match="the match at Table 1 is over") as over:
        result_record(table=table, number=3, sides=pa_inputs(tournament, names, DEALS[0]), via="x")
    assert over.value.problems[0].rule == "PA6.5"
    table_sign_off(table=table, by=None, via="x", signer="Ann")

    totals = [POINTS[0][i] + POINTS[1][i] for i in range(3)]
    assert totals[0] >= 30 > max(totals[1:])
    rows = {row["player"]: row for row in standings_compute(tournament=tournament)["players"]}
    assert [rows[n]["total"] for n in names] == totals
    assert [rows[n]["stats"]["match_points"] for n in names] == [3, 1, 0]  # PA7.3
    assert [rows[n]["place"] for n in names] == [1, 2, 3]
    assert rows["Ann"]["stats"]["wins"] == 1 and rows["Ann"]["stats"]["parcels"] == 6


def test_warnings_need_a_confirmation_and_flag_the_deal_pa6(parcellus) -> None:
    tournament, round = parcellus
    table = table_of(round)
    names = ["Ann", "Ben", "Cy"]
    everything = [(12, 3, True), (6, 2, False), (6, 1, False)]  # all 24 cards: PA6.7
    with pytest.raises(WarningsNotConfirmed) as warned:
        result_record(
            table=table, number=1, sides=pa_inputs(tournament, names, everything), via="x"
        )
    assert warned.value.warnings[0].rule == "PA6.7"
    deal = result_record(
        table=table,
        number=1,
        sides=pa_inputs(tournament, names, everything),
        via="x",
        confirm_warnings=True,
    )
    assert deal.is_flagged and deal.warnings[0]["rule"] == "PA6.7"
    assert ResultRevision.objects.get(deal=deal).warnings[0]["rule"] == "PA6.7"


def test_a_ruling_names_the_winner_of_a_match_that_cannot_finish_pa7_5(parcellus) -> None:
    tournament, round = parcellus
    table = table_of(round)
    names = ["Ann", "Ben", "Cy"]
    result_record(table=table, number=1, sides=pa_inputs(tournament, names, DEALS[0]), via="x")
    ruling_record(
        tournament=tournament,
        by=None,
        kind="score_correction",
        entry=entry_of(tournament, "Ann"),
        points=-5,
        decision="5 points off for a revoke.",
    )
    rows = {row["player"]: row for row in standings_compute(tournament=tournament)["players"]}
    assert rows["Ann"]["total"] == POINTS[0][0] - 5  # a ruling's points count (PA7.5)
    assert rows["Ann"]["ruling_points"] == -5


def test_deals_go_in_order_and_a_void_is_no_word_of_parcellus(parcellus) -> None:
    tournament, round = parcellus
    table = table_of(round)
    names = ["Ann", "Ben", "Cy"]
    with pytest.raises(ResultRefused, match="Deal 2 cannot be entered yet: the deals are played"):
        result_record(table=table, number=2, sides=pa_inputs(tournament, names, DEALS[0]), via="x")
    with pytest.raises(ResultRefused) as refused:
        result_record(
            table=table, number=1, sides=pa_inputs(tournament, names, DEALS[0]), via="x", void=True
        )
    assert refused.value.problems[0].field == "void"  # Parcellus has no void deal
    assert not DealResult.objects.exists() and deal_current(table=table, number=1) is None
