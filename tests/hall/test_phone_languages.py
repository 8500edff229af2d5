"""The site speaks Spanish and French: the language follows the browser, a switch
changes it, and the rules' citations stay as they are (R12.4, HF1.2).

Every word a person reads is translatable: a test reads EVERY template under templates/ and
every script under static/js/ and fails on text outside a translate tag or a gettext() call (the
"untranslated string" check), and every message is translated in both catalogues, the
templates' (django.po) and the scripts' (djangojs.po).
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


TEMPLATES = Path(settings.BASE_DIR) / "templates"
SCRIPTS = Path(settings.BASE_DIR) / "static" / "js"
TRANSLATED = re.compile(
    r"{%\s*blocktranslate.*?{%\s*endblocktranslate\s*%}|{%\s*translate\s.*?%}", re.S
)
# Not words a person reads: the page's classes, and comments.
NOT_SHOWN = re.compile(
    r"{%\s*block body_class\s*%}.*?{%\s*endblock\s*%}|{%\s*comment\s*%}.*?{%\s*endcomment\s*%}",
    re.S,
)
TEMPLATE_BITS = re.compile(r"{{.*?}}|{%.*?%}|{#.*?#}", re.S)
WORDS_SHOWN = re.compile(r'(?:aria-label|title|alt|placeholder)="([^"]*)"')
LITERAL = r"\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*'"
# A tag's literals that are no words: the file a tag names (url, include, extends, static, load),
# a date's or a number's format.
TAG_NAMES_A_FILE = re.compile(
    r"({%\s*(?:url|include|extends|static|load|block|now)\s+)(?:" + LITERAL + ")"
)
FORMAT = re.compile(r"\|\s*(?:date|time|stringformat|floatformat)\s*:\s*(?:" + LITERAL + ")")
# `{{ "Ann Clarke,Half Way Tree,Aces" }}`: a literal shown as it is, the way a template says
# "sample data, not words" (a CSV file's lines).
DATA = re.compile(r"^{{\s*(?:" + LITERAL + r")\s*}}$")
# Words: two words with a space between them, or a capitalised word ("Time left", "Remove").
WORDS = re.compile(r"[A-Za-z]{2,}[,.:;!?]?\s+[A-Za-z]{2,}|^[A-Z][a-z]+")


def words_left(source: str) -> list[str]:
    """The text a template shows that no translate tag holds: words between tags, in the
    attributes a person reads (aria-label, title, alt, placeholder), and in a tag's literals
    (`{% include "x.html" with label="Time left" %}`, `|default:"None yet"`)."""
    source = TRANSLATED.sub(" ", NOT_SHOWN.sub(" ", source))
    attributes = [TEMPLATE_BITS.sub(" ", value) for value in WORDS_SHOWN.findall(source)]
    in_tags = [literal for bit in TEMPLATE_BITS.findall(source) for literal in _said(bit)]
    text = re.sub(r"<[^>]*>", " ", TEMPLATE_BITS.sub(" ", source))
    words = [bit for bit in [*text.split(), *attributes] if re.search(r"[A-Za-z]{2,}", bit)]
    return words + in_tags


def _said(tag: str) -> list[str]:
    if tag.startswith("{#") or DATA.match(tag):
        return []
    tag = FORMAT.sub(" ", TAG_NAMES_A_FILE.sub(r"\1", tag))
    return [text for text in (lit[1:-1] for lit in re.findall(LITERAL, tag)) if WORDS.search(text)]


# The scripts: a string a person reads is an argument of gettext(), ngettext(), pgettext() or
# interpolate(); selectors (querySelector's argument) and comments are not read.
JS_COMMENTS = re.compile(r"/\*.*?\*/|(?<![:\\\"'])//[^\n]*", re.S)
JS_LITERAL = LITERAL + r"|`(?:[^`\\]|\\.)*`"
JS_TRANSLATED = re.compile(
    r"\b(?:n?p?gettext|interpolate)\(\s*(?:"
    + JS_LITERAL
    + r")(?:\s*[,+]\s*(?:"
    + JS_LITERAL
    + "))*"
)
JS_SELECTOR = re.compile(r"\b(?:querySelector(?:All)?|closest|matches)\(\s*(?:" + JS_LITERAL + ")")
HTTP_HEADER = re.compile(r"^[A-Z][A-Za-z]*(?:-[A-Z][A-Za-z]*)+$")  # If-None-Match, X-Updated
MIME_TYPE = re.compile(r"^[a-z]+/[\w.+-]+(?:;.*)?$")  # text/html; charset=utf-8
# Literals that look like words and are not read, each with its reason.
JS_NOT_READ = {
    "use strict": "a directive to the browser",
    "ETag": "an HTTP header's name",
    "Enter": "a key's name (KeyboardEvent.key)",
    "Escape": "a key's name (KeyboardEvent.key)",
    "Table ": "the table link's Authorization scheme (entry API)",
    "held small": "an element's classes (table-entry.js's element())",
    "op times": "an element's classes (table-entry.js's element())",
    "secondary out-key": "a button's classes (table-entry.js's button())",
    "secondary next-key": "a button's classes (table-entry.js's button())",
}


def js_words_left(source: str) -> list[str]:
    """The strings of a script a person would read that no gettext() call holds."""
    source = JS_SELECTOR.sub(" ", JS_TRANSLATED.sub(" ", JS_COMMENTS.sub(" ", source)))
    strings = [literal[1:-1] for literal in re.findall(JS_LITERAL, source)]
    return [
        text
        for text in strings
        if WORDS.search(text)
        and text not in JS_NOT_READ
        and not HTTP_HEADER.match(text)
        and not MIME_TYPE.match(text)
    ]


def _names(folder: Path, pattern: str) -> list[str]:
    return sorted(str(path.relative_to(folder)) for path in folder.rglob(pattern))


@pytest.mark.parametrize("name", _names(TEMPLATES, "*.html"))
def test_every_template_holds_no_untranslated_words(name: str) -> None:
    assert words_left((TEMPLATES / name).read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("name", _names(SCRIPTS, "*.js"))
def test_every_script_holds_no_untranslated_words(name: str) -> None:
    assert js_words_left((SCRIPTS / name).read_text(encoding="utf-8")) == []


def test_the_check_finds_an_untranslated_word() -> None:
    assert words_left('<p>{% translate "Seat" %} Table</p><a aria-label="Names">x</a>') == [
        "Table",
        "Names",
    ]


def test_the_check_finds_words_in_a_tag_and_not_a_file_name_or_a_format() -> None:
    source = (
        '{% include "hall/_clock.html" with label="Time left" %}{{ at|date:"j M Y" }}'
        '{% translate "Time left" as label %}{% if here == "home" %}{{ x|default:"None yet" }}'
    )
    assert words_left(source) == ["Time left", "None yet"]


def test_the_script_check_finds_a_string_outside_gettext() -> None:
    source = """
    /* "Not read": a comment */
    button.textContent = "Remove";
    label.textContent = interpolate(gettext("Page %(page)s of %(pages)s"), {page: 1}, true);
    document.querySelector("thead th:last-child");
    headers = { "If-None-Match": etag, "X-Requested-With": "fetch" };
    note.textContent = "the server answered " + status;
    """
    assert js_words_left(source) == ["Remove", "the server answered "]


@pytest.mark.parametrize("domain", ["django", "djangojs"])
@pytest.mark.parametrize("language", ["es", "fr"])
def test_every_message_is_translated(language: str, domain: str) -> None:
    catalogue = Path(settings.BASE_DIR) / "locale" / language / "LC_MESSAGES" / f"{domain}.po"
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
