"""Pages every game shows (the hall's, the director's, the table's phone page) cite the
tournament's own game: Kalooki's R4.3 beside its first dealer, Parcellus's PA2.4, and no rule at
all where the game numbers none (Hand and Foot has no first dealer rule), never another game's
rule number (`{{ tournament|cited:topic }}`)."""

import re

import pytest
from django.test import Client

from tests.factories import StaffRoleFactory
from tests.scoring.other_games import game_tournament, seated_by_hand, table_of

pytestmark = pytest.mark.django_db

KALOOKI_RULE = re.compile(r"\(R\d+\.\d+")  # "(R4.3", "(R12.4": a Kalooki rule in brackets


def pages(client: Client, slug: str) -> dict[str, str]:
    paths = {
        "seating": f"/p/{slug}/seating",
        "table": f"/p/{slug}/tables/1/1",
        "leaderboard": f"/p/{slug}/leaderboard",
        "round": f"/director/{slug}/rounds/1/",
        "dashboard": f"/director/{slug}/rounds/1/dashboard",
        "director's table": f"/director/{slug}/rounds/1/tables/1/",
        "rulings": f"/director/{slug}/rulings/",
    }
    answers = {name: client.get(path) for name, path in paths.items()}
    assert {name: a.status_code for name, a in answers.items()} == dict.fromkeys(paths, 200)
    return {name: a.content.decode() for name, a in answers.items()}


def kalooki_rules_in(found: dict[str, str]) -> dict[str, list[str]]:
    """The Kalooki rule numbers each page cites, for the pages that cite any."""
    cited = {name: KALOOKI_RULE.findall(html) for name, html in found.items()}
    return {name: rules for name, rules in cited.items() if rules}


def signed_in(client: Client, tournament) -> Client:
    client.force_login(StaffRoleFactory(tournament=tournament, user__username="dana").user)
    return client


def test_parcellus_pages_cite_parcellus_rules_and_no_kalooki_rule(client: Client) -> None:
    tournament = game_tournament("parcellus", slug="pa", is_published=True)
    seated_by_hand(tournament, [["Ann", "Ben", "Cy"]])
    found = pages(signed_in(client, tournament), "pa")
    assert kalooki_rules_in(found) == {}
    assert "(PA2.4)" in found["seating"] and "(PA7.5)" in found["rulings"]


def test_hand_and_foot_pages_cite_no_rule_the_game_does_not_number(client: Client) -> None:
    tournament = game_tournament("hand_and_foot", slug="hf", is_published=True)
    seated_by_hand(tournament, [["Ann", "Ben", "Cy", "Di"]])
    found = pages(signed_in(client, tournament), "hf")
    assert kalooki_rules_in(found) == {}


def test_kalooki_pages_keep_their_rule_numbers(client: Client) -> None:
    tournament = game_tournament("kalooki", slug="ka", is_published=True)
    seated_by_hand(tournament, [["Ann", "Ben", "Cy", "Di", "Ed"]])
    found = pages(signed_in(client, tournament), "ka")
    assert "(R4.3)" in found["seating"] and "(R4.3)" in found["table"]
    assert "(R12.4)" in found["rulings"] and "(R12.4)" in found["round"]  # a seat change


def test_the_parcellus_table_page_cites_parcellus_rules(client: Client) -> None:
    tournament = game_tournament("parcellus", slug="pa", is_published=True)
    table = table_of(seated_by_hand(tournament, [["Ann", "Ben", "Cy"]]))
    html = client.get(f"/t/{table.access_token}/").content.decode()
    assert "plays first (seat 2, on the left, PA2.4)" in html
    assert KALOOKI_RULE.findall(html) == []
