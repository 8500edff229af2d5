"""A refused deal speaks the scorekeeper's language: the table API and the table's page say the
game's problem in Spanish or French when the browser asks for it (Accept-Language), and keep the
rule it cites (R10.2, HF5.3, PA6.2) as it is. An English request gets today's English, word for
word.

Kalooki's Open seats Ann, Ben, Cy, Di and Ed; Hand and Foot's table has Ann and Cy against Ben
and Di; Parcellus's has Ann, Ben and Cy.
"""

import html

import pytest
from django.test import Client
from rest_framework.test import APIClient

from scoring.models import Deal
from tables.models import Table
from tests.scoring.other_games import game_tournament, seated_by_hand, table_of
from tests.scoring.playing import published_round, tournament_with

pytestmark = pytest.mark.django_db


def phone_at(table: Table, language: str) -> APIClient:
    client = APIClient(HTTP_ACCEPT_LANGUAGE=language)
    client.credentials(HTTP_AUTHORIZATION=f"Table {table.access_token}")
    return client


def api_refusal(table: Table, language: str, body: dict) -> list[dict]:
    response = phone_at(table, language).put(
        f"/api/tables/{table.pk}/games/1/result", body, format="json"
    )
    assert response.status_code == 400, response.content
    return response.json()["errors"]


def page_refusal(table: Table, language: str, form: dict) -> str:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    response = client.post(f"/t/{table.access_token}/", form)
    assert response.status_code == 200
    return html.unescape(response.content.decode())


def message(errors: list[dict], rule: str) -> str:
    return next(error["message"] for error in errors if error["rule"] == rule)


# --- Kalooki: R10.2 ---------------------------------------------------------------------------


@pytest.fixture
def kalooki_table() -> Table:
    [table] = published_round(tournament_with(5)).tables.all()
    return table


def kalooki_hands() -> list[dict]:
    """Seat 1 went out yet holds two cards (R10.2); the others score 12 to 15."""
    return [{"seat": 1, "went_out": True, "cards": "KH 5C"}] + [
        {"seat": seat, "points": 10 + seat} for seat in range(2, 6)
    ]


def kalooki_form(table: Table) -> dict[str, str]:
    seats = {seat.position: seat.entry_id for seat in table.seats.all()}
    form = {"game": "1", "who": str(seats[1]), "went_out": str(seats[1]), "action": "save"}
    form |= {"p1-cards": "KH 5C"} | {f"p{seat}-points": str(10 + seat) for seat in range(2, 6)}
    return form


def kalooki_player(table: Table) -> str:
    return table.seats.get(position=1).entry.player.name


@pytest.mark.parametrize(
    ("language", "sentence"),
    [
        ("en-gb", "{player} went out, so holds no cards, but 2 are entered (R10.2)"),
        ("es", "{player} cerró, así que no tiene cartas, pero se introdujeron 2 (R10.2)"),
        ("fr", "{player} est sorti, il n'a donc pas de cartes, mais 2 sont saisies (R10.2)"),
    ],
)
def test_a_refused_kalooki_game_in_the_callers_language_r10_2(
    kalooki_table, language, sentence
) -> None:
    expected = sentence.format(player=kalooki_player(kalooki_table))
    errors = api_refusal(kalooki_table, language, {"hands": kalooki_hands()})
    assert message(errors, "R10.2") == expected
    assert expected in page_refusal(kalooki_table, language, kalooki_form(kalooki_table))
    assert not Deal.objects.exists()


# --- Hand and Foot: HF5.3 -----------------------------------------------------------------------


@pytest.fixture
def hf_table() -> Table:
    tournament = game_tournament("hand_and_foot", slug="hf")
    return table_of(seated_by_hand(tournament, [["Ann", "Ben", "Cy", "Di"]]))


HF_SIDES = [
    {
        "seat": 1,
        "values": {"red_books": 2, "black_books": 2, "laid_down": 200},
        "members": [
            {"went_out": True, "hand": "KH 5C", "foot_played": True},  # Ann holds two cards
            {"foot_played": True, "hand_points": 10},
        ],
    },
    {
        "seat": 2,
        "values": {"red_books": 1, "black_books": 0, "laid_down": 150},
        "members": [
            {"hand_points": 20, "foot_points": 40},
            {"hand_points": 30, "foot_points": 40},
        ],
    },
]


def hf_form(table: Table) -> dict[str, str]:
    seats = {seat.position: seat.entry_id for seat in table.seats.all()}
    return {
        "game": "1",
        "attempt": "1",
        "who": str(seats[1]),
        "went_out": "1",
        "s1-red_books": "2",
        "s1-black_books": "2",
        "s1-laid_down": "200",
        "p1-hand": "KH 5C",
        "p1-foot_played": "on",
        "p3-foot_played": "on",
        "p3-hand_points": "10",
        "s2-red_books": "1",
        "s2-black_books": "0",
        "s2-laid_down": "150",
        "p2-hand_points": "20",
        "p2-foot_points": "40",
        "p4-hand_points": "30",
        "p4-foot_points": "40",
        "action": "save",
    }


@pytest.mark.parametrize(
    ("language", "sentence"),
    [
        ("en-gb", "Ann went out, so holds no card and no red three (HF5.3)"),
        ("es", "Ann cerró, así que no tiene ninguna carta ni ningún tres rojo (HF5.3)"),
        ("fr", "Ann est sorti, il n'a donc aucune carte ni aucun trois rouge (HF5.3)"),
    ],
)
def test_a_refused_hand_and_foot_hand_in_the_callers_language_hf5_3(
    hf_table, language, sentence
) -> None:
    errors = api_refusal(hf_table, language, {"sides": HF_SIDES})
    assert message(errors, "HF5.3") == sentence
    assert sentence in page_refusal(hf_table, language, hf_form(hf_table))
    assert not Deal.objects.exists()


# --- Parcellus: PA6.2 ---------------------------------------------------------------------------


@pytest.fixture
def parcellus_table() -> Table:
    tournament = game_tournament("parcellus", slug="pa")
    return table_of(seated_by_hand(tournament, [["Ann", "Ben", "Cy"]]))


SEVEN_PARCELS = ((10, 3, False), (8, 2, True), (4, 2, False))  # a deal has six (PA6.2)


def parcellus_form(table: Table) -> dict[str, str]:
    seats = {seat.position: seat.entry_id for seat in table.seats.all()}
    form = {"game": "1", "attempt": "1", "who": str(seats[1]), "action": "save"}
    for seat, (cards, parcels, jack) in enumerate(SEVEN_PARCELS, 1):
        form |= {f"p{seat}-cards": str(cards), f"p{seat}-parcels": str(parcels)}
        form |= {f"p{seat}-jack_of_hearts": "on"} if jack else {}
    return form


def parcellus_body() -> dict:
    return {
        "sides": [
            {"seat": seat, "values": {"cards": c, "parcels": p, "jack_of_hearts": j}}
            for seat, (c, p, j) in enumerate(SEVEN_PARCELS, 1)
        ]
    }


@pytest.mark.parametrize(
    ("language", "sentence"),
    [
        ("en-gb", "the parcels captured add up to 7, not six: a deal has six parcels, one for"),
        ("es", "los paquetes capturados suman 7, no seis: una mano tiene seis paquetes"),
        ("fr", "les paquets pris totalisent 7, pas six : une donne a six paquets"),
    ],
)
def test_a_refused_parcellus_deal_in_the_callers_language_pa6_2(
    parcellus_table, language, sentence
) -> None:
    said = message(api_refusal(parcellus_table, language, parcellus_body()), "PA6.2")
    assert said.startswith(sentence) and said.endswith("(PA6.2)"), said
    page = page_refusal(parcellus_table, language, parcellus_form(parcellus_table))
    assert said in page
    assert not Deal.objects.exists()


# --- the director's Rule check: R3.5 -----------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "sentence"),
    [
        ("en-gb", "two jokers side by side in a four (R3.5)"),
        ("es", "dos comodines juntos en una escalera (R3.5)"),
        ("fr", "deux jokers côte à côte dans une suite (R3.5)"),
    ],
)
def test_the_rules_api_refuses_a_meld_in_the_callers_language_r3_5(language, sentence) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    body = {"cards": "5H JK JK 8H", "kind": "four"}
    response = client.post("/api/rules/meld", body, content_type="application/json")
    assert response.status_code == 200
    assert [error["message"] for error in response.json()["errors"]] == [sentence]
