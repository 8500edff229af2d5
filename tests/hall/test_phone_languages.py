"""The players' pages speak Spanish and French: the language follows the browser,
a switch changes it, and the rules' citations stay as they are (R12.4, HF1.2).

Every word of the players' pages is translatable: a test reads their templates and fails on
text outside a translate tag (the "untranslated string" check), and every message is translated
in both catalogues.
"""

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.scoring.playing import director_of, entry, tournament_with
from tournament import check_in
from tournament.models import Entry, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english_afterwards() -> object:
    """A request in Spanish leaves Spanish active in the thread: the next test starts in English."""
    yield
    translation.activate(settings.LANGUAGE_CODE)


PLAYER_TEMPLATES = [
    "hall/check_in.html",
    "hall/check_in_confirm.html",
    "hall/check_in_wait.html",
    "hall/my_page.html",
    "hall/_my_live.html",
    "_language_switch.html",
    "_display_switch.html",
]
TRANSLATED = re.compile(
    r"{%\s*blocktranslate.*?{%\s*endblocktranslate\s*%}|{%\s*translate\s.*?%}", re.S
)
# Not words a person reads: the page's classes, and the QR code's markup.
NOT_SHOWN = re.compile(r"{%\s*block body_class\s*%}.*?{%\s*endblock\s*%}", re.S)
TEMPLATE_BITS = re.compile(r"{{.*?}}|{%.*?%}|{#.*?#}", re.S)
WORDS_SHOWN = re.compile(r'(?:aria-label|title|alt|placeholder)="([^"]*)"')


def words_left(source: str) -> list[str]:
    """The text a template shows that no translate tag holds: words between tags, and in the
    attributes a person reads (aria-label, title, alt, placeholder)."""
    source = TRANSLATED.sub(" ", NOT_SHOWN.sub(" ", source))
    attributes = [TEMPLATE_BITS.sub(" ", value) for value in WORDS_SHOWN.findall(source)]
    text = re.sub(r"<[^>]*>", " ", TEMPLATE_BITS.sub(" ", source))
    return [bit for bit in [*text.split(), *attributes] if re.search(r"[A-Za-z]{2,}", bit)]


@pytest.mark.parametrize("name", PLAYER_TEMPLATES)
def test_the_players_templates_hold_no_untranslated_words(name: str) -> None:
    source = (Path(settings.BASE_DIR) / "templates" / name).read_text(encoding="utf-8")
    assert words_left(source) == []


def test_the_check_finds_an_untranslated_word() -> None:
    assert words_left('<p>{% translate "Seat" %} Table</p><a aria-label="Names">x</a>') == [
        "Table",
        "Names",
    ]


@pytest.mark.parametrize("language", ["es", "fr"])
def test_every_message_is_translated(language: str) -> None:
    catalogue = Path(settings.BASE_DIR) / "locale" / language / "LC_MESSAGES" / "django.po"
    text = catalogue.read_text(encoding="utf-8")
    assert "#, fuzzy" not in text
    entries = text.split("\n\n")[1:]
    empty = [entry for entry in entries if re.search(r'msgstr(\[\d\])? ""\n?$', entry.strip())]
    assert empty == []


@pytest.fixture
def cup() -> Tournament:
    cup = tournament_with(3, name="Copa", slug="copa", is_published=True)
    cup.entries.update(status=Entry.Status.REGISTERED)
    cup.entries.filter(player__name="Cy").update(status=Entry.Status.DISQUALIFIED)
    return check_in.check_in_window_open(tournament=cup, by=director_of(cup))


def test_the_language_follows_the_browser(cup: Tournament) -> None:
    page = Client(HTTP_ACCEPT_LANGUAGE="es-ES,es;q=0.9").get(
        reverse("public:check-in", args=["copa"])
    )
    text = page.content.decode()
    assert '<html lang="es">' in text and "Busque su nombre y tóquelo" in text
    french = Client(HTTP_ACCEPT_LANGUAGE="fr").get(reverse("public:check-in", args=["copa"]))
    assert "Trouvez votre nom et touchez-le" in french.content.decode()


def test_a_refusal_is_translated_and_keeps_its_rule(cup: Tournament) -> None:
    url = reverse("public:check-in-entry", args=["copa", entry(cup, "Cy").pk])
    refused = Client(HTTP_ACCEPT_LANGUAGE="fr").post(url)
    assert "Cy est disqualifié par décision du directeur (R12.4)" in refused.content.decode()


def test_the_switch_changes_the_language_and_keeps_it(cup: Tournament) -> None:
    phone = Client(HTTP_ACCEPT_LANGUAGE="en")
    page = reverse("public:check-in", args=["copa"])
    switched = phone.post(reverse("set_language"), {"language": "es", "next": page})
    assert switched.status_code == 302 and switched["Location"] == page
    assert "Busque su nombre" in phone.get(page).content.decode()
    ann = entry(cup, "Ann")
    phone.post(reverse("public:check-in-entry", args=["copa", ann.pk]))
    mine = phone.get(reverse("public:my-page", args=[check_in.my_page_token(ann.pk)]))
    assert "Su asiento aparecerá aquí" in mine.content.decode()
