"""Importing players from a CSV file: all or nothing, and every bad row told by its line."""

import pytest

from clubs.csv_files import decode_upload
from tests.factories import EntryFactory, PlayerFactory, RoundFactory
from tournament.csv_import import RowProblem, read_players
from tournament.models import Entry, Player
from tournament.services import CsvImportRefused, TournamentError, players_import_csv

pytestmark = pytest.mark.django_db


def imported(spring, dana, text: str, **kwargs) -> list[tuple[str, str, str]]:
    entries = players_import_csv(tournament=spring, by=dana, text=text, **kwargs)
    return [(e.player.name, e.player.club, e.player.email) for e in entries]


def refusal(spring, dana, text: str) -> list[str]:
    with pytest.raises(CsvImportRefused) as refused:
        players_import_csv(tournament=spring, by=dana, text=text)
    return [str(problem) for problem in refused.value.problems]


def test_a_clean_file_enters_every_player(dana, spring) -> None:
    text = (
        "name,club,email\n"
        "Ann Clarke,Half Way Tree,ann@example.com\n"
        "Desmond Brown,Mandeville,\n"
        '"Lee, Marcia",,\n'
    )
    assert imported(spring, dana, text) == [
        ("Ann Clarke", "Half Way Tree", "ann@example.com"),
        ("Desmond Brown", "Mandeville", ""),
        ("Lee, Marcia", "", ""),
    ]
    assert set(spring.entries.values_list("status", flat=True)) == {Entry.Status.REGISTERED}
    event = spring.audit.get()
    assert (event.actor, event.action) == (dana, "players.import")
    assert event.summary == "Imported 3 players from a CSV file"


def test_excel_on_a_european_locale_bom_crlf_and_semicolons(dana, spring) -> None:
    text = "\ufeffName;Club;E-mail\r\nAnn Clarke;Half Way Tree;ann@example.com\r\n"
    assert imported(spring, dana, text) == [("Ann Clarke", "Half Way Tree", "ann@example.com")]


def test_columns_in_any_order_and_case_and_only_the_name_required(dana, spring) -> None:
    assert imported(spring, dana, "EMAIL , NAME\nann@example.com,Ann Clarke\n") == [
        ("Ann Clarke", "", "ann@example.com")
    ]
    assert imported(spring, dana, "name\nDesmond Brown\n") == [("Desmond Brown", "", "")]


def test_a_tab_separated_file_is_read_too(dana, spring) -> None:
    assert imported(spring, dana, "name\tclub\nAnn Clarke\tHalf Way Tree\n") == [
        ("Ann Clarke", "Half Way Tree", "")
    ]


def test_every_bad_row_is_reported_by_its_line_and_nothing_is_imported(dana, spring) -> None:
    EntryFactory(tournament=spring, player__name="Zoe Reid", player__club="Mandeville")
    players_before = Player.objects.count()
    text = (
        "name,club,email\n"  # 1
        "Ann Clarke,Half Way Tree,ann@example.com\n"  # 2
        ",Mandeville,nobody@example.com\n"  # 3: no name
        "\n"  # 4: blank, skipped but counted
        "Desmond Brown,Mandeville,desmond@\n"  # 5: bad email
        "ann clarke,HALF WAY TREE,\n"  # 6: same as line 2
        "Zoe Reid,Mandeville,\n"  # 7: already entered
        "Lee,Marcia,Ocho Rios,lee@example.com\n"  # 8: an unquoted comma
        "Carl Grant,Spanish Town,\n"  # 9: fine
    )
    assert refusal(spring, dana, text) == [
        "Line 3: the name is missing",
        "Line 5: “desmond@” is not an email address",
        "Line 6: ann clarke (HALF WAY TREE) is already on line 2",
        "Line 7: Zoe Reid (Mandeville) is already entered in this tournament (checked in)",
        "Line 8: this row has 4 values but the header names 3 columns; a name or club with a "
        "comma or semicolon in it must be in double quotes",
    ]
    assert spring.entries.count() == 1
    assert Player.objects.count() == players_before
    assert not spring.audit.exists()


def test_the_refusal_says_nothing_was_imported_and_what_to_do(dana, spring) -> None:
    with pytest.raises(CsvImportRefused) as refused:
        players_import_csv(tournament=spring, by=dana, text="name,club\n\n , \n,Mandeville\n")
    assert refused.value.message.startswith("Nothing was imported: the file has 1 problem.")
    assert refused.value.problems == [RowProblem(4, "the name is missing")]


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("", "The file is empty: start it with the header row."),
        ("\n\n", "The file is empty: start it with the header row."),
        ("name,club,email\n\n", "The file has a header but no players under it."),
        (
            "Ann Clarke,Half Way Tree\n",
            "Line 1: the first row must be a header naming the columns name (required), club, "
            "email and team (optional), and number (a member number); it reads “Ann Clarke”, "
            "“Half Way Tree”",
        ),
        (
            "\nname,club,phone\n",
            "Line 2: the first row must be a header naming the columns name (required), club, "
            "email and team (optional), and number (a member number); it reads “name”, “club”, "
            "“phone”",
        ),
        ("name,Name\nAnn\n", "Line 1: the header names name more than once"),
        ("PK\x03\x04\x14\x00\x06\x00", "This is a spreadsheet workbook, not a CSV file: save it"),
        ("name\x00\x01\x02", "This file is not text: save it as CSV"),
    ],
)
def test_a_file_that_is_no_players_list_is_refused(dana, spring, text, problem) -> None:
    assert refusal(spring, dana, text)[0].startswith(problem)


def test_a_binary_upload_is_recognised_as_not_text() -> None:
    noise = bytes(range(256)) * 4
    _players, problems = read_players(decode_upload(noise))
    assert problems[0].message.startswith("This file is not text")


@pytest.mark.parametrize(
    "data",
    [
        "name,club\nZoë Reid,Montego Bay\n".encode("utf-8-sig"),
        "name,club\nZoë Reid,Montego Bay\n".encode("cp1252"),  # Excel's plain "CSV" on Windows
        "name,club\nZoë Reid,Montego Bay\n".encode("utf-16"),  # "Unicode text", with its BOM
    ],
    ids=["utf-8 with BOM", "windows-1252", "utf-16"],
)
def test_uploads_in_the_encodings_spreadsheets_save(data: bytes) -> None:
    players, problems = read_players(decode_upload(data))
    assert problems == []
    assert [(p.name, p.club) for p in players] == [("Zoë Reid", "Montego Bay")]


def test_a_returning_player_gets_a_record_of_this_tournament(dana, spring) -> None:
    ann = PlayerFactory(name="Ann Clarke", club="Half Way Tree")
    players_import_csv(tournament=spring, by=dana, text="name,club\nAnn Clarke,Half Way Tree\n")
    assert spring.entries.get().player != ann
    assert spring.entries.get().player.tournament == spring


def test_after_round_1_an_import_is_of_late_entries_only(dana, spring) -> None:
    RoundFactory(tournament=spring, number=1)
    with pytest.raises(TournamentError, match="late entry"):
        players_import_csv(tournament=spring, by=dana, text="name\nAnn Clarke\n")
    players_import_csv(tournament=spring, by=dana, text="name\nAnn Clarke\n", late=True)
    assert spring.entries.get().is_late_entry


def test_a_quoted_line_break_keeps_the_line_numbers_of_the_file(dana, spring) -> None:
    text = 'name,club\n"Ann\nClarke",Half Way Tree\n,Mandeville\n'
    assert refusal(spring, dana, text) == ["Line 4: the name is missing"]


# --- hostile files: each a clear error with its line, nothing imported ----


def test_a_field_over_the_csv_modules_limit_is_a_problem_on_its_line(dana, spring) -> None:
    text = "name,club\nAnn,Half Way Tree\nBen," + "x" * 140_000 + "\nCy,Portmore\n"
    problems = refusal(spring, dana, text)
    assert len(problems) == 1 and problems[0].startswith("Line 3:")
    assert "longer than" in problems[0]
    assert not Entry.objects.exists()


@pytest.mark.parametrize(
    "data",
    [
        "name,club\n山田 太郎,東京クラブ\n佐藤 花子,大阪\n".encode("shift_jis"),
        "name,club\nАлександр Петров,Москва\nОльга Иванова,Киев\n".encode("cp1251"),
    ],
    ids=["shift-jis", "cp1251"],
)
def test_a_file_in_an_encoding_that_cannot_be_told_is_refused_with_what_to_do(data) -> None:
    from clubs.csv_files import UnknownEncoding

    with pytest.raises(UnknownEncoding, match="UTF-8") as refused:
        decode_upload(data)
    assert "Save As" in str(refused.value)


def test_the_upload_page_shows_the_encoding_refusal(dana, spring, client) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    client.force_login(dana)
    upload = SimpleUploadedFile("players.csv", "name\nАлександр Петров\n".encode("cp1251"))
    response = client.post(f"/director/{spring.slug}/players/import", {"file": upload})
    assert response.status_code == 200
    assert "UTF-8" in response.content.decode()
    assert not Entry.objects.exists()


def test_an_unbalanced_quote_is_a_problem_on_the_line_it_opens(dana, spring) -> None:
    text = 'name,club\nAnn,Half Way Tree\n"Ben Brown,Portmore\nCy,Mandeville\nDi,May Pen\n'
    problems = refusal(spring, dana, text)
    assert len(problems) == 1 and problems[0].startswith("Line 3:")
    assert "quote" in problems[0]
    assert not Entry.objects.exists()


def test_a_quoted_name_with_a_comma_still_reads(dana, spring) -> None:
    assert imported(spring, dana, 'name,club\n"Brown, Ben",Portmore\n') == [
        ("Brown, Ben", "Portmore", "")
    ]
