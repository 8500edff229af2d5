"""Benchmark: a club's ratings recomputed from scratch, and brought up to date after one round.

A club of 2,000 members plays 200 events of 40 players (3 rounds each, 8 tables of five a round:
4,800 matches, 24,000 rating updates), written straight to the rows the ratings read: members,
players and entries, locked rounds, and each event's standings snapshot with its tables' places.
Then, best of 3 each:
- `ratings_recompute` (seasons/ratings.py): every rating and every history row from scratch;
- `ratings_refresh` after one more round is locked (8 matches): the incremental path.
Aims: under 10 s for the recompute, under 200 ms for the update. A second recompute must give
identical numbers (checked, printed).

Run from the project root: `python bench/bench_ratings.py [--members N] [--events E]`. It uses a
throwaway SQLite file, or DATABASE_URL when set (the club it adds is deleted at the end). The last
line is for machines (prefix `bench_ratings:`). Figures measured on a shared machine are noisy.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.harness import best_of, django_database  # noqa: E402 (the path above first)

FULL_AIM, INCREMENTAL_AIM = 10.0, 0.2
PLAYERS, ROUNDS, SEATS = 40, 3, 5


def build_club(slug: str, members: int, events: int, seed: int = 1):
    """The club, its members and `events` events of PLAYERS, every round locked and stored."""
    from clubs.models import Club, Member
    from tournament.models import Entry, Player, Round, Tournament

    rng = random.Random(seed)
    club = Club.objects.create(name=slug, slug=slug)
    register = Member.objects.bulk_create(Member(club=club, name=f"M{n}") for n in range(members))
    start = datetime.datetime(2025, 1, 1, tzinfo=datetime.UTC)
    day = start.date()
    nights = Tournament.objects.bulk_create(
        Tournament(club=club, name=f"{slug} {n}", slug=f"{slug}-{n}", starts_on=day,
                   ends_on=day, status="finished")
        for n in range(events)
    )  # fmt: skip
    for n, night in enumerate(nights):
        night_members = rng.sample(register, PLAYERS)
        players = Player.objects.bulk_create(
            Player(tournament=night, name=m.name, member=m) for m in night_members
        )
        entries = Entry.objects.bulk_create(Entry(tournament=night, player=p) for p in players)
        rounds = Round.objects.bulk_create(
            Round(tournament=night, number=r, status="locked",
                  locked_at=start + datetime.timedelta(days=n, hours=r))
            for r in range(1, ROUNDS + 1)
        )  # fmt: skip
        store_snapshot(night, [e.pk for e in entries], len(rounds), rng)
    return club, nights


def store_snapshot(
    night, entries: list[int], rounds: int, rng: random.Random, tables: list | None = None
) -> None:
    """A new snapshot of the night: `tables` as before, a seating for each round after, and
    the night's places (a season's points)."""
    from scoring.models import StandingsSnapshot

    tables = list(tables or [])
    for number in range(max((t["round"] for t in tables), default=0) + 1, rounds + 1):
        order = entries[:]
        rng.shuffle(order)
        for t in range(len(order) // SEATS):
            seated = order[t * SEATS : (t + 1) * SEATS]
            sides = [{"entries": [e], "place": p} for p, e in enumerate(seated, start=1)]
            tables.append({"round": number, "table": t + 1, "sides": sides, "seats": []})
    finish = entries[:]
    rng.shuffle(finish)  # the night's places, which a season counts
    players = [{"entry": e, "place": p} for p, e in enumerate(finish, start=1)]
    version = (StandingsSnapshot.objects.filter(tournament=night).count()) + 1
    StandingsSnapshot.objects.create(tournament=night, version=version, source_stamp="bench",
                                     data={"players": players, "tables": tables})  # fmt: skip


def changes(club) -> list[tuple]:
    from seasons.models import RatingChange

    return list(
        RatingChange.objects.filter(club=club)
        .order_by("seq", "member")
        .values_list("member", "seq", "mu", "sigma")
    )


def one_more_round(night, rng: random.Random) -> None:
    """Round 4 of the last event locked and its snapshot stored: the update's work."""
    from scoring.models import StandingsSnapshot
    from tournament.models import Round

    latest = StandingsSnapshot.objects.filter(tournament=night).order_by("-version")[0]
    entries = sorted({e for t in latest.data["tables"] for s in t["sides"] for e in s["entries"]})
    number = Round.objects.filter(tournament=night).count() + 1
    Round.objects.create(tournament=night, number=number, status="locked",
                         locked_at=datetime.datetime(2030, 1, 1, tzinfo=datetime.UTC))  # fmt: skip
    store_snapshot(night, entries, number, rng, tables=latest.data["tables"])


def run(members: int, events: int) -> None:
    from django.core.management import call_command

    from clubs.models import Club
    from seasons.ratings import ratings_recompute, ratings_refresh

    call_command("migrate", verbosity=0)
    slug = f"bench-ratings-{os.getpid()}"
    started = time.perf_counter()
    club, nights = build_club(slug, members, events)
    built = time.perf_counter() - started
    try:
        full = best_of(3, lambda: ratings_recompute(club=club, game="kalooki"))
        first = changes(club)
        ratings_recompute(club=club, game="kalooki")
        identical = first == changes(club)
        rng, incremental = random.Random(2), float("inf")
        for _ in range(3):
            one_more_round(nights[-1], rng)
            started = time.perf_counter()
            ratings_refresh(club_id=club.pk, game="kalooki")
            incremental = min(incremental, time.perf_counter() - started)
        report(members, events, len(first), built, full, incremental, identical)
    finally:
        delete_club(club)
        Club.objects.filter(slug=slug).delete()


def delete_club(club) -> None:
    from scoring.models import StandingsSnapshot
    from seasons.models import Rating, RatingChange, RatingState
    from tournament.models import Entry, Player, Round, Tournament

    nights = Tournament.objects.filter(club=club)
    for model in (RatingChange, Rating, RatingState):
        model.objects.filter(club=club).delete()
    StandingsSnapshot.objects.filter(tournament__in=nights).delete()
    Entry.objects.filter(tournament__in=nights).delete()
    Player.objects.filter(tournament__in=nights).delete()
    Round.objects.filter(tournament__in=nights).delete()
    nights.delete()


def report(members, events, updates, built, full, incremental, identical) -> None:
    print(f"club of {members} members, {events} events of {PLAYERS} ({ROUNDS} rounds each): "
          f"{updates} rating updates; built in {built:.1f} s")  # fmt: skip
    print(f"full recompute: {full:.2f} s (aim < {FULL_AIM:.0f} s, {full / FULL_AIM:.2f} of it)")
    ratio = incremental / INCREMENTAL_AIM
    print(f"incremental after one locked round: {incremental * 1000:.0f} ms "
          f"(aim < {INCREMENTAL_AIM * 1000:.0f} ms, {ratio:.2f} of it)")  # fmt: skip
    print(f"a second recompute gives identical numbers: {identical}")
    figures = {"members": members, "events": events, "updates": updates, "full_s": round(full, 3),
               "incremental_ms": round(incremental * 1000, 1), "identical": identical}  # fmt: skip
    print("bench_ratings: " + json.dumps(figures))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--members", type=int, default=2000)
    parser.add_argument("--events", type=int, default=200)
    args = parser.parse_args()
    with django_database("ratings.sqlite3"):
        run(args.members, args.events)


if __name__ == "__main__":
    main()
