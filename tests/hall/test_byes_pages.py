"""Byes on the public pages: the seating board, the player's page ("bye in round 1", the bye rule
in words, PA7.2), the standings API and the results export; a draft's byes are never shown."""

import csv
import io

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from scoring.rounds import round_publish
from tables.models import Bye
from tables.services import round_seat
from tests.factories import RoundFactory
from tests.scoring.test_byes_standings import parcellus, play, round_with_bye
from tournament.models import Entry, Round

pytestmark = pytest.mark.django_db


@pytest.fixture
def played():
    """Ann, Ben and Cy played round 1; Di had a bye, counted as a win with 30 points."""
    tournament = parcellus("win", bye_points=30)
    tournament.is_published = True
    tournament.save(update_fields=["is_published"])
    play(round_with_bye(tournament, ["Ann", "Ben", "Cy"], "Di", 1), ["Ann", "Ben", "Cy"])
    return tournament


def di(tournament) -> Entry:
    return tournament.entries.get(player__name="Di")


def test_the_seating_board_lists_the_bye_a_to_z(client: Client, played) -> None:
    html = client.get(f"/p/{played.slug}/seating").content.decode()
    row = html[html.index(f'id="seat-{di(played).pk}"') :]
    row = row[: row.index("</tr>")]
    assert "Di" in row and "bye" in row
    projector = client.get(f"/p/{played.slug}/seating/projector").content.decode()
    assert '<td colspan="2">bye</td>' in projector


def test_the_board_with_byes_reads_one_query_for_its_rows(client: Client, played) -> None:
    path = f"/p/{played.slug}/seating"
    client.get(path)
    with CaptureQueriesContext(connection) as queries:
        assert client.get(path).status_code == 200
    assert len(queries) <= 3


def test_the_player_page_says_bye_in_round_1_with_the_rule(client: Client, played) -> None:
    html = client.get(f"/p/{played.slug}/players/{di(played).pk}").content.decode()
    assert "bye in round 1" in html
    assert "A bye counts as a match won with 30 points" in html and "PA7.2" in html
    assert "Round 1: <strong>a bye</strong>" in html


def test_the_api_and_the_export_carry_the_byes(client: Client, played) -> None:
    body = client.get(f"/api/tournaments/{played.slug}/standings").json()
    row = next(p for p in body["players"] if p["player"] == "Di")
    assert row["byes"] == [1] and row["total"] == 30 and row["stats"]["match_points"] == 3
    text = b"".join(client.get(f"/p/{played.slug}/results.csv").streaming_content).decode()
    lines = {line["player"]: line for line in csv.DictReader(io.StringIO(text))}
    assert lines["Di"]["round_1"] == "bye" and lines["Di"]["total"] == "30"
    assert lines["Ann"]["round_1"] == "35"


def test_a_round_seated_with_a_bye_shows_it_once_published(client: Client) -> None:
    tournament = parcellus("average")
    tournament.is_published = True
    tournament.save(update_fields=["is_published"])
    for name in ("Ann", "Ben", "Cy", "Di"):
        tournament.entries.create(
            player=tournament.players.create(name=name), status=Entry.Status.CHECKED_IN
        )
    round = RoundFactory(tournament=tournament, number=1)
    round_seat(round=round, seed=3)
    bye = Bye.objects.select_related("entry__player").get(round=round)
    page = f"/p/{tournament.slug}/players/{bye.entry_id}"
    assert "bye in round 1" not in client.get(page).content.decode()  # a draft
    round_publish(round=Round.objects.select_related("tournament").get(pk=round.pk), by=None)
    assert "bye in round 1" in client.get(page).content.decode()


def test_the_leaderboard_shows_this_rounds_bye_and_ranks_by_the_completed_rounds(
    client: Client, played
) -> None:
    from scoring.rounds import round_complete

    round_complete(round=Round.objects.select_related("tournament").get(tournament=played), by=None)
    second = round_with_bye(played, ["Di", "Ben", "Cy"], "Ann", 2)
    play(second, ["Di", "Ben", "Cy"], deals=1)  # round 2 live: one deal, not over
    html = client.get(f"/p/{played.slug}/leaderboard").content.decode()
    ann = html[html.index(">Ann</a>") :]
    ann = ann[: ann.index("</tr>")]
    assert 'class="bye"' in ann
    # Ann's match points while round 2 is live: round 1's 3, not yet her bye's 3 more (PA7.3).
    assert '<td class="num lead"><strong>3</strong>' in ann
