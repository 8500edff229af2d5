"""The scorekeeper's table page speaks Spanish and French (issue 34): its templates, its scripts'
words (Django's JavaScript catalogue, `/jsi18n/`), its messages and its service worker, the
rules' citations unchanged (R4.3, R12.4, R8.3). English stays as it was, and loads no catalogue:
the table page's first load is weighed (bench/bench_phone_bytes.py)."""

import re
import subprocess
from pathlib import Path
from shutil import which

import pytest
from django.conf import settings
from django.test import Client
from django.utils import translation
from rest_framework.test import APIClient

from config.i18n import catalog_url, catalog_version
from config.static_storage import trimmed
from entry.templatetags.table_words import deal_title, noun
from tables.models import Table
from tests.hall.test_phone_languages import words_left
from tests.scoring.playing import play, published_round, tournament_with
from tournament.models import Round

pytestmark = pytest.mark.django_db

TABLE_TEMPLATES = [
    "entry/link.html",
    "entry/correct.html",
    "entry/_entry_form.html",
    "entry/_live.html",
    "entry/_signed_off.html",
    "scoring/_clock.html",
    "scoring/_game.html",
    "scoring/_history.html",
    "scoring/_result_form.html",
    "scoring/_time_call.html",
]
SCRIPTS = ["table-entry.js", "clock.js", "table-sw.js"]
COMMENT_BLOCK = re.compile(r"{%\s*comment\s*%}.*?{%\s*endcomment\s*%}", re.S)
# A literal a person reads: a capitalised word and another, or a sentence's end, in quotes.
SENTENCE = re.compile(r'"(?=[^"]*[A-Za-z]{2,}[ .:!?])(?=[^"]*[A-Z])[^"]{6,}"')
CALLS = re.compile(r"(?:gettext|ngettext|interpolate)\(\s*\"")


@pytest.fixture(autouse=True)
def _english_afterwards() -> object:
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture
def table() -> Table:
    [table] = published_round(tournament_with(5, name="Copa de Primavera")).tables.all()
    return table


def page(table: Table, language: str) -> str:
    response = Client(HTTP_ACCEPT_LANGUAGE=language).get(f"/t/{table.access_token}/")
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize("name", TABLE_TEMPLATES)
def test_the_table_templates_hold_no_untranslated_words(name: str) -> None:
    source = (Path(settings.BASE_DIR) / "templates" / name).read_text(encoding="utf-8")
    assert words_left(COMMENT_BLOCK.sub(" ", source)) == []


@pytest.mark.parametrize("name", SCRIPTS)
def test_every_sentence_of_the_table_scripts_goes_through_the_catalogue(name: str) -> None:
    source = (Path(settings.BASE_DIR) / "static" / "js" / name).read_text(encoding="utf-8")
    code = re.sub(r"/\*.*?\*/", " ", source, flags=re.S)
    lines = [line for line in code.splitlines() if not line.strip().startswith("//")]
    left = [
        text
        for line in lines
        for text in SENTENCE.findall(line)
        if not CALLS.search(line[: line.index(text) + 1])
    ]
    # A line continuing a gettext("..." + "...") call starts with its quote.
    assert [text for text in left if not re.match(r"^\s*\"", text)] == [], left


@pytest.mark.parametrize("language", ["es", "fr"])
@pytest.mark.parametrize("domain", ["django", "djangojs"])
def test_every_message_of_both_catalogues_is_translated(language: str, domain: str) -> None:
    catalogue = Path(settings.BASE_DIR) / "locale" / language / "LC_MESSAGES" / f"{domain}.po"
    text = catalogue.read_text(encoding="utf-8")
    assert "#, fuzzy" not in text
    entries = [entry for entry in text.split("\n\n")[1:] if not entry.startswith("#~")]
    empty = [entry for entry in entries if re.search(r'msgstr(\[\d\])? ""\n?$', entry.strip())]
    assert empty == []


def test_the_table_page_speaks_spanish_and_keeps_the_rules(table: Table) -> None:
    html = page(table, "es-ES,es;q=0.9")
    assert '<html lang="es">' in html
    for words in (
        "Mesa 1",
        "Ronda 1",
        "Ahora: partida 1 de 9",
        "Guardar partida 1",
        "Resultados hasta ahora",
        "Llamar al director",
        "Los asientos se numeran en el sentido de las agujas del reloj.",
        "un asiento por partida (R4.3)",
        "Aún no se ha anotado ninguna partida en esta mesa.",
    ):
        assert words in html, words
    assert "Save game 1" not in html and "Results so far" not in html


def test_the_table_page_speaks_french_and_keeps_the_rules(table: Table) -> None:
    play(table, 1)
    html = page(table, "fr")
    for words in (
        "Table 1 · Ronde 1",
        "Maintenant : partie 2 sur 9",
        "Enregistrer partie 2",
        "Appeler le directeur",
        "un siège par partie (R4.3)",
        "Partie par partie",
        "Corriger partie 1",
    ):
        assert words in html, words


def test_the_switch_on_the_table_page_changes_its_language(table: Table) -> None:
    phone = Client(HTTP_ACCEPT_LANGUAGE="en")
    link = f"/t/{table.access_token}/"
    assert 'action="/i18n/setlang/"' in phone.get(link).content.decode()
    switched = phone.post("/i18n/setlang/", {"language": "fr", "next": link})
    assert switched.status_code == 302 and switched["Location"] == link
    assert "Appeler le directeur" in phone.get(link).content.decode()


def test_a_locked_round_says_so_in_spanish_with_its_rule(table: Table) -> None:
    play(table, 1)
    Round.objects.filter(pk=table.round_id).update(status=Round.Status.LOCKED)
    html = page(table, "es")
    assert "solo una decisión del director puede cambiarlas (R12.4)." in html


def test_a_refused_save_is_told_in_spanish(table: Table) -> None:
    """The page's own words round a refusal: the game's reasons (games/, translated on their
    own) keep their citations."""
    phone = Client(HTTP_ACCEPT_LANGUAGE="es")
    confirm = phone.post(f"/t/{table.access_token}/games/1/confirm", {"version": "1"})
    assert confirm.status_code == 302
    shown = phone.get(confirm["Location"]).content.decode()
    assert "Partida 1 no está confirmada: elija primero su nombre." in shown


def test_english_loads_no_catalogue_and_other_languages_load_theirs(table: Table) -> None:
    english = Client(HTTP_ACCEPT_LANGUAGE="en").get(f"/t/{table.access_token}/")
    assert "/jsi18n/" not in english.content.decode() and "/jsi18n/" not in english["Link"]
    spanish = Client(HTTP_ACCEPT_LANGUAGE="es").get(f"/t/{table.access_token}/")
    url = f"/jsi18n/?l=es&amp;v={catalog_version('es')}"
    html = spanish.content.decode()
    assert f'<script src="{url}" defer>' in html
    assert html.index(url) < html.index("table-entry.js")  # the words before the script
    assert spanish["Link"].startswith(f"</jsi18n/?l=es&v={catalog_version('es')}>; rel=preload")


@pytest.mark.parametrize(
    ("language", "words"),
    [("es", "Guardar %(title)s"), ("fr", "Enregistrer %(title)s")],
)
def test_the_catalogue_serves_each_language_cached_for_a_year(language: str, words: str) -> None:
    url = catalog_url(language)
    response = Client().get(url, headers={"Accept-Encoding": "identity"})
    assert response.status_code == 200
    body = response.content.decode()
    assert words in body and "%(title)s is saved." in body
    assert "Available %s" not in body  # the admin's catalogue is not sent to the phones
    assert (
        "immutable" in response["Cache-Control"] and "max-age=31536000" in response["Cache-Control"]
    )
    again = Client().get(url, headers={"If-None-Match": response["ETag"]})
    assert again.status_code == 304


def test_an_old_version_of_the_catalogue_is_revalidated(table: Table) -> None:
    response = Client().get("/jsi18n/?l=fr&v=old")
    assert response.status_code == 200 and "no-cache" in response["Cache-Control"]
    assert "Enregistrer %(title)s" in response.content.decode()


def test_the_service_worker_keeps_the_catalogue_and_says_offline_in_spanish() -> None:
    worker = Client().get("/t/sw.js?l=es").content.decode()  # the language its address names
    assert f'"/jsi18n/?l=es&v={catalog_version("es")}"' in worker
    assert "Sin conexión" in worker and "__OFFLINE__" not in worker
    english = Client(HTTP_ACCEPT_LANGUAGE="en").get("/t/sw.js").content.decode()
    assert '"/jsi18n/' not in english and "never opened on this phone" in english


def test_the_page_registers_the_worker_of_its_language(table: Table) -> None:
    spanish = page(table, "es")
    assert '"worker": "/t/sw.js?l=es"' in spanish
    assert '"worker": "/t/sw.js"' in page(table, "en")


def test_the_manifest_names_the_table_in_french(table: Table) -> None:
    manifest = Client(HTTP_ACCEPT_LANGUAGE="fr").get(
        f"/t/{table.access_token}/manifest.webmanifest"
    )
    assert manifest.json()["description"] == (
        "Saisissez les résultats de cette table, même sans réseau."
    )


def test_a_trimmed_script_keeps_its_code_and_loses_its_comments() -> None:
    source = (
        '/* what it does */\n(function () {\n  // why\n  var url = "http://x/*y*/";\n'
        "  f(); /* kept: after code */\n}());\n"
    )
    assert trimmed(source) == (
        '(function () {\nvar url = "http://x/*y*/";\nf(); /* kept: after code */\n}());\n'
    )


@pytest.mark.skipif(not which("node"), reason="needs node to parse the trimmed scripts")
@pytest.mark.parametrize("name", ["table-entry.js", "clock.js", "live.js", "display.js"])
def test_the_trimmed_scripts_still_parse(name: str, tmp_path: Path) -> None:
    source = (Path(settings.BASE_DIR) / "static" / "js" / name).read_text(encoding="utf-8")
    (tmp_path / name).write_text(trimmed(source), encoding="utf-8")
    assert len(trimmed(source)) < 0.9 * len(source)
    subprocess.run(["node", "--check", str(tmp_path / name)], check=True)


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("es", ["Mano 2", "Partida 3", "Mano 4", "manos", "serie"]),
        ("fr", ["Main 2", "Partie 3", "Donne 4", "donnes", "série"]),
    ],
)
def test_the_games_nouns_in_each_language(language: str, words: list[str]) -> None:
    with translation.override(language):
        found = [deal_title("Hand 2"), deal_title("Game 3"), deal_title("Deal 4")]
        assert [*found, noun("deals"), noun("set")] == words
        assert deal_title("Round 2") == "Round 2" and noun("contract") == "contract"


def test_the_table_api_refuses_in_the_phones_language_and_keeps_its_rule(table: Table) -> None:
    """An API client that asks for no language is answered in English, as before."""
    hands = [{"seat": 1, "went_out": True, "cards": ""}] + [
        {"seat": seat, "points": 10 + seat} for seat in range(2, 5)
    ]
    hands.append({"entry": 999_999, "points": 3})
    address = f"/api/tables/{table.pk}/games/1/result"
    answers = {}
    for language in ("es", "fr", None):
        phone = APIClient(**({"HTTP_ACCEPT_LANGUAGE": language} if language else {}))
        phone.credentials(HTTP_AUTHORIZATION=f"Table {table.access_token}")
        answer = phone.put(address, {"hands": hands, "entered_by": "Ann"}, format="json")
        assert answer.status_code == 400, answer.content
        answers[language] = answer.json()["errors"][0]["message"]
    assert answers["es"] == f"La inscripción 999999 no tiene asiento en {table} (R12.1)."
    assert answers["fr"] == f"L'inscription 999999 n'a pas de siège à {table} (R12.1)."
    assert answers[None] == f"Entry 999999 is not seated at {table} (R12.1)."
