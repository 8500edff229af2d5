"""Benchmark: a full standings recompute against simply reading the result rows once.

A simulated tournament of 2,000 players, 4 rounds, every game of every set played (400 tables a
round, 14,400 games, 72,000 hand results, consistent totals: R8.3 doubling and R5.4 penalties
included) is inserted with bulk_create. Then, best of 3 each:
- `standings_compute` (scoring/standings.py): every entry placed by R12.3, movement, tables;
- reading the same rows once: the deals and their results (`values_list(...)` of the columns
  the recompute reads, with the same filters).
The ratio is the recompute's cost over the bare read; the aim is at most 2x.

Run from the project root: `python bench/bench_standings.py [--players N] [--rounds R]`. It uses
a throwaway SQLite file, or DATABASE_URL when set (the tournament it adds is deleted at the end).
The last line is for machines (prefix `bench_standings:`). The exit code is 0 either way.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.harness import best_of, django_database  # noqa: E402 (the path above first)

AIM = 2.0
CLUBS = [
    "Half Way Tree", "Portmore", "Mandeville", "Montego Bay", "Spanish Town", "Ocho Rios",
    "May Pen", "Port Antonio", "Negril", "Savanna-la-Mar", "Falmouth", "Morant Bay",
]  # fmt: skip


def build_tournament(
    *, slug: str, players: int, rounds: int, last_round_games: int = 9, seed: int = 1
):
    """A published tournament whose sets are all played (9 games a table), except the last
    round's, which has `last_round_games` games and is in play when that is fewer than 9.
    Every row is written with bulk_create; totals add up as the scoring service would store
    them (R8.5), so that the database constraints hold."""
    from scoring.models import Deal, DealResult
    from tables.models import Seat, Table
    from tournament.models import Entry, Player, Round, Tournament

    assert players % 5 == 0, "the simulation seats tables of five"
    rng = random.Random(seed)
    tournament = Tournament.objects.create(
        name=f"Benchmark Open ({players} players)",
        slug=slug,
        starts_on="2026-11-21",
        ends_on="2026-11-22",
        venue="Kingston",
        status=Tournament.Status.RUNNING,
        is_published=True,
        rounds_planned=rounds,
    )
    people = Player.objects.bulk_create(
        Player(tournament=tournament, name=f"Player {number:04}", club=CLUBS[number % len(CLUBS)])
        for number in range(1, players + 1)
    )
    entries = Entry.objects.bulk_create(
        Entry(tournament=tournament, player=person, status=Entry.Status.CHECKED_IN)
        for person in people
    )
    round_rows = Round.objects.bulk_create(
        Round(
            tournament=tournament,
            number=number,
            status=Round.Status.LOCKED
            if number < rounds or last_round_games == 9
            else Round.Status.IN_PLAY,
        )
        for number in range(1, rounds + 1)
    )
    tables = Table.objects.bulk_create(
        Table(round=round, number=number)
        for round in round_rows
        for number in range(1, players // 5 + 1)
    )
    seats, table_players = [], {}
    for round in round_rows:
        order = [entry.pk for entry in entries]
        rng.shuffle(order)
        for table in (t for t in tables if t.round_id == round.pk):
            sitting = order[(table.number - 1) * 5 : table.number * 5]
            table_players[table.pk] = sitting
            seats += [
                Seat(table=table, round=round, entry_id=entry, position=p, is_first_dealer=p == 1)
                for p, entry in enumerate(sitting, start=1)
            ]
    Seat.objects.bulk_create(seats, batch_size=5000)
    last = round_rows[-1].pk
    games = Deal.objects.bulk_create(
        (
            Deal(table=table, number=number, detail={"down_and_out": rng.random() < 0.1})
            for table in tables
            for number in range(1, (last_round_games if table.round_id == last else 9) + 1)
        ),
        batch_size=5000,
    )
    hands = [hand for game in games for hand in _hands(game, table_players[game.table_id], rng)]
    DealResult.objects.bulk_create(hands, batch_size=5000)
    return tournament


def _hands(game, sitting: list[int], rng: random.Random) -> list:
    """One game's results as the Kalooki game stores them: one player went out (R8.1), the
    others entered as card points, doubled down and out (R8.3); now and then a failed
    come-down's 50 points (R5.4)."""
    from scoring.models import DealResult

    winner = rng.randrange(len(sitting))
    hands = []
    for index, entry in enumerate(sitting):
        out = index == winner
        points = 0 if out else rng.randint(1, 90)
        doubled = game.down_and_out and not out
        failed = int(rng.random() < 0.02)
        values = {"went_out": out, "cards": "" if out else None, "points": points or None}
        values |= {"calls": None, "failed_come_downs": failed, "overcall_penalty": False}
        detail = {"card_points": points, "doubled": doubled}
        detail |= {"doubled_points": points * (2 if doubled else 1), "penalties": 50 * failed}
        hands.append(
            DealResult(
                deal=game,
                entry_id=entry,
                side=index,
                went_out=out,
                points=points * (2 if doubled else 1) + 50 * failed,
                entered={"values": values, "members": []},
                detail=detail,
            )
        )
    return hands


def delete_tournament(tournament) -> None:
    """Everything the simulation added, children first (entries are protected by results)."""
    from scoring.models import Deal, DealResult, StandingsSnapshot
    from tables.models import Seat, Table
    from tournament.models import Player

    people = list(tournament.entries.values_list("player_id", flat=True))
    DealResult.objects.filter(deal__table__round__tournament=tournament).delete()
    Deal.objects.filter(table__round__tournament=tournament).delete()
    Seat.objects.filter(round__tournament=tournament).delete()
    Table.objects.filter(round__tournament=tournament).delete()
    StandingsSnapshot.objects.filter(tournament=tournament).delete()
    tournament.delete()
    Player.objects.filter(pk__in=people).delete()


def read_rows(tournament) -> list:
    """The deal and result rows the recompute reads, read once and nothing else done with
    them."""
    from django.db.models import TextField
    from django.db.models.functions import Cast

    from scoring.models import Deal, DealResult

    deals = Deal.objects.filter(table__round__tournament=tournament, is_void=False)
    results = DealResult.objects.filter(
        deal__table__round__tournament=tournament, deal__is_void=False
    )
    stored = Cast("detail", TextField())  # read as text, as the recompute reads it
    return [
        *deals.values_list("pk", "table_id", "number", "status", "detail"),
        *results.annotate(stored=stored).values_list(
            "deal_id", "side", "points", "went_out", "stored"
        ),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=4)
    args = parser.parse_args()
    with django_database("standings.sqlite3"):
        run(args.players, args.rounds)


def run(players: int, rounds: int) -> None:
    from django.core.management import call_command
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from bench.run import machine
    from scoring.models import DealResult
    from scoring.standings import standings_compute

    call_command("migrate", verbosity=0)
    engine = connection.vendor
    started = time.perf_counter()
    tournament = build_tournament(
        slug=f"bench-standings-{os.getpid()}", players=players, rounds=rounds
    )
    built = time.perf_counter() - started
    try:
        hands = DealResult.objects.filter(deal__table__round__tournament=tournament).count()
        with CaptureQueriesContext(connection) as queries:
            standings = standings_compute(tournament=tournament)
        compute = best_of(3, lambda: standings_compute(tournament=tournament))
        read = best_of(3, lambda: read_rows(tournament))
    finally:
        delete_tournament(tournament)
    ratio = compute / read
    placed = sum(1 for row in standings["players"] if row["place"] is not None)
    print(f"machine: {machine()} · database: {engine}")
    print(
        f"tournament: {players} players, {rounds} rounds, {players // 5 * rounds} sets, "
        f"{hands // 5} games, {hands} hand results (inserted in {built:.1f} s)"
    )
    print(
        f"standings_compute: {compute * 1000:.0f} ms (best of 3), {len(queries)} queries, "
        f"{placed} players placed"
    )
    print(f"reading the {hands} result rows once: {read * 1000:.0f} ms (best of 3)")
    verdict = "OK" if ratio <= AIM else "MISS"
    print(f"ratio recompute / read: {ratio:.2f}x (aim <= {AIM:.0f}x) {verdict}")
    figures = {
        "database": engine,
        "players": players,
        "rounds": rounds,
        "hand_results": hands,
        "compute_ms": round(compute * 1000, 1),
        "read_ms": round(read * 1000, 1),
        "ratio": round(ratio, 3),
        "queries": len(queries),
        "ok": ratio <= AIM,
    }
    print("bench_standings: " + json.dumps(figures))


if __name__ == "__main__":
    main()
