"""The director's pages speak Spanish and French (issue 34): each area renders in the browser's
language, the rules' citations stay as they are (R4.3, R8.5, R12.4, HF1.2), and the refusals the
services raise read in the director's language too.

Every word of the director's templates (and the staff sign-in) is in a translate tag: the check of
the players' pages (`words_left`) runs over each of them.
"""

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.formats import date_format

from tests.hall.test_phone_languages import words_left
from tests.scoring.playing import director_of, published_round, tournament_with
from tests.tournament.conftest import count_queries
from tournament.models import Entry, Tournament

pytestmark = pytest.mark.django_db

TEMPLATES = Path(settings.BASE_DIR) / "templates"
DIRECTOR_TEMPLATES = sorted(
    str(path.relative_to(TEMPLATES))
    for folder in ("director", "registration")
    for path in (TEMPLATES / folder).glob("*.html")
)


@pytest.fixture(autouse=True)
def _english_afterwards() -> object:
    """A request in Spanish leaves Spanish active in the thread: the next test starts in English."""
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.mark.parametrize("name", DIRECTOR_TEMPLATES)
def test_the_directors_templates_hold_no_untranslated_words(name: str) -> None:
    assert words_left((TEMPLATES / name).read_text(encoding="utf-8")) == []


def test_every_director_template_is_checked() -> None:
    assert "director/director_table.html" in DIRECTOR_TEMPLATES
    assert "registration/login.html" in DIRECTOR_TEMPLATES
    assert len(DIRECTOR_TEMPLATES) >= 40


@pytest.fixture
def copa() -> Tournament:
    """Kalooki, ten players checked in, round 1 published: every director's page has something."""
    copa = tournament_with(10, name="Copa", slug="copa", is_published=True)
    published_round(copa)
    return copa


@pytest.fixture
def alice(copa: Tournament) -> AbstractBaseUser:
    return director_of(copa)


def speaking(language: str, director: AbstractBaseUser) -> Client:
    browser = Client(HTTP_ACCEPT_LANGUAGE=language)
    browser.force_login(director)
    return browser


def page(browser: Client, name: str, *args: object) -> str:
    response = browser.get(reverse(f"director:{name}", args=args))
    assert response.status_code == 200
    return response.content.decode()


# (page, its arguments after the slug, Spanish, French): each phrase keeps its rule's citation.
AREAS = [
    ("hub", (), "Juego y reglas", "Jeu et règles"),
    ("players", (), "Confirmación de llegada por teléfono", "Pointage par téléphone"),
    ("rounds", (), "Una ronda es un encuentro en cada mesa (R12.1)", "Une ronde est un match"),
    ("round", (1,), "Cambiar asientos por decisión del director", "Places fixes"),
    ("dashboard", (1,), "Llamadas al director", "Appels au directeur"),
    ("director-table", (1, 1), "Enlace del anotador", "Lien du marqueur"),
    ("print-cards", (1,), "juega primero el jugador a la izquierda del repartidor (R4.3)",
     "le joueur à gauche du donneur joue en premier (R4.3)"),
    ("print-sheets", (1,), "Anote la puntuación de cada jugador en la partida (R8.5)",
     "Notez le score de chaque joueur pour la partie (R8.5)"),
    ("rulings", (), "El director del torneo resuelve toda disputa (R12.4)",
     "Le directeur du tournoi tranche tout litige (R12.4)"),
    ("stages", (), "con sus desempates (R12.3)", "avec ses départages (R12.3)"),
    ("tournament-edit", (), "Configuración de Copa", "Configuration de Copa"),
    ("audit", (), "Registro de auditoría", "Journal d'audit"),
]  # fmt: skip


@pytest.mark.parametrize(("name", "args", "spanish", "french"), AREAS, ids=[a[0] for a in AREAS])
def test_each_directors_page_follows_the_browser(
    copa: Tournament, alice: AbstractBaseUser, name: str, args: tuple, spanish: str, french: str
) -> None:
    es = page(speaking("es-ES,es;q=0.9", alice), name, "copa", *args)
    assert spanish in es
    fr = page(speaking("fr", alice), name, "copa", *args)
    assert french in fr


def test_the_rule_check_keeps_its_rules_in_both_languages(
    copa: Tournament, alice: AbstractBaseUser
) -> None:
    es = page(speaking("es", alice), "rule-check")
    assert '¿Es un trío o un cuarteto válido? <span class="muted">(R3)</span>' in es
    fr = page(speaking("fr", alice), "rule-check")
    assert 'Vérifier et compter une partie <span class="muted">(R8 à R10)</span>' in fr


def test_the_staff_sign_in_speaks_spanish() -> None:
    signin = Client(HTTP_ACCEPT_LANGUAGE="es").get(reverse("login")).content.decode()
    assert "Acceso del personal" in signin and "Contraseña" in signin


def test_the_status_words_of_entries_and_rounds_are_translated(
    copa: Tournament, alice: AbstractBaseUser
) -> None:
    players = page(speaking("fr", alice), "players", "copa")
    assert "Pointés 10" in players and "Annuler le pointage" in players
    hub = page(speaking("es", alice), "hub", "copa")
    assert "En curso" in hub and "Publicada" in hub  # running; round 1 published


def test_a_services_refusal_reads_in_spanish_and_keeps_its_rule(
    copa: Tournament, alice: AbstractBaseUser
) -> None:
    browser = speaking("es", alice)
    url = reverse("director:tournament-status", args=["copa"])
    refused = browser.post(url, {"to": "finished", "confirm": "on"}, follow=True)
    text = refused.content.decode()
    assert "Sin terminar: la ronda 1 está publicada." in text
    assert "para que sus puntos sean definitivos (R12.4)" in text


def test_a_seating_refusal_reads_in_french_through_the_translate_hook(copa: Tournament) -> None:
    draft = tournament_with(1, name="Petit", slug="petit")
    browser = speaking("fr", director_of(draft))
    browser.post(reverse("director:round-add", args=["petit"]))
    seated = browser.post(reverse("director:round-seat", args=["petit", 1]), {}, follow=True)
    text = seated.content.decode()
    assert "Le placement demande au moins 3 joueurs pointés ; 1 est pointé." in text
    assert "(R12.1)" in text


def test_a_flash_after_a_change_is_in_the_directors_language(
    copa: Tournament, alice: AbstractBaseUser
) -> None:
    ann = copa.entries.filter(status=Entry.Status.CHECKED_IN).first()
    browser = speaking("fr", alice)
    url = reverse("director:entry-action", args=["copa", ann.pk, "undo-check-in"])
    done = browser.post(url, {"next": reverse("director:players", args=["copa"])}, follow=True)
    assert "est de nouveau inscrit, non pointé." in done.content.decode()


def test_dates_follow_the_language(copa: Tournament, alice: AbstractBaseUser) -> None:
    with translation.override("es"):
        spanish = date_format(copa.starts_on, "DATE_FORMAT")
    assert " de " in spanish  # "18 de abril de 2026"
    assert spanish in page(speaking("es", alice), "home")


def test_a_spanish_page_costs_no_more_queries_than_an_english_one(
    copa: Tournament, alice: AbstractBaseUser
) -> None:
    url = reverse("director:dashboard", args=["copa", 1])
    spanish, english = speaking("es", alice), speaking("en", alice)
    spanish.get(url), english.get(url)  # warm: sessions, the standings' cache
    assert count_queries(lambda: spanish.get(url)) == count_queries(lambda: english.get(url))


@pytest.mark.parametrize("language", ["es", "fr"])
def test_the_set_up_pages_script_has_its_words_in_the_javascript_catalogue(language: str) -> None:
    catalogue = Path(settings.BASE_DIR) / "locale" / language / "LC_MESSAGES" / "djangojs.po"
    text = catalogue.read_text(encoding="utf-8")
    assert "#, fuzzy" not in text and 'msgid "Add a row"' in text
    script = (Path(settings.BASE_DIR) / "static" / "js" / "ruleset-rows.js").read_text()
    assert 'gettext("Add a row")' in script
    assert re.search(r'(textContent = |aria-label", )"[A-Za-z]', script) is None


def test_the_javascript_catalogue_speaks_the_pages_language() -> None:
    spanish = Client(HTTP_ACCEPT_LANGUAGE="es").get(reverse("javascript-catalog"))
    assert "A\\u00f1adir una fila" in spanish.content.decode() or "Añadir una fila" in (
        spanish.content.decode()
    )


def test_the_set_up_page_loads_the_catalogue_before_its_script(alice: AbstractBaseUser) -> None:
    edit = page(speaking("es", alice), "tournament-edit", "copa")
    assert edit.index("/jsi18n/") < edit.index("ruleset-rows.js")
