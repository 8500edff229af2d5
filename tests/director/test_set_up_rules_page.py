"""The set-up page's game and rules: every setting of the game as a field (made from its JSON
Schema), a preset picker that saves nothing, the game's refusals on their fields, and the rules
read-only once frozen."""

import re
from typing import Any

import pytest
from django.test import Client

import games
from director.ruleset_forms import PlacesField, RowsField, RulesetForm
from games.kalooki import PRESETS
from tests.factories import RoundFactory
from tests.tournament.test_rules_set_up import SEVEN_GAMES, SWITCHES
from tournament.models import Round, Tournament
from tournament.selectors import ruleset_summary

pytestmark = pytest.mark.django_db
BASE = {
    "name": "Club Night",
    "starts_on": "2026-05-02",
    "ends_on": "2026-05-02",
    "venue": "Mandeville",
    "rounds_planned": "3",
}


def as_user(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def page_post(stored: dict[str, Any], game: str = "kalooki", **changed: Any) -> dict[str, Any]:
    """What a browser sends for the settings shown from ``stored``, with ``changed`` typed in:
    a value by field name (``packs``, ``card_values.joker``), rows and places as lists."""
    form = RulesetForm(game=games.get(game), stored=stored)
    data: dict[str, Any] = {"rules-on-page": "1"}
    for name, field in form.fields.items():
        html, value = form.add_prefix(name), changed.get(name, form.initial.get(name))
        if isinstance(field, RowsField):
            data[f"{html}-rows"] = len(value)
            for place, row in enumerate(value):
                data |= {f"{html}-{place}-{column}": row[column] for column in field.columns}
        elif isinstance(field, PlacesField):
            data |= {f"{html}_{place}": item for place, item in enumerate(value)}
        elif isinstance(value, bool):
            data |= {html: "on"} if value else {}
        else:
            data[html] = "" if value is None else value
    return data


ASAJ = PRESETS["asaj-2025"].to_dict()
CLUB = PRESETS["club-four"].to_dict()


def test_the_page_shows_every_setting_of_the_game(dana) -> None:
    page = as_user(dana).get("/director/new").content.decode()
    for name in (
        "rules-packs",
        "rules-card_values.joker",
        "rules-tie_breaks_0",
        "rules-games-0-dealt",
    ):
        assert f'name="{name}"' in page
    assert 'name="rules-games-rows" value="11"' in page  # nine games and two blank rows
    assert "A set is nine games, played in order (R4)." in page  # the rules in words
    assert "Choosing another game resets the rules to that game" in page
    assert 'optgroup label="Parcellus"' in page


@pytest.mark.parametrize(("setting", "value", "played"), SWITCHES, ids=[s[0] for s in SWITCHES])
def test_each_house_rule_is_set_from_the_page(dana, setting, value, played) -> None:
    if isinstance(value, dict):
        typed = {f"{setting}.{key}": item for key, item in value.items()}
    else:
        typed = {setting: value}
    body = BASE | {"rules": "kalooki:asaj-2025"} | page_post(ASAJ, **typed)
    response = as_user(dana).post("/director/new", body)
    assert response.status_code == 302, response.content.decode()[:2000]
    club = Tournament.objects.get(slug="club-night")
    assert played(club.rules().ruleset)
    assert setting in ruleset_summary(tournament=club).request


def test_a_four_player_club_with_a_seven_game_set_from_the_page(dana) -> None:
    body = BASE | {"rules": "kalooki:club-four"} | page_post(CLUB, games=SEVEN_GAMES)
    body |= {"rules-min_naturals_in_three": "1"}
    assert as_user(dana).post("/director/new", body).status_code == 302
    request = ruleset_summary(tournament=Tournament.objects.get(slug="club-night")).request
    assert request == {"preset": "club-four", "games": SEVEN_GAMES, "min_naturals_in_three": 1}


def test_rows_are_removed_by_their_box_and_added_in_a_blank_row(dana, spring) -> None:
    body = BASE | {"rules": "stored"} | page_post(ASAJ)
    body |= {"rules-games-7-remove": "on", "rules-games-8-remove": "on"}  # games 8 and 9
    body |= {"rules-games-rows": "11", "rules-games-10-dealt": "8", "rules-games-10-contract": "33"}
    response = as_user(dana).post("/director/spring-open/edit", body)
    assert response.status_code == 302
    spring.refresh_from_db()
    ruleset = spring.rules().ruleset
    assert [(spec.number, spec.dealt, spec.contract) for spec in ruleset.games][-2:] == [
        (7, 14, "3344"),
        (8, 8, "33"),
    ]


def test_an_unplayable_ruleset_is_refused_on_each_field_and_nothing_is_saved(dana, spring) -> None:
    body = BASE | {"rules": "stored"} | page_post(ASAJ, **{"card_values.joker": 9999})
    body |= {"rules-games-0-contract": "4444", "rules-jokers": "13"}
    response = as_user(dana).post("/director/spring-open/edit", body)
    page = response.content.decode()
    assert response.status_code == 200
    assert "The rules cannot be played as set" in page
    assert "contract 4444 needs at least 16 cards, but only 9 are dealt (R13.4)" in page
    assert "the value of a joker: a whole number from 0 to 1000, not 9999 (R13.3)" in page
    assert "Jokers: a whole number from 0 to 12, not 13 (R13.2)" in page
    spring.refresh_from_db()
    assert (spring.ruleset, spring.name) == (ASAJ, "Spring Open")


def test_the_games_refusal_is_shown_on_the_field_it_names(dana, spring) -> None:
    body = BASE | {"rules": "stored"} | page_post(ASAJ, table_size=7)  # 7 > the largest, 6
    page = as_user(dana).post("/director/spring-open/edit", body).content.decode()
    assert "table sizes must run min &lt;= usual &lt;= max, not (3, 7, 6) (R1.1)" in page
    spring.refresh_from_db()
    assert spring.rules().ruleset.table_size == 5


def test_the_picker_shows_a_presets_settings_and_saves_nothing(dana, spring) -> None:
    page = as_user(dana).get("/director/spring-open/edit?rules=kalooki:club-four")
    text = page.content.decode()
    assert 'name="rules-table_size" value="4"' in text
    assert "Showing the preset <strong>club-four</strong> of Kalooki" in text
    assert 'name="rules" value="kalooki:club-four"' in text  # what a save will start from
    spring.refresh_from_db()
    assert spring.rules().ruleset == PRESETS["asaj-2025"]
    body = BASE | {"rules": "kalooki:club-four"} | page_post(CLUB)
    as_user(dana).post("/director/spring-open/edit", body)
    spring.refresh_from_db()
    assert ruleset_summary(tournament=spring).request == {"preset": "club-four"}


def test_another_game_resets_the_rules_to_its_preset(dana, spring) -> None:
    text = as_user(dana).get("/director/spring-open/edit?rules=parcellus:shields-2008")
    assert 'name="rules-target"' in text.content.decode()
    stored = games.get("parcellus").dump(games.get("parcellus").ruleset())
    body = BASE | {"rules": "parcellus:shields-2008"} | page_post(stored, "parcellus", target=40)
    assert as_user(dana).post("/director/spring-open/edit", body).status_code == 302
    spring.refresh_from_db()
    assert spring.game == "parcellus"
    assert ruleset_summary(tournament=spring).request == {"preset": "shields-2008", "target": 40}


def test_a_post_without_the_settings_changes_no_setting(dana, spring) -> None:
    response = as_user(dana).post("/director/spring-open/edit", BASE)
    assert response.status_code == 302
    spring.refresh_from_db()
    assert (spring.name, spring.ruleset) == ("Club Night", ASAJ)


def test_a_hostile_rules_value_falls_back_to_the_stored_rules(dana, spring) -> None:
    for value in ("chess:x", "kalooki:nope", "kalooki", "x" * 500):
        page = as_user(dana).get(f"/director/spring-open/edit?rules={value}")
        assert page.status_code == 200
    body = BASE | {"rules": "chess:none"} | page_post(ASAJ, packs=2)
    assert as_user(dana).post("/director/spring-open/edit", body).status_code == 302
    spring.refresh_from_db()
    assert spring.rules().ruleset.packs == 2  # "chess:none" is no rules: the stored ones are


@pytest.mark.parametrize("status", [Round.Status.PUBLISHED, Round.Status.DRAFT])
def test_frozen_rules_are_read_only_with_the_reason(dana, spring, status) -> None:
    RoundFactory(tournament=spring, number=1, status=status)
    page = as_user(dana).get("/director/spring-open/edit?rules=kalooki:club-four")
    text = page.content.decode()
    assert 'name="rules-packs"' not in text and 'name="rules-on-page"' not in text
    assert "3 packs and 6 jokers: 162 cards" in text
    assert ruleset_summary(tournament=spring).frozen_because in text.replace("&#x27;", "'")
    body = BASE | {"rules": "kalooki:club-four"} | page_post(CLUB)
    assert as_user(dana).post("/director/spring-open/edit", body).status_code == 302
    spring.refresh_from_db()
    assert (spring.name, spring.ruleset) == ("Club Night", ASAJ)


def test_the_hub_shows_the_game_and_its_changed_settings(dana, spring) -> None:
    body = BASE | {"rules": "stored"} | page_post(ASAJ, packs=2, jokers=4)
    as_user(dana).post("/director/spring-open/edit", body)
    page = as_user(dana).get("/director/spring-open/").content.decode()
    assert "Kalooki: ASAJ Kalooki Tournament 2025" in page
    assert "from the preset asaj-2025; changed: Packs, Jokers, Copies of a card" in page
    assert "2 packs and 4 jokers: 108 cards; one card exists at most 2 times (R1.2)." in page


def test_the_public_home_shows_the_game_and_its_rules_in_words(client, dana, spring) -> None:
    body = BASE | {"rules": "kalooki:club-four", "is_published": "on"} | page_post(CLUB)
    as_user(dana).post("/director/spring-open/edit", body)
    page = client.get("/p/spring-open/").content.decode()
    assert "<strong>Kalooki</strong>: Club Kalooki, four at a table (preset club-four)." in page
    assert "4 players at a table (3 to 5 when the numbers need it), no byes (R1.1, R12.2)." in page


# --- what was typed stays when the preset changes; a one-day event needs no last day ------------


def test_showing_another_presets_settings_keeps_what_was_typed_and_saves_nothing(dana) -> None:
    typed = {"name": "Club Night", "venue": "Mandeville", "starts_on": "2026-05-02"}
    body = typed | {"is_published": "on", "picker-rules": "kalooki:club-four", "show": "rules"}
    body |= {"rules": "kalooki:asaj-2025"} | page_post(ASAJ, packs=2)
    page = as_user(dana).post("/director/new", body)
    assert page.status_code == 200
    text = page.content.decode()
    assert 'name="name" value="Club Night"' in text and 'value="Mandeville"' in text
    assert 'name="starts_on" value="2026-05-02"' in text
    assert 'id="id_is_published" checked' in text
    assert 'name="rules-table_size" value="4"' in text  # club-four's, not the typed packs
    assert (
        'name="rules-packs" value="2"' in text and 'name="rules" value="kalooki:club-four"' in text
    )
    assert 'class="errors"' not in text  # nothing was checked: the director is still typing
    assert not Tournament.objects.filter(name="Club Night").exists()


def test_the_edit_page_keeps_a_changed_name_when_another_preset_is_shown(dana, spring) -> None:
    body = BASE | {"name": "Spring Open Renamed", "picker-rules": "kalooki:club-four"}
    page = as_user(dana).post("/director/spring-open/edit", body | {"show": "rules"})
    text = page.content.decode()
    assert 'value="Spring Open Renamed"' in text and "Showing the preset <strong>club-four" in text
    spring.refresh_from_db()
    assert (spring.name, spring.ruleset) == ("Spring Open", ASAJ)


def test_a_one_day_event_needs_no_last_day(dana) -> None:
    body = BASE | {"ends_on": "", "rules": "kalooki:asaj-2025"} | page_post(ASAJ)
    response = as_user(dana).post("/director/new", body)
    assert response.status_code == 302
    made = Tournament.objects.get(name="Club Night")
    assert str(made.starts_on) == str(made.ends_on) == "2026-05-02"
    page = as_user(dana).get("/director/new").content.decode()
    assert "Leave blank for a one-day event." in page
    [last_day] = re.findall(r'<input[^>]*name="ends_on"[^>]*>', page)
    assert (
        "required" not in last_day
        and "required" in re.findall(r'<input[^>]*name="starts_on"[^>]*>', page)[0]
    )


def test_the_api_takes_a_one_day_event_without_its_last_day(dana) -> None:
    from rest_framework.test import APIClient

    api = APIClient()
    api.force_authenticate(dana)
    made = api.post(
        "/api/tournaments", {"name": "Club Night", "starts_on": "2026-05-02"}, format="json"
    )
    assert made.status_code == 201, made.content
    assert made.json()["ends_on"] == "2026-05-02"
