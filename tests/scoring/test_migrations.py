"""The migration of Kalooki's columns into each result's game data (scoring 0006 to 0008).

Rows are written as the old service stored them (the engine's scores in Kalooki's columns, the
entry as submitted in the revision), the migrations run, and every row must read exactly as
the Kalooki game produces it today for the same entry (`KalookiRules.evaluate`): old and new rows
alike. Run on SQLite, and on PostgreSQL with DATABASE_URL set (the suite's PostgreSQL run).
"""

from dataclasses import asdict

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

import games
from games.base import DealReport, SideReport
from games.kalooki import ASAJ_2025, GameReport, HandReport, parse_cards, score_game

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [
    ("scoring", "0005_round_clock_director_calls_flag_review"),
    ("tables", "0001_initial"),
    ("tournament", "0006_tournament_plays_a_game"),
]
NAMES = ["Ann", "Ben", "Cy", "Di", "Ed"]
# Game 4's replay: Cy went out, the others hold one card each (written in another spelling).
REPLAY = {"Ann": "9C", "Ben": "♥9", "Cy": "", "Di": "9s", "Ed": "9D"}
# Game 3 (11 cards, one three and two fours), down and out: as scorekeepers entered it.
HANDS = [
    HandReport("Ann", went_out=True, cards="", calls=0),
    HandReport("Ben", cards="jk as 2c", calls=0),  # spelled as typed: stored canonical after
    HandReport("Cy", points=44, calls=1),  # points, no cards
    HandReport("Di", cards="KH KD KS QH QD QS JH JD JS 10H 10D", failed_come_downs=1),
    HandReport("Ed", cards="2H 3H", calls=4, overcall_penalty=True),
]


@pytest.fixture
def executor():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    yield executor
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())


def _old_apps(executor: MigrationExecutor):
    executor.loader.build_graph()
    return executor.loader.project_state(BEFORE).apps


def _played_the_old_way(apps) -> dict:
    """A tournament, a table of five, game 3 as the old service stored it, a void attempt at
    game 4 and game 4's replay stored without any revision."""
    tournament = apps.get_model("tournament", "Tournament").objects.create(
        name="Old Open",
        slug="old-open",
        starts_on="2026-01-10",
        ends_on="2026-01-11",
        venue="Kingston",
        game="kalooki",
        ruleset=ASAJ_2025.to_dict(),
    )
    round = apps.get_model("tournament", "Round").objects.create(
        tournament=tournament, number=1, status="in_play"
    )
    table = apps.get_model("tables", "Table").objects.create(round=round, number=1)
    entries = []
    for position, name in enumerate(NAMES, start=1):
        player = apps.get_model("tournament", "Player").objects.create(
            tournament=tournament, name=name
        )
        entry = apps.get_model("tournament", "Entry").objects.create(
            tournament=tournament, player=player
        )
        apps.get_model("tables", "Seat").objects.create(
            table=table, round=round, entry=entry, position=position
        )
        entries.append(entry)
    game = _old_game(apps, table, entries, 3, HANDS, down_and_out=True, revision=True)
    apps.get_model("scoring", "Game").objects.create(table=table, number=4, is_void=True)
    plain = [HandReport(n, went_out=n == "Cy", cards=REPLAY[n]) for n in NAMES]
    replay = _old_game(apps, table, entries, 4, plain, attempt=2, revision=False)
    return {"game": game.pk, "replay": replay.pk, "entries": [e.pk for e in entries]}


def _old_game(apps, table, entries, number, hands, *, attempt=1, down_and_out=False, revision):
    """A game stored as the old `result_record` stored it: the engine's scores in Kalooki's
    columns, and the revision holding the entry as submitted."""
    entry = GameReport(number, tuple(hands), down_and_out)
    score = score_game(entry, ASAJ_2025)
    game = apps.get_model("scoring", "Game").objects.create(
        table=table, number=number, attempt=attempt, down_and_out=down_and_out
    )
    for player, hand, line in zip(entries, hands, score.scores, strict=True):
        apps.get_model("scoring", "HandResult").objects.create(
            game=game,
            entry=player,
            went_out=line.went_out,
            cards=hand.cards or "",
            card_count=len(parse_cards(hand.cards)) if hand.cards is not None else None,
            card_points=line.card_points,
            doubled=line.doubled,
            calls=hand.calls,
            failed_come_downs=hand.failed_come_downs,
            overcall_penalty=hand.overcall_penalty,
            penalty_points=line.penalties,
            total=line.total,
        )
    if revision:
        record = [{"entry": e.pk, **asdict(h)} for e, h in zip(entries, hands, strict=True)]
        apps.get_model("scoring", "ResultRevision").objects.create(
            game=game,
            version=1,
            status="confirmed",
            entry={"game": number, "down_and_out": down_and_out, "void": False, "hands": record},
            scores=score.to_dict()["scores"],
            entered_via="table 1 link",
        )
    return game


def _as_the_game_evaluates(number: int, hands: list[HandReport], down_and_out: bool):
    """What the Kalooki game produces today for the same entry."""
    rules = games.get("kalooki").rules(ASAJ_2025)
    sides = tuple(
        SideReport(
            hand.player,
            {
                "went_out": hand.went_out,
                "cards": hand.cards,
                "points": hand.points,
                "calls": hand.calls,
                "failed_come_downs": hand.failed_come_downs,
                "overcall_penalty": hand.overcall_penalty,
            },
        )
        for hand in hands
    )
    values = {"down_and_out": down_and_out, "void": False}
    return rules.evaluate(DealReport(number, sides, values))


def test_old_results_read_exactly_as_the_game_produces_them_now(executor) -> None:
    ids = _played_the_old_way(_old_apps(executor))
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())

    from scoring.models import Deal, ResultRevision

    evaluation = _as_the_game_evaluates(3, HANDS, down_and_out=True)
    deal = Deal.objects.get(pk=ids["game"])
    assert deal.detail == dict(evaluation.score.detail) == {"down_and_out": True}
    results = list(deal.results.order_by("side"))
    assert [r.entry_id for r in results] == ids["entries"]
    assert [r.side for r in results] == [0, 1, 2, 3, 4]  # the seats' order
    for result, side, score in zip(
        results, evaluation.entry.sides, evaluation.score.sides, strict=True
    ):
        assert result.entered == {"values": dict(side.values), "members": []}
        assert (result.points, result.went_out) == (score.points, score.went_out)
        assert result.detail == dict(score.detail)
    assert results[1].values["cards"] == "JK AS 2C"  # canonical (R11.5)
    assert results[2].values["points"] == 44 and results[2].values["cards"] is None
    assert results[3].detail["penalties"] == 50 and results[3].detail["doubled"]

    revision = ResultRevision.objects.get(deal=deal)
    expected = evaluation.entry.to_dict()
    assert revision.entry["number"] == 3 and revision.entry["values"] == expected["values"]
    assert [s["entry"] for s in revision.entry["sides"]] == ids["entries"]
    assert [s["label"] for s in revision.entry["sides"]] == NAMES
    assert [s["values"] for s in revision.entry["sides"]] == [
        s["values"] for s in expected["sides"]
    ]
    scored = evaluation.score.to_dict()
    assert revision.scores["number"] == 3 and revision.scores["detail"] == scored["detail"]
    assert [s["points"] for s in revision.scores["sides"]] == [s["points"] for s in scored["sides"]]
    assert [s["detail"] for s in revision.scores["sides"]] == [s["detail"] for s in scored["sides"]]


def test_a_void_attempt_and_a_result_without_revision_move_too(executor) -> None:
    ids = _played_the_old_way(_old_apps(executor))
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())

    from scoring.models import Deal

    void = Deal.objects.get(number=4, attempt=1)
    assert void.is_void and void.detail == {"down_and_out": False} and not void.results.exists()
    replay = Deal.objects.get(pk=ids["replay"])
    plain = [HandReport(n, went_out=n == "Cy", cards=REPLAY[n]) for n in NAMES]
    evaluation = _as_the_game_evaluates(4, plain, down_and_out=False)
    results = list(replay.results.order_by("side"))
    # No revision holds this entry: the columns say what was entered (cards, so no points).
    for result, side, score in zip(
        results, evaluation.entry.sides, evaluation.score.sides, strict=True
    ):
        assert result.values == dict(side.values)
        assert (result.points, result.detail) == (score.points, dict(score.detail))


def test_the_new_rows_keep_the_constraints_every_game_needs(executor) -> None:
    _played_the_old_way(_old_apps(executor))
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())

    from django.db import IntegrityError, transaction

    from scoring.models import Deal, DealResult

    deal = Deal.objects.get(number=3)
    first = deal.results.get(side=0)
    with pytest.raises(IntegrityError), transaction.atomic():
        DealResult.objects.create(deal=deal, entry=first.entry, side=7)  # one per entry
    with pytest.raises(IntegrityError), transaction.atomic():
        Deal.objects.create(table=deal.table, number=3, attempt=2)  # one scored attempt
