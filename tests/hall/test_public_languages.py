"""The public pages speak Spanish and French (issue 34): the hall's pages, the projector and the
club's pages follow the browser's language, say so in `<html lang>`, keep the rules' citations
as they are (R12.4, R4.3), and write numbers and dates the language's way ("23,40", "nov").

The Kingston Open (tests/hall/conftest.py) is published, round 1 seated at two tables of five.
"""

import re

import pytest
from django.conf import settings
from django.core.cache import cache
from django.test import Client
from django.utils import translation

from clubs.models import Member
from hall.views import forget_recent
from scoring.standings import standings_refresh
from seasons.models import Rating
from tables.models import Table
from tests.scoring.playing import entry, penalty_ruling, play, seated
from tests.seasons.test_seasons import alice, autumn, league  # noqa: F401  (fixtures)
from tournament.models import Tournament
from tournament.templatetags.deal_words import as_date, deal_word, deals_counted, deals_word

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.hall.urls")]


@pytest.fixture(autouse=True)
def _english_afterwards() -> object:
    """A request in Spanish leaves Spanish active in the thread: the next test starts in English."""
    yield
    translation.activate(settings.LANGUAGE_CODE)


def _page(path: str, language: str) -> str:
    """The page as a browser asking for `language` gets it, drawn afresh (the hall's caches
    hold one drawing of a page: see test_a_page_drawn_in_english_is_not_served_in_spanish)."""
    cache.clear()
    forget_recent()
    response = Client(HTTP_ACCEPT_LANGUAGE=language).get(path)
    assert response.status_code == 200, path
    return response.content.decode()


@pytest.fixture
def played(tournament: Tournament, table_one: Table) -> Tournament:
    """Two games at table 1, and a ruling of 25 points against Ann (R12.4)."""
    play(table_one, 1, winner=0)
    play(table_one, 2, winner=1)
    penalty_ruling(
        tournament=tournament, entry=entry(tournament, "Ann"), points=25, decision="Late."
    )
    standings_refresh(tournament_id=tournament.pk)
    return tournament


PAGES = {
    "/": "Torneos",
    "/p/open/": "Clasificación en directo",
    "/p/open/leaderboard": "puntos por una decisión del director (R12.4)",
    "/p/open/seating": "Encuentre su asiento",
    "/p/open/tables/1/1": "Ronda 1 · Mesa 1",
    "/p/open/projector": "Página 1 de 1",
    "/p/open/seating/projector": "Encuentre su asiento",
}
FRENCH = {
    "/": "Tournois",
    "/p/open/": "Classement en direct",
    "/p/open/leaderboard": "points d'une décision du directeur (R12.4)",
    "/p/open/seating": "Trouvez votre place",
    "/p/open/tables/1/1": "Ronde 1 · Table 1",
    "/p/open/projector": "Page 1 sur 1",
    "/p/open/seating/projector": "Trouvez votre place",
}


@pytest.mark.parametrize("path", PAGES)
def test_every_public_page_speaks_spanish_and_french(played: Tournament, path: str) -> None:
    spanish = _page(path, "es-ES,es;q=0.9")
    assert '<html lang="es">' in spanish and PAGES[path] in spanish
    french = _page(path, "fr")
    assert '<html lang="fr">' in french and FRENCH[path] in french
    english = _page(path, "en")
    assert '<html lang="en-gb">' in english


def test_the_player_page_keeps_its_rules_in_spanish(played: Tournament, table_one: Table) -> None:
    first_out = entry(played, seated(table_one)[0])  # went out of game 1 (R8.1)
    page = _page(f"/p/open/players/{first_out.pk}", "es")
    assert "Puntuación partida a partida" in page and 'title="Cerró (R8.1)"' in page
    assert "Ronda 1: <strong>mesa" in page and "Decisiones del director" in page


def test_the_table_page_counts_its_games_in_each_language(played: Tournament) -> None:
    assert "2 de 9 partidas puntuadas." in _page("/p/open/tables/1/1", "es")
    assert "2 parties sur 9 comptées." in _page("/p/open/tables/1/1", "fr")
    assert "2 of 9 games scored." in _page("/p/open/tables/1/1", "en")


def test_the_projector_has_the_display_switch_and_loads_the_catalogue(played: Tournament) -> None:
    for path in ("/p/open/projector", "/p/open/seating/projector"):
        page = _page(path, "es")
        assert "data-display-switch" in page and "Letra grande" in page
        assert 'src="/jsi18n/"' in page and "js/display.js" in page


def test_the_script_catalogue_speaks_the_pages_language(played: Tournament) -> None:
    catalogue = Client(HTTP_ACCEPT_LANGUAGE="fr").get("/jsi18n/").content.decode()
    assert '"Page %(page)s of %(pages)s": "Page %(page)s sur %(pages)s"' in catalogue
    spanish = Client(HTTP_ACCEPT_LANGUAGE="es").get("/jsi18n/").content.decode()
    assert (
        '"Add a row": "A\\u00f1adir una fila"' in spanish
        or '"Add a row": "Añadir una fila"' in spanish
    )


def test_a_page_drawn_in_english_is_not_served_in_spanish(played: Tournament) -> None:
    """The hall's caches (hall/responses.py: a page and its live parts drawn once per snapshot,
    and their ETags) are kept per language."""
    cache.clear()
    forget_recent()
    Client(HTTP_ACCEPT_LANGUAGE="en").get("/p/open/leaderboard")
    spanish = Client(HTTP_ACCEPT_LANGUAGE="es").get("/p/open/leaderboard").content.decode()
    assert "Clasificación" in spanish


def test_the_member_page_writes_ratings_and_dates_the_languages_way(autumn) -> None:  # noqa: F811
    club, _season, _nights = autumn
    member = Member.objects.get(number="M1")
    rating = Rating.objects.filter(member=member).first()
    assert rating is not None
    path = f"/c/{club.slug}/members/{member.pk}"
    spanish, english = _page(path, "es"), _page(path, "en")
    shown = re.search(r"data-rating>([^<]*)<", spanish)
    assert shown and "," in shown.group(1) and "." not in shown.group(1)
    assert "." in re.search(r"data-rating>([^<]*)<", english).group(1)
    assert "Miembro de" in spanish and '<html lang="es">' in spanish


def test_the_dates_are_written_the_languages_way(played: Tournament) -> None:
    assert "21 de noviembre de 2026" in _page("/p/open/", "es")
    assert "21 novembre 2026" in _page("/p/open/", "fr")
    assert "21 Nov 2026" in _page("/p/open/", "en")


def test_the_games_nouns_are_translated_and_counted() -> None:
    with translation.override("es"):
        assert (deal_word("games"), deals_word("hand"), deals_counted("deals", 1)) == (
            "partida",
            "manos",
            "mano",
        )
    with translation.override("fr"):
        assert (deals_counted("games", 0), deals_counted("games", 2)) == ("partie", "parties")
    assert deal_word("rubbers") == "rubbers"  # a noun no game uses stays as it is
    assert str(as_date("2026-11-06")) == "2026-11-06" and as_date("soon") == "soon"
