"""The director's pages: set-up, players, check-in, import and the audit log, without JavaScript."""

import datetime

import pytest
from django.conf import settings as django_settings
from django.contrib.auth.models import Permission
from django.contrib.messages import get_messages
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from tests.factories import EntryFactory, RoundFactory
from tests.tournament.conftest import count_queries
from tournament.models import Entry, Round, StaffRole, Tournament
from tournament.services import audit_record

pytestmark = pytest.mark.django_db
Status = Entry.Status


def as_user(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def text(response) -> str:
    return response.content.decode()


def flashed(response) -> list[str]:
    return [str(message) for message in get_messages(response.wsgi_request)]


@pytest.fixture
def ann(spring) -> Entry:
    return EntryFactory(
        tournament=spring,
        status=Status.REGISTERED,
        player__name="Ann Clarke",
        player__club="Half Way Tree",
    )


PAGES = [
    "/director/spring-open/",
    "/director/spring-open/edit",
    "/director/spring-open/players",
    "/director/spring-open/players/import",
    "/director/spring-open/players/check-in-all",
    "/director/spring-open/players/{ann}/withdraw",
    "/director/spring-open/players/reinstate/{ann}",
    "/director/spring-open/audit",
]


@pytest.mark.parametrize("page", PAGES)
def test_anonymous_visitors_are_sent_to_sign_in(client: Client, ann, page: str) -> None:
    response = client.get(page.format(ann=ann.pk))
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=")


@pytest.mark.parametrize("page", PAGES)
def test_another_director_and_a_scorekeeper_find_nothing(bob, kim, ann, page: str) -> None:
    for someone in (bob, kim):
        assert as_user(someone).get(page.format(ann=ann.pk)).status_code == 404


@pytest.mark.parametrize("page", PAGES)
def test_the_director_sees_every_page(dana, ann, page: str) -> None:
    assert as_user(dana).get(page.format(ann=ann.pk)).status_code == 200


def test_another_director_cannot_change_an_entry(bob, ann) -> None:
    response = as_user(bob).post(f"/director/spring-open/players/{ann.pk}/check-in")
    assert response.status_code == 404
    ann.refresh_from_db()
    assert ann.status == Status.REGISTERED


def test_an_entry_of_another_tournament_is_not_found(dana, bob) -> None:
    theirs = EntryFactory(tournament=Tournament.objects.get(slug="autumn-cup"))
    response = as_user(dana).post(f"/director/spring-open/players/{theirs.pk}/check-in")
    assert response.status_code == 404


# My tournaments and set-up


def test_my_tournaments_links_each_to_its_hub_and_offers_a_new_one(dana, bob, ann) -> None:
    page = text(as_user(dana).get("/director/"))
    assert 'href="/director/spring-open/"' in page and "Autumn Cup" not in page
    assert 'href="/director/new"' in page


def test_a_scorekeeper_is_not_offered_to_set_up_a_tournament(kim) -> None:
    assert 'href="/director/new"' not in text(as_user(kim).get("/director/"))
    response = as_user(kim).get("/director/new")
    assert response.status_code == 302
    assert "Ask an administrator" in flashed(response)[0]


def test_an_account_given_the_add_permission_may_set_up_its_first(stranger) -> None:
    stranger.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    assert as_user(stranger).get("/director/new").status_code == 200


NEW = {
    "name": "Summer Slam",
    "starts_on": "2026-07-04",
    "ends_on": "2026-07-05",
    "venue": "Ocho Rios",
    "rounds_planned": "5",
    "ruleset": "asaj-2025",
}


def test_a_director_sets_up_a_tournament_and_directs_it(dana) -> None:
    response = as_user(dana).post("/director/new", NEW | {"is_published": "on"})
    assert response.status_code == 302 and response["Location"] == "/director/summer-slam/"
    summer = Tournament.objects.get(slug="summer-slam")
    assert (summer.rounds_planned, summer.is_published, summer.venue) == (5, True, "Ocho Rios")
    assert summer.staff.filter(user=dana, role=StaffRole.Role.DIRECTOR).exists()
    assert summer.audit.get().actor == dana


def test_the_set_up_form_shows_a_refusal_on_its_field(dana) -> None:
    response = as_user(dana).post("/director/new", NEW | {"ends_on": "2026-07-01"})
    assert response.status_code == 200
    assert "cannot end (01 Jul 2026) before it starts" in text(response)
    assert not Tournament.objects.filter(name="Summer Slam").exists()


def test_the_hub_sums_the_tournament_up(dana, spring) -> None:
    for status, how_many in [(Status.REGISTERED, 2), (Status.CHECKED_IN, 3), (Status.WITHDRAWN, 1)]:
        EntryFactory.create_batch(how_many, tournament=spring, status=status)
    RoundFactory(tournament=spring, number=1)
    page = text(as_user(dana).get("/director/spring-open/"))
    for words in [
        "Saturday 18 April 2026 to Sunday 19 April 2026",
        "Half Way Tree",
        "Kalooki: ASAJ Kalooki Tournament 2025",
        "the preset asaj-2025",
        "5 players at a table (3 to 6 when the numbers need it), no byes (R1.1, R12.2).",
        "ties broken by more games won, then more down-and-outs, then the lower score in the "
        "latest round (R12.3)",
        "Round 1 is seated as a draft under these rules",
        "<dt>Registered</dt><dd>2</dd>",
        "<dt>Checked in</dt><dd>3</dd>",
        "<dt>Withdrawn</dt><dd>1</dd>",
        "<dt>Disqualified</dt><dd>0</dd>",
        'href="/director/spring-open/rounds/1/"',
        'href="/director/spring-open/rounds/1/dashboard"',
        'href="/director/spring-open/rounds/1/print/cards"',
        'href="/director/spring-open/rounds/1/print/sheets"',
        'href="/director/spring-open/rulings/"',
        'href="/director/spring-open/rounds/"',
        'href="/director/spring-open/audit"',
        "1 of 4 planned rounds seated",
    ]:
        assert words in page
    assert page.index("more games won") < page.index("more down-and-outs")


def test_a_director_edits_the_set_up(dana, spring) -> None:
    form = {**NEW, "name": "Spring Open", "venue": "Mandeville", "starts_on": "2026-04-18"}
    form["ends_on"] = "2026-04-19"
    response = as_user(dana).post("/director/spring-open/edit", form)
    assert response.status_code == 302
    spring.refresh_from_db()
    assert (spring.venue, spring.rounds_planned) == ("Mandeville", 5)
    assert set(spring.audit.get().detail["changes"]) == {"venue", "rounds_planned"}


def test_the_edit_page_starts_from_the_current_set_up(dana, spring) -> None:
    page = text(as_user(dana).get("/director/spring-open/edit"))
    assert 'value="2026-04-18"' in page and 'value="2026-04-19"' in page
    assert 'name="slug"' not in page  # the address is fixed once created


def test_once_a_round_is_published_the_edit_page_shows_the_rules_read_only(dana, spring) -> None:
    RoundFactory(tournament=spring, number=1, status=Round.Status.PUBLISHED)
    page = text(as_user(dana).get("/director/spring-open/edit"))
    assert "round 1 has been published" in page and "never change under games already" in page
    assert 'name="rules-table_size"' not in page and 'form="rules-picker"' not in page
    form = {"name": "Spring Open", "starts_on": "2026-04-18", "ends_on": "2026-04-19"}
    form |= {"venue": "Mandeville", "rounds_planned": "4", "rules": "kalooki:club-four"}
    form |= {"rules-on-page": "1", "rules-table_size": "4"}
    response = as_user(dana).post("/director/spring-open/edit", form)
    assert response.status_code == 302  # the set-up is saved; the rules are not even read
    spring.refresh_from_db()
    assert (spring.venue, spring.rules().ruleset.table_size) == ("Mandeville", 5)


# Players


def test_a_director_adds_a_player(dana, spring) -> None:
    form = {"name": "Desmond Brown", "club": "Mandeville", "email": "des@example.com"}
    response = as_user(dana).post("/director/spring-open/players", form)
    assert response.status_code == 302
    assert flashed(response) == ["Desmond Brown (Mandeville) is entered."]
    assert spring.entries.get().player.email == "des@example.com"


def test_a_duplicate_player_is_refused_on_the_form(dana, ann) -> None:
    response = as_user(dana).post(
        "/director/spring-open/players", {"name": "ann clarke", "club": "half way tree"}
    )
    assert response.status_code == 200
    assert "is already entered in this tournament (registered)" in text(response)
    assert Entry.objects.count() == 1


def test_after_round_1_the_form_offers_a_late_entry(dana, spring) -> None:
    RoundFactory(tournament=spring, number=1)
    client = as_user(dana)
    assert "Late entry" in text(client.get("/director/spring-open/players"))
    refused = client.post("/director/spring-open/players", {"name": "Desmond Brown"})
    assert "add them as a late entry" in text(refused)
    client.post("/director/spring-open/players", {"name": "Desmond Brown", "late": "on"})
    assert spring.entries.get().is_late_entry


def test_the_players_list_filters_by_status_and_searches_names(dana, spring, ann) -> None:
    EntryFactory(tournament=spring, status=Status.WITHDRAWN, player__name="Desmond Brown")
    EntryFactory(tournament=spring, status=Status.CHECKED_IN, player__name="Zoe Reid")
    client = as_user(dana)
    everyone = text(client.get("/director/spring-open/players"))
    assert all(name in everyone for name in ("Ann Clarke", "Desmond Brown", "Zoe Reid"))
    withdrawn = text(client.get("/director/spring-open/players?status=withdrawn"))
    assert "Desmond Brown" in withdrawn and "Zoe Reid" not in withdrawn
    found = text(client.get("/director/spring-open/players?q=zoe"))
    assert "Zoe Reid" in found and "Ann Clarke" not in found


@pytest.mark.parametrize(
    ("action", "before", "after", "message"),
    [
        ("check-in", Status.REGISTERED, Status.CHECKED_IN, "(Half Way Tree) is checked in."),
        ("undo-check-in", Status.CHECKED_IN, Status.REGISTERED, "is registered again"),
        ("withdraw", Status.CHECKED_IN, Status.WITHDRAWN, "(Half Way Tree) has withdrawn."),
    ],
)
def test_a_director_changes_an_entry_with_one_post(
    dana, ann, action, before, after, message
) -> None:
    Entry.objects.filter(pk=ann.pk).update(status=before)
    back = "/director/spring-open/players?status=registered"
    response = as_user(dana).post(
        f"/director/spring-open/players/{ann.pk}/{action}", {"next": back}
    )
    assert response.status_code == 302 and response["Location"] == back
    assert message in flashed(response)[0]
    ann.refresh_from_db()
    assert ann.status == after
    assert ann.tournament.audit.get().actor == dana


def test_each_change_is_confirmed_on_a_small_form_first(dana, ann) -> None:
    page = as_user(dana).get(f"/director/spring-open/players/{ann.pk}/withdraw")
    assert "Withdraw Ann Clarke (Half Way Tree)?" in text(page)
    assert "They keep the scores already played" in text(page)
    ann.refresh_from_db()
    assert ann.status == Status.REGISTERED  # a GET changes nothing


def test_a_disqualification_is_a_ruling_and_its_reason_shows(dana, ann) -> None:
    """R12.4: the player's Disqualify goes to the rulings form, filled in for them."""
    client = as_user(dana)
    form = f"/director/spring-open/rulings/?kind=disqualification&entry={ann.pk}#record"
    for method in (client.get, client.post):
        response = method(f"/director/spring-open/players/{ann.pk}/disqualify")
        assert (response.status_code, response["Location"]) == (302, form)
    ann.refresh_from_db()
    assert ann.status == Status.REGISTERED  # nothing until the ruling is recorded
    page = text(client.get(form))
    assert "Disqualification" in page and str(ann.player) in page
    ruling = {"kind": "disqualification", "entry": ann.pk, "points": 0, "decision": "Marked cards"}
    client.post("/director/spring-open/rulings/", ruling)
    ann.refresh_from_db()
    assert ann.status == Status.DISQUALIFIED
    assert "Marked cards" in text(client.get("/director/spring-open/players"))


# Reinstating: a disqualification is a ruling (R12.4), so reinstating reverses it


def disqualify_by_ruling(client: Client, ann: Entry) -> None:
    ruling = {"kind": "disqualification", "entry": ann.pk, "points": 0, "decision": "Marked cards"}
    client.post("/director/spring-open/rulings/", ruling)
    ann.refresh_from_db()
    assert ann.status == Status.DISQUALIFIED


def test_a_withdrawn_player_is_reinstated_with_one_post(dana, ann) -> None:
    Entry.objects.filter(pk=ann.pk).update(status=Status.WITHDRAWN)
    back = "/director/spring-open/players?status=withdrawn"
    response = as_user(dana).post(
        f"/director/spring-open/players/reinstate/{ann.pk}", {"next": back}
    )
    assert (response.status_code, response["Location"]) == (302, back)
    assert flashed(response) == [
        "Ann Clarke (Half Way Tree) is reinstated, as registered: check them in when they are here."
    ]
    ann.refresh_from_db()
    assert ann.status == Status.REGISTERED
    assert ann.tournament.audit.get().actor == dana
    assert not ann.tournament.rulings.exists()  # withdrawing is no ruling, nor is undoing it


def test_reinstating_a_disqualified_player_reverses_the_ruling_with_the_reason(dana, ann) -> None:
    client = as_user(dana)
    disqualify_by_ruling(client, ann)
    disqualification = ann.tournament.rulings.get()
    players = text(client.get("/director/spring-open/players"))
    assert f'href="/director/spring-open/players/reinstate/{ann.pk}?next=' in players
    page = text(client.get(f"/director/spring-open/players/reinstate/{ann.pk}"))
    assert f'#ruling-{disqualification.pk}">Ruling {disqualification.pk}</a>' in page
    assert "Why is the disqualification lifted?" in page and "Marked cards" in page
    response = client.post(
        f"/director/spring-open/players/reinstate/{ann.pk}", {"reason": "The venue's deck."}
    )
    assert response["Location"] == "/director/spring-open/players"
    assert flashed(response)[0].endswith(
        f"Their disqualification (ruling {disqualification.pk}) is reversed (R12.4)."
    )
    ann.refresh_from_db()
    reversal = disqualification.reversed_by.get()
    assert (ann.status, reversal.reason, reversal.decided_by) == (
        Status.REGISTERED,
        "The venue's deck.",
        dana,
    )
    rulings = text(client.get("/director/spring-open/rulings/"))
    assert f'Reversed by <a href="#ruling-{reversal.pk}">ruling {reversal.pk}</a>' in rulings


def test_a_disqualified_player_is_not_reinstated_without_saying_why(dana, ann) -> None:
    client = as_user(dana)
    disqualify_by_ruling(client, ann)
    response = client.post(f"/director/spring-open/players/reinstate/{ann.pk}", {"reason": " "})
    assert response.status_code == 200 and "This field is required." in text(response)
    ann.refresh_from_db()
    assert ann.status == Status.DISQUALIFIED
    assert ann.tournament.rulings.count() == 1  # the disqualification, not reversed


def test_the_players_reinstate_action_goes_to_the_reinstate_page(dana, ann) -> None:
    """Reinstating is the scoring app's page (it may reverse a ruling): the players page's old
    address leads there, keeping the list to go back to, and changes nothing itself."""
    Entry.objects.filter(pk=ann.pk).update(status=Status.WITHDRAWN)
    client = as_user(dana)
    back = "/director/spring-open/players?status=withdrawn"
    page = f"/director/spring-open/players/reinstate/{ann.pk}?next=%2Fdirector%2Fspring-open"
    page += "%2Fplayers%3Fstatus%3Dwithdrawn"
    for method in (client.get, client.post):
        response = method(f"/director/spring-open/players/{ann.pk}/reinstate", {"next": back})
        assert (response.status_code, response["Location"]) == (302, page)
    ann.refresh_from_db()
    assert ann.status == Status.WITHDRAWN


def test_an_impossible_change_is_explained_and_changes_nothing(dana, ann) -> None:
    Entry.objects.filter(pk=ann.pk).update(status=Status.WITHDRAWN)
    response = as_user(dana).post(f"/director/spring-open/players/{ann.pk}/check-in")
    assert flashed(response) == [
        "Ann Clarke has withdrawn: reinstate them first if they are back to play, then check "
        "them in."
    ]
    ann.refresh_from_db()
    assert ann.status == Status.WITHDRAWN


def test_an_unknown_action_or_an_outside_next_goes_nowhere(dana, ann) -> None:
    client = as_user(dana)
    assert client.post(f"/director/spring-open/players/{ann.pk}/promote").status_code == 404
    response = client.post(
        f"/director/spring-open/players/{ann.pk}/check-in", {"next": "https://evil.example/"}
    )
    assert response["Location"] == "/director/spring-open/players"


def test_check_in_all_registered(dana, spring, ann) -> None:
    EntryFactory(tournament=spring, status=Status.WITHDRAWN)
    client = as_user(dana)
    confirm = text(client.get("/director/spring-open/players/check-in-all"))
    assert "1 player will be checked in" in confirm and "Ann Clarke" in confirm
    response = client.post("/director/spring-open/players/check-in-all")
    assert flashed(response) == ["Checked in 1 player."]
    ann.refresh_from_db()
    assert ann.status == Status.CHECKED_IN


def test_the_players_list_runs_the_same_queries_for_5_or_50_players(dana, spring) -> None:
    client = as_user(dana)

    def queries_with(how_many: int) -> int:
        spring.entries.all().delete()
        for index in range(how_many):
            entry = EntryFactory(tournament=spring, status=Status.values[index % 4])
            if entry.status == Status.DISQUALIFIED:
                detail = {"entry_id": entry.pk, "reason": "Marked cards"}
                audit_record(
                    tournament=spring,
                    actor=dana,
                    action="entry.disqualify",
                    summary="Disqualified",
                    detail=detail,
                )
        return count_queries(lambda: client.get("/director/spring-open/players"))

    few, many = queries_with(5), queries_with(50)
    assert few == many <= 10


def test_my_tournaments_and_the_audit_log_run_the_same_queries_for_few_or_many(dana) -> None:
    client = as_user(dana)

    def queries_with(how_many: int) -> tuple[int, int]:
        for _ in range(how_many):
            create = {**NEW, "name": f"Cup {Tournament.objects.count()}"}
            client.post("/director/new", create)
            EntryFactory(tournament=Tournament.objects.latest("pk"))
        return (
            count_queries(lambda: client.get("/director/")),
            count_queries(lambda: client.get("/director/spring-open/audit")),
        )

    audit_record(
        tournament=Tournament.objects.get(slug="spring-open"),
        actor=dana,
        action="test",
        summary="One",
    )
    few = queries_with(1)
    for _ in range(20):
        audit_record(
            tournament=Tournament.objects.get(slug="spring-open"),
            actor=dana,
            action="test",
            summary="More",
        )
    assert queries_with(10) == few


# Import


GOOD = "name,club,email\nAnn Clarke,Half Way Tree,ann@example.com\nDesmond Brown,Mandeville,\n"
BAD = "name,club,email\nAnn Clarke,Half Way Tree,ann@\n,Mandeville,\nAnn Clarke,Half Way Tree,\n"


def test_a_director_pastes_a_clean_file_and_every_player_is_entered(dana, spring) -> None:
    response = as_user(dana).post("/director/spring-open/players/import", {"text": GOOD})
    assert response.status_code == 302 and response["Location"] == "/director/spring-open/players"
    assert flashed(response) == ["Imported 2 players."]
    assert spring.entries.count() == 2


def test_a_director_uploads_a_file(dana, spring) -> None:
    upload = SimpleUploadedFile("players.csv", GOOD.replace(",", ";").encode("utf-8-sig"))
    response = as_user(dana).post("/director/spring-open/players/import", {"file": upload})
    assert response.status_code == 302
    assert spring.entries.count() == 2


def test_a_bad_file_shows_every_bad_line_and_imports_nothing(dana, spring) -> None:
    page = text(as_user(dana).post("/director/spring-open/players/import", {"text": BAD}))
    assert "Nothing was imported: the file has 3 problems." in page
    for line, words in [
        (2, "“ann@” is not an email address"),
        (3, "the name is missing"),
        (4, "Ann Clarke (Half Way Tree) is already on line 2"),
    ]:
        assert f'<td class="num">{line}</td><td>{words}</td>' in page
    assert not spring.entries.exists()


def test_an_uploaded_workbook_is_refused_with_what_to_do(dana, spring) -> None:
    upload = SimpleUploadedFile("players.xlsx", b"PK\x03\x04\x14\x00\x06\x00" + bytes(200))
    page = text(as_user(dana).post("/director/spring-open/players/import", {"file": upload}))
    assert "This is a spreadsheet workbook, not a CSV file" in page


def test_an_empty_import_form_asks_for_a_file(dana) -> None:
    page = text(as_user(dana).post("/director/spring-open/players/import", {"text": " "}))
    assert "Choose a CSV file or paste its rows." in page


# The audit log


def test_the_audit_log_lists_newest_first_a_page_at_a_time(dana, spring) -> None:
    for number in range(1, 53):
        audit_record(tournament=spring, actor=dana, action="test", summary=f"Action {number}")
    client = as_user(dana)
    first = text(client.get("/director/spring-open/audit"))
    assert first.index("Action 52<") < first.index("Action 51<")
    assert "Action 2<" not in first and "Page 1 of 2" in first
    second = text(client.get("/director/spring-open/audit?page=2"))
    assert "Action 2<" in second and "Action 1<" in second and "dana" in second


def test_every_director_action_on_the_pages_is_in_the_audit_log(dana, spring) -> None:
    client = as_user(dana)
    client.post("/director/spring-open/players", {"name": "Ann Clarke"})
    ann = spring.entries.get()
    client.post(f"/director/spring-open/players/{ann.pk}/check-in")
    client.post(f"/director/spring-open/players/{ann.pk}/withdraw")
    client.post("/director/spring-open/players/import", {"text": "name\nZoe Reid\n"})
    client.post("/director/spring-open/players/check-in-all")
    actions = list(spring.audit.order_by("at", "id").values_list("action", "actor__username"))
    assert actions == [
        ("player.add", "dana"),
        ("entry.check_in", "dana"),
        ("entry.withdraw", "dana"),
        ("players.import", "dana"),
        ("entries.check_in_all", "dana"),
    ]


def test_a_stranger_sees_no_tournament(stranger, spring) -> None:
    assert as_user(stranger).get("/director/spring-open/").status_code == 404
    assert "Spring Open" not in text(as_user(stranger).get("/director/"))


def test_dates_in_the_hub_follow_the_set_up(dana, spring) -> None:
    Tournament.objects.filter(pk=spring.pk).update(ends_on=datetime.date(2026, 4, 18))
    page = text(as_user(dana).get("/director/spring-open/"))
    assert "Saturday 18 April 2026</dd>" in page


def test_every_page_names_the_sites_icon_and_the_browsers_own_address_leads_to_it(
    dana, client
) -> None:
    page = text(as_user(dana).get("/director/"))
    assert '<link rel="icon" href="/static/img/favicon.svg" type="image/svg+xml">' in page
    asked = client.get("/favicon.ico")  # where the admin's and the API docs' browsers look
    assert (asked.status_code, asked["Location"]) == (301, "/static/img/favicon.ico")
    icon = (django_settings.BASE_DIR / "static/img/favicon.ico").read_bytes()
    assert icon[:4] == b"\x00\x00\x01\x00" and b"PNG" in icon[:64]  # an icon holding a PNG
