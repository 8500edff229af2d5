"""The dashboard at scale: the tables needing attention first, every table and the
standings a page at a time, the same queries whatever the round's size."""

import pytest
from django.test import Client

from scoring.models import Deal
from scoring.standings import standings_refresh
from tests.scale import tournament_at_scale
from tests.scoring.playing import director_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice(client: Client) -> Client:
    tournament = tournament_at_scale(200, deals=3, slug="big")  # 40 tables
    Deal.objects.filter(table__round__tournament=tournament, table__number=33, number=2).update(
        is_flagged=True
    )
    standings_refresh(tournament_id=tournament.pk)
    client.force_login(director_of(tournament))
    return client


def test_a_flagged_table_needs_attention_and_the_tables_come_a_page_at_a_time(alice) -> None:
    first = alice.get("/director/big/rounds/1/dashboard?partial=1")
    page = first.content.decode()
    assert 'data-attention="33"' in page and 'data-table="33"' not in page
    assert 'data-table="25"' in page and 'data-table="26"' not in page
    assert (first.context["table_page"], first.context["table_pages"]) == (1, 2)
    second = alice.get("/director/big/rounds/1/dashboard?partial=1&tables=2").content.decode()
    assert 'data-table="33"' in second and 'data-table="25"' not in second
    assert "Page 2 of 2" in second


def test_the_top_of_the_standings_then_a_page_at_a_time(alice) -> None:
    top = alice.get("/director/big/rounds/1/dashboard").context["standings"]
    assert (len(top.lines), top.count, top.start) == (20, 200, 0)
    later = alice.get("/director/big/rounds/1/dashboard?standings=3").context["standings"]
    assert (len(later.lines), later.start) == (20, 40)
    beyond = alice.get("/director/big/rounds/1/dashboard?standings=999&tables=x")
    assert beyond.context["standings_page"] == 10 and beyond.context["table_page"] == 1
