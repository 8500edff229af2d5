"""Printed table cards and paper score sheets of a round (R4, R4.3), for its director only."""

import re

import pytest
from django.conf import settings as django_settings
from django.test import Client

from director.print_views import qr_svg
from tables.selectors import deal_lines, dealer_index, round_print_get, schedule_numbers, seat_lines
from tests.factories import (
    RoundFactory,
    SeatFactory,
    StaffRoleFactory,
    TableFactory,
    TournamentFactory,
    UserFactory,
)
from tournament.models import Round, StaffRole

pytestmark = pytest.mark.django_db

CARDS = "/director/spring-open/rounds/1/print/cards"
SHEETS = "/director/spring-open/rounds/1/print/sheets"


def _seat_table(round: Round, number: int, names: list[str], first_dealer: int) -> None:
    table = TableFactory(round=round, number=number)
    for index, name in enumerate(names):
        SeatFactory(
            table=table,
            position=index + 1,
            is_first_dealer=index == first_dealer,
            entry__player__name=name,
            entry__player__club=f"{name}'s club",
        )


@pytest.fixture
def spring_open() -> Round:
    """Alice directs the Spring Open. Round 1 has table 1 (five players, Cleo deals first) and
    table 2 (four players, Hugo deals first)."""
    tournament = TournamentFactory(name="Spring Open", slug="spring-open")
    StaffRoleFactory(tournament=tournament, user__username="alice")
    round = RoundFactory(tournament=tournament, number=1, status=Round.Status.PUBLISHED)
    _seat_table(round, 1, ["Ann", "Ben", "Cleo", "Dev", "Eve"], first_dealer=2)
    _seat_table(round, 2, ["Fay", "Gus", "Hugo", "Ivy"], first_dealer=2)
    return round


@pytest.fixture
def alice(spring_open: Round) -> Client:
    client = Client()
    client.force_login(UserFactory(username="alice"))
    return client


def _card(page: str, number: int) -> str:
    """The printed page of one table."""
    match = re.search(rf'<article[^>]*data-table="{number}".*?</article>', page, re.S)
    assert match, f"no page for table {number}"
    return match.group(0)


def _link(round: Round, number: int) -> str:
    """The printed link: without `SITE_URL`, on the address the director's browser is using
    (the test client's)."""
    token = round.tables.get(number=number).access_token
    return f"http://testserver/t/{token}/"


# --- table cards --------------------------------------------------------------------------------


def test_a_card_per_table_with_tournament_round_and_seats(alice, spring_open) -> None:
    page = alice.get(CARDS).content.decode()
    assert page.count('class="print-page table-card"') == 2
    first = _card(page, 1)
    assert "Spring Open" in first and "Round 1" in first
    assert re.search(r'class="number">1<', first)
    for name in ["Ann", "Ben", "Cleo", "Dev", "Eve"]:
        assert name in first and f"{name}&#x27;s club" in first
    assert "Fay" not in first and "Fay" in _card(page, 2)


def test_the_card_marks_the_first_dealer_r4_3(alice, spring_open) -> None:
    first = _card(alice.get(CARDS).content.decode(), 1)
    marked = re.findall(r'<tr class="first-dealer">.*?class="name">(\w+)<', first, re.S)
    assert marked == ["Cleo"]
    assert first.count("Deals game 1") == 1 and "Cleo deals first" in first


def test_the_qr_code_holds_the_tables_private_link(alice, spring_open) -> None:
    page = alice.get(CARDS).content.decode()
    for number in (1, 2):
        card, link = _card(page, number), _link(spring_open, number)
        assert f'<p class="link">{link}</p>' in card
        assert "<svg" in card and qr_svg(link) in card  # the QR code of exactly that link
    assert _link(spring_open, 2) not in _card(page, 1)


def test_each_table_prints_on_its_own_page(alice, spring_open) -> None:
    page = alice.get(CARDS).content.decode()
    assert "css/print.css" in page
    css = (django_settings.BASE_DIR / "static/css/print.css").read_text()
    assert "@page { size: auto; margin: 12mm; }" in css
    assert re.search(r"\.print-page \{[^}]*break-after: page", css)


def test_table_query_prints_one_table_only(alice, spring_open) -> None:
    page = alice.get(CARDS, {"table": 2}).content.decode()
    assert page.count('class="print-page table-card"') == 1 and 'data-table="2"' in page


def test_a_table_the_round_does_not_have_is_not_found(alice, spring_open) -> None:
    response = alice.get(SHEETS, {"table": 7})
    assert response.status_code == 404
    assert "Round 1 has no table 7." in response.content.decode()
    assert alice.get(CARDS, {"table": "x"}).status_code == 404


def test_a_round_without_tables_is_refused_with_a_reason(alice, spring_open) -> None:
    RoundFactory(tournament=spring_open.tournament, number=2)
    for kind in ("cards", "sheets"):
        response = alice.get(f"/director/spring-open/rounds/2/print/{kind}")
        assert response.status_code == 409
        assert "Round 2 has no tables yet" in response.content.decode()
        assert "Seat the round first" in response.content.decode()


def test_an_unknown_round_is_not_found(alice, spring_open) -> None:
    assert alice.get("/director/spring-open/rounds/9/print/cards").status_code == 404


def test_a_draft_round_warns_that_links_change_on_reseating(alice, spring_open) -> None:
    assert "still a draft" not in alice.get(CARDS).content.decode()
    Round.objects.filter(pk=spring_open.pk).update(status=Round.Status.DRAFT)
    assert "still a draft" in alice.get(CARDS).content.decode()


# --- score sheets ---------------------------------------------------------------------------


def _sheet_rows(page: str, number: int) -> list[tuple[int, int, str, int]]:
    """(game, cards dealt, contract, dealer's seat) for each row of table `number`'s sheet."""
    rows = re.findall(
        r'data-game="(\d+)" data-dealer="(\d+)">\s*<th class="game">\d+</th>\s*'
        r'<td class="dealt">(\d+)</td>\s*<td class="contract">([^<]+)</td>',
        _card(page, number),
    )
    return [
        (int(game), int(dealt), contract, int(dealer)) for game, dealer, dealt, contract in rows
    ]


def test_a_sheet_has_the_nine_games_with_cards_dealt_and_contract_r4(alice, spring_open) -> None:
    rows = _sheet_rows(alice.get(SHEETS).content.decode(), 1)
    assert [(game, dealt, contract) for game, dealt, contract, _ in rows] == [
        (1, 9, "three threes"),
        (2, 10, "two threes and one four"),
        (3, 11, "one three and two fours"),
        (4, 12, "three fours"),
        (5, 12, "four threes"),
        (6, 13, "three threes and one four"),
        (7, 14, "two threes and two fours"),
        (8, 15, "one three and three fours"),
        (9, 16, "four fours"),
    ]


def test_the_deal_passes_clockwise_one_seat_per_game_r4_3(alice, spring_open) -> None:
    page = alice.get(SHEETS).content.decode()
    # Table 1: Cleo (seat 3 of 5) deals game 1. Table 2: Hugo (seat 3 of 4).
    assert [row[3] for row in _sheet_rows(page, 1)] == [3, 4, 5, 1, 2, 3, 4, 5, 1]
    assert [row[3] for row in _sheet_rows(page, 2)] == [3, 4, 1, 2, 3, 4, 1, 2, 3]
    assert '<span class="dealer-seat">Seat 3</span> <span class="dealer-name">Cleo</span>' in (
        _card(page, 1)
    )


def test_a_sheet_has_a_column_per_player_a_total_and_signatures(alice, spring_open) -> None:
    sheet = _card(alice.get(SHEETS).content.decode(), 2)
    headers = re.findall(r'<th class="player" data-seat="(\d)">.*?</span> (\w+)</th>', sheet)
    assert headers == [("1", "Fay"), ("2", "Gus"), ("3", "Hugo"), ("4", "Ivy")]
    assert sheet.count('<td class="box') == 9 * 4 + 4  # nine games and the total row
    assert "Total" in sheet and sheet.count('class="signature"') == 4 + 2
    assert "Spring Open" in sheet and "Table 2" in sheet and "Round 1" in sheet


def test_the_sheet_follows_the_tournaments_ruleset(alice, spring_open) -> None:
    tournament = spring_open.tournament
    tournament.ruleset = tournament.ruleset | {
        "games": [{"number": 1, "dealt": 7, "contract": "34"}]
    }
    tournament.save()
    assert _sheet_rows(alice.get(SHEETS).content.decode(), 1) == [
        (1, 7, "one three and one four", 3)
    ]


# --- who may print ----------------------------------------------------------------------------


@pytest.mark.parametrize("url", [CARDS, SHEETS])
def test_anonymous_visitors_are_sent_to_sign_in(client: Client, spring_open, url) -> None:
    response = client.get(url)
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


@pytest.mark.parametrize("url", [CARDS, SHEETS])
def test_another_director_cannot_print_alices_tables(client: Client, spring_open, url) -> None:
    """Bob directs the Autumn Cup; Charlie only keeps score at the Spring Open."""
    bob = StaffRoleFactory(user__username="bob", tournament__name="Autumn Cup").user
    charlie = StaffRoleFactory(
        user__username="charlie", tournament=spring_open.tournament, role=StaffRole.Role.SCOREKEEPER
    ).user
    for user in (bob, charlie):
        client.force_login(user)
        assert client.get(url).status_code == 404


# --- queries --------------------------------------------------------------------------------


def _round_with_tables(tables: int, slug: str) -> None:
    tournament = TournamentFactory(slug=slug)
    StaffRoleFactory(tournament=tournament, user__username="alice")
    round = RoundFactory(tournament=tournament, number=1)
    for number in range(1, tables + 1):
        _seat_table(round, number, [f"P{number}-{i}" for i in range(5)], first_dealer=number % 5)


@pytest.mark.parametrize("kind", ["cards", "sheets"])
def test_printing_costs_the_same_queries_for_2_or_12_tables(
    alice, django_assert_num_queries, kind
) -> None:
    _round_with_tables(2, "two-tables")
    _round_with_tables(12, "twelve-tables")
    # session, user, tournament, round, tables, seats with their players
    for slug in ("two-tables", "twelve-tables"):
        with django_assert_num_queries(6):
            response = alice.get(f"/director/{slug}/rounds/1/print/{kind}")
        assert response.status_code == 200


def test_the_selector_reads_a_round_in_two_queries(spring_open, django_assert_num_queries) -> None:
    round = Round.objects.select_related("tournament").get(pk=spring_open.pk)
    with django_assert_num_queries(2):
        printing = round_print_get(round=round)
    assert [table.number for table in printing.tables] == [1, 2]
    assert printing.tables[1].first_dealer.name == "Hugo"


def test_the_dealer_of_a_game_r4_3() -> None:
    assert [dealer_index(4, game, 5) for game in range(1, 10)] == [4, 0, 1, 2, 3, 4, 0, 1, 2]


def test_games_have_no_dealer_while_no_first_dealer_is_marked(spring_open) -> None:
    table = spring_open.tables.get(number=1)
    table.seats.update(is_first_dealer=False)
    rules = spring_open.tournament.rules()
    games = deal_lines(seat_lines(table), rules, schedule_numbers(rules))
    assert len(games) == 9 and all(game.dealer is None for game in games)


# --- links that no phone can open -----------------------------------------------------------------

LOOPBACK = ["http://127.0.0.1:8000", "http://localhost:8000", "http://[::1]:8000",
            "http://127.8.0.1", "http://LOCALHOST.", "http://kalooki.localhost:8000",
            "http://0.0.0.0:8000"]  # fmt: skip
REACHABLE = ["http://192.168.1.20:8000", "https://kalooki.example", "http://10.0.0.5",
             "http://[fe80::1]:8000", "http://laptop.local:8000"]  # fmt: skip


@pytest.mark.parametrize("site", LOOPBACK)
def test_it_warns_when_the_printed_links_point_at_a_loopback_address(
    alice, spring_open, settings, site: str
) -> None:
    settings.SITE_URL, settings.SITE_URL_SET = site, True
    for page in (CARDS, SHEETS):
        html = alice.get(page).content.decode()
        warning = re.search(r'<div class="loopback-warning" role="alert">.*?</div>', html, re.S)
        assert warning, page
        assert site in warning.group(0)
        assert "make venue" in warning.group(0) and "SITE_URL" in warning.group(0)


@pytest.mark.parametrize("site", REACHABLE)
def test_no_warning_when_the_links_reach_the_hall(alice, spring_open, settings, site) -> None:
    settings.SITE_URL, settings.SITE_URL_SET = site, True
    html = alice.get(CARDS).content.decode()
    assert "loopback-warning" not in html
    assert f"{site}/t/{spring_open.tables.get(number=1).access_token}/" in html


@pytest.mark.parametrize("host", ["192.168.1.20:8300", "laptop.local:8300"])
def test_without_site_url_the_links_follow_the_address_in_use(
    alice, spring_open, settings, host
) -> None:
    settings.ALLOWED_HOSTS = [host.split(":")[0]]
    html = alice.get(CARDS, HTTP_HOST=host).content.decode()
    token = spring_open.tables.get(number=1).access_token
    assert f"http://{host}/t/{token}/" in html and "127.0.0.1:8000" not in html
    assert "loopback-warning" not in html and "site-notice" not in html


def test_a_loopback_address_in_use_is_warned_of_in_its_own_words(alice, spring_open, settings):
    settings.ALLOWED_HOSTS = ["127.0.0.1"]
    html = alice.get(CARDS, HTTP_HOST="127.0.0.1:8300").content.decode()
    warning = re.search(r'<div class="loopback-warning" role="alert">.*?</div>', html, re.S)
    assert warning and "<code>http://127.0.0.1:8300</code>, a loopback address" in warning.group(0)
    words = " ".join(warning.group(0).split())
    assert "<code>SITE_URL</code> is not set, so the links follow the address this page" in words
    assert "make venue" in words
    assert f"http://127.0.0.1:8300/t/{spring_open.tables.get(number=1).access_token}/" in html


def test_a_site_url_other_than_the_address_in_use_is_said_plainly(alice, spring_open, settings):
    settings.SITE_URL, settings.SITE_URL_SET = "http://192.168.1.20:8000", True
    settings.ALLOWED_HOSTS = ["192.168.1.20", "laptop.local"]
    html = alice.get(CARDS, HTTP_HOST="laptop.local:8300").content.decode()
    notice = re.search(r'<div class="site-notice" role="status">.*?</div>', html, re.S)
    assert notice and "loopback-warning" not in html
    words = " ".join(notice.group(0).split())
    assert "<code>SITE_URL</code>, <code>http://192.168.1.20:8000</code>" in words
    assert "not the address you are using, <code>http://laptop.local:8300</code>" in words
    same = alice.get(CARDS, HTTP_HOST="192.168.1.20:8000").content.decode()
    assert "site-notice" not in same


def test_each_print_page_has_its_heading(alice, spring_open) -> None:
    cards = alice.get(CARDS).content.decode()
    sheets = alice.get(SHEETS).content.decode()
    assert '<h1 class="print-title">Table cards · Spring Open · Round 1</h1>' in cards
    assert '<h1 class="print-title">Score sheets · Spring Open · Round 1</h1>' in sheets


def test_the_print_button_works_without_an_inline_script(alice, spring_open) -> None:
    html = alice.get(CARDS).content.decode()
    assert "onclick" not in html and "<script>" not in html
    assert '<button type="button" data-print>Print</button>' in html
    assert '<script src="/static/js/print.js" defer></script>' in html
