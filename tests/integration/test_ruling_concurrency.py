"""Rulings against round steps and against each other, on a real PostgreSQL (R12.4).

A ruling holds its round's row in share mode before it reads the round's status, as a result
does (`scoring.rulings._held_round`): a round step in flight (here taking a round back to draft)
makes the ruling wait and then see the draft, and a ruling in flight makes the step wait and then
see the ruling. Each side is its own thread and its own database connection; `pg_stat_activity`
shows who is waiting for a lock.
"""

import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from scoring import rounds
from scoring.models import Ruling
from scoring.rulings import RulingError, ruling_record
from tests.integration.test_result_concurrency import in_flight, in_parallel, waiting_for_a_lock
from tests.scoring.playing import (
    director_of,
    disqualification_ruling,
    entry,
    published_round,
    tables_of,
    tournament_with,
)
from tournament.models import Entry, Round

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]
Kind = Ruling.Kind
CLICKS = 20


def waits(call: Callable[[], Any], pool: ThreadPoolExecutor) -> Future:
    """`call` started on its own connection, once it waits for a lock."""
    started = pool.submit(in_parallel, [call])
    for _ in range(200):
        if waiting_for_a_lock():
            break
        threading.Event().wait(0.05)
    assert waiting_for_a_lock() == 1 and not started.done(), "it did not wait for the lock"
    return started


def warning(table_or_player: dict[str, Any], tournament: Any) -> Callable[[], Ruling]:
    return lambda: ruling_record(
        tournament=tournament, by=None, kind=Kind.WARNING, decision="Too loud.", **table_or_player
    )


def test_a_ruling_waits_for_its_round_going_back_to_draft_and_is_refused() -> None:
    """Without the share lock the ruling read "published", and was saved in a draft round that
    `round_unpublish` had just checked had no ruling."""
    round = published_round(tournament_with(5, name="Open", slug="open"))
    [table] = tables_of(round)
    unpublish = in_flight(lambda: rounds.round_unpublish(round=round, by=None))
    with ThreadPoolExecutor(max_workers=1) as pool, unpublish:  # released first, on the way out
        ruling = waits(warning({"table": table}, round.tournament), pool)
    with pytest.raises(RulingError, match="Round 1 is a draft: change its seating directly"):
        ruling.result(timeout=10)
    assert not Ruling.objects.exists()


def test_a_ruling_about_a_player_counts_in_the_round_before_one_gone_back_to_draft() -> None:
    """A ruling with no table counts in the round being played (R12.3's latest round): when
    round 2 goes back to draft meanwhile, that is round 1 again, never the draft."""
    tournament = tournament_with(5, name="Open", slug="open", rounds_planned=2)
    published_round(tournament)
    second = published_round(tournament, number=2, seed=2)
    unpublish = in_flight(lambda: rounds.round_unpublish(round=second, by=None))
    with ThreadPoolExecutor(max_workers=1) as pool, unpublish:
        ruling = waits(warning({"entry": entry(tournament, "Ann")}, tournament), pool)
    [recorded] = ruling.result(timeout=10)
    assert recorded.round.number == 1
    assert Round.objects.get(pk=second.pk).status == Round.Status.DRAFT


def test_a_round_step_waits_for_a_ruling_in_flight_and_then_sees_it() -> None:
    round = published_round(tournament_with(5, name="Open", slug="open"))
    [table] = tables_of(round)
    with (
        ThreadPoolExecutor(max_workers=1) as pool,
        in_flight(warning({"table": table}, round.tournament)),
    ):
        step = waits(lambda: rounds.round_unpublish(round=round, by=None), pool)
    with pytest.raises(rounds.RoundError, match=r"Round 1 has rulings already \(R12\.4\)"):
        step.result(timeout=10)
    assert Round.objects.get(pk=round.pk).status == Round.Status.PUBLISHED


def test_twenty_clicks_on_reinstate_reverse_the_disqualification_once() -> None:
    tournament = tournament_with(5, name="Open", slug="open")
    published_round(tournament)
    ann = entry(tournament, "Ann")
    disqualification_ruling(tournament=tournament, entry=ann, decision="Marked cards.")
    key = Token.objects.create(user=director_of(tournament, "dana")).key

    def reinstate() -> int:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
        path = f"/api/tournaments/open/entries/{ann.pk}/reinstate"
        return client.post(path, {"reason": "The venue's deck."}, format="json").status_code

    assert sorted(in_parallel([reinstate] * CLICKS)) == [200] + [409] * (CLICKS - 1)
    assert Ruling.objects.filter(reverses__isnull=False).count() == 1
    assert Entry.objects.get(pk=ann.pk).status == Entry.Status.REGISTERED
