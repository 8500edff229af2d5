"""A tournament exports to one JSON document and imports with identical standings; a hostile
file is refused whole, naming what is wrong, and writes nothing.
"""

import copy
import io
import json
import re
import time

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from rest_framework.authtoken.models import Token

from scoring.backup import (
    BackupRefused,
    backup_parse,
    backup_read,
    tournament_export,
    tournament_import,
)
from scoring.clock import clock_extend, clock_start
from scoring.control import deal_flag_clear, director_call, director_call_answer
from scoring.models import ClockEvent, Deal, DealResult, DirectorCall, ResultRevision, Ruling
from scoring.rulings import ruling_record
from scoring.services import result_submit
from scoring.standings import standings_compute
from tables.models import Bye, Seat, Table
from tests.scoring.playing import (
    director_of,
    entry,
    play,
    play_set,
    published_round,
    tournament_with,
)
from tournament.models import AuditEvent, Entry, Player, Round, StaffRole, Tournament

pytestmark = pytest.mark.django_db
MODELS = [
    Tournament,
    Player,
    Entry,
    Round,
    StaffRole,
    Table,
    Seat,
    Bye,
    Deal,
    DealResult,
    ResultRevision,
    Ruling,
    AuditEvent,
    ClockEvent,
    DirectorCall,
]


def _empty_the_database() -> None:
    """The tournament's rows go; the accounts stay, as on the server a backup is loaded into."""
    for model in reversed(MODELS):
        model.objects.all().delete()


def _delete(tournament: Tournament) -> None:
    from scoring.backup import SECTIONS

    for section in reversed(SECTIONS):
        path = section.path or "tournament"
        section.model.objects.filter(**{path: tournament}).delete()
    tournament.delete()


def load(text: str, **options):
    return tournament_import(document=backup_parse(text), **options)


@pytest.fixture
def played() -> Tournament:
    """Ten players, two tables; one finished set, a correction, a void game, a ruling, the round's
    clock (started, extended), a call for the director answered and a flag cleared."""
    tournament = tournament_with(10)
    dana = director_of(tournament, "dana")
    one, two = published_round(tournament).tables.order_by("number")
    play_set(one)
    play(two, 1)
    game = two.deals.get(number=1)
    hands = [
        {"entry": side["entry"], **side["values"]} for side in game.revisions.get().entry["sides"]
    ]
    result_submit(
        table=two,
        number=1,
        by=dana,
        via="director dana",
        base_version=1,
        hands=_inputs(hands, bump=3),
    )
    ruling_record(
        tournament=tournament,
        by=dana,
        kind="penalty_points",
        points=20,
        entry=entry(tournament, "Ben"),
        decision="20 points for slow play",
    )
    clock_start(round=one.round, minutes=120, by=dana)
    clock_extend(round=one.round, table=two, minutes=10, by=dana, reason="started late")
    director_call_answer(call=director_call(table=two, via="table 2 link · Ann").call, by=dana)
    deal_flag_clear(deal=_flagged_game_2(two), by=dana, reason="looked at the cards")
    return tournament


def _flagged_game_2(table: Table) -> Deal:
    """Game 2 saved over a warning: three cards left after no call (R10.6)."""
    from scoring.services import HandInput, result_record

    seats = list(table.seats.order_by("position"))
    hands = [HandInput(seats[0].entry_id, went_out=True, cards="", calls=0)]
    hands += [HandInput(seats[1].entry_id, cards="JK AS 2C", calls=0)]
    hands += [HandInput(seat.entry_id, points=9) for seat in seats[2:]]
    return result_record(table=table, number=2, hands=hands, via="test", confirm_warnings=True)


def _inputs(hands: list[dict], bump: int):
    from scoring.services import HandInput

    return [
        HandInput(
            h["entry"],
            went_out=h["went_out"],
            cards=h["cards"],
            points=(h["points"] + bump) if h["points"] else h["points"],
        )
        for h in hands
    ]


def test_an_export_imports_with_identical_standings_and_history(played) -> None:
    before = standings_compute(tournament=played)
    counts = {model.__name__: model.objects.count() for model in MODELS if model is not StaffRole}
    text = tournament_export(tournament=played)
    _empty_the_database()
    imported = load(text)
    assert standings_compute(tournament=imported.tournament) == before
    after = {model.__name__: model.objects.count() for model in MODELS if model is not StaffRole}
    assert after == counts
    game = Deal.objects.get(table__number=2, number=1)
    assert game.version == 2
    assert list(game.revisions.order_by("version").values_list("status", flat=True)) == [
        "superseded",
        "confirmed",
    ]
    assert game.revisions.get(version=2).entered_by.username == "dana"  # mapped by username


def test_timestamps_keep_their_microseconds(played) -> None:
    stamps = {
        "entries": list(Entry.objects.order_by("pk").values_list("registered_at", flat=True)),
        "games": list(Deal.objects.order_by("pk").values_list("entered_at", "updated_at")),
        "revisions": list(ResultRevision.objects.order_by("pk").values_list("entered_at")),
        "rulings": list(Ruling.objects.order_by("pk").values_list("decided_at", flat=True)),
        "audit": list(AuditEvent.objects.order_by("pk").values_list("at", flat=True)),
        "tournament": [Tournament.objects.values_list("created_at", "updated_at").get()],
    }
    assert any(stamp.microsecond for stamp in stamps["entries"])
    text = tournament_export(tournament=played)
    _empty_the_database()
    load(text)
    assert stamps == {
        "entries": list(Entry.objects.order_by("pk").values_list("registered_at", flat=True)),
        "games": list(Deal.objects.order_by("pk").values_list("entered_at", "updated_at")),
        "revisions": list(ResultRevision.objects.order_by("pk").values_list("entered_at")),
        "rulings": list(Ruling.objects.order_by("pk").values_list("decided_at", flat=True)),
        "audit": list(AuditEvent.objects.order_by("pk").values_list("at", flat=True)),
        "tournament": [Tournament.objects.values_list("created_at", "updated_at").get()],
    }


def test_an_export_holds_no_password_hash_token_or_table_link(played) -> None:
    Token.objects.create(user=get_user_model().objects.get(username="dana"))
    text = tournament_export(tournament=played)
    document = json.loads(text)
    secrets = [user.password for user in get_user_model().objects.all()]
    secrets += list(Token.objects.values_list("key", flat=True))
    secrets += list(Table.objects.values_list("access_token", flat=True))
    assert not [secret for secret in secrets if secret in text]
    assert document["version"] == 3 and "password" not in text
    assert document["staff"] == [
        {"username": "dana", "role": "director", "granted_at": document["staff"][0]["granted_at"]}
    ]


def test_links_are_reissued_and_staff_roles_granted_only_when_asked(played) -> None:
    old_links = set(Table.objects.values_list("access_token", flat=True))
    text = tournament_export(tournament=played)
    _empty_the_database()
    imported = load(text)
    assert not StaffRole.objects.exists()
    assert imported.to_add == ["dana (director)"]
    assert not old_links & set(Table.objects.values_list("access_token", flat=True))
    _empty_the_database()
    imported = load(text, grant_staff=True)
    assert imported.granted == ["dana (director)"]
    assert StaffRole.objects.get().user.username == "dana"


def test_staff_who_are_not_users_here_are_listed_never_created(played) -> None:
    text = tournament_export(tournament=played)
    _empty_the_database()
    users = get_user_model().objects.count()
    get_user_model().objects.filter(username="dana").delete()
    imported = load(text, grant_staff=True)
    assert imported.to_add == ["dana (director): no such user here"]
    assert get_user_model().objects.count() == users - 1
    assert not StaffRole.objects.exists()
    assert Ruling.objects.get().decided_by is None  # a person not here: left blank


def test_it_refuses_to_load_over_rows_it_would_replace(played) -> None:
    with pytest.raises(BackupRefused, match=r"already here|used by this database"):
        load(tournament_export(tournament=played))


def test_the_commands_write_and_load_a_file(played, tmp_path) -> None:
    backup = tmp_path / "spring-open.json"
    before = standings_compute(tournament=played)
    call_command("tournament_export", played.slug, output=str(backup))
    _empty_the_database()
    out = io.StringIO()
    call_command("tournament_import", str(backup), stdout=out)
    assert standings_compute(tournament=Tournament.objects.get()) == before
    assert "print the table cards again" in out.getvalue()
    assert "dana (director)" in out.getvalue()


# --- hostile files -------------------------------------------------------------------------------


@pytest.fixture
def alpha() -> Tournament:
    """Another director's tournament already on this server: a tampered file must not touch it."""
    alpha = tournament_with(10, name="Alpha", slug="alpha")
    director_of(alpha, "alf")
    play(published_round(alpha).tables.order_by("number").first(), 1)
    return alpha


@pytest.fixture
def evil(played, alpha) -> dict:
    """A backup of `played`, renamed "evil", its own rows moved to ids this database lacks."""
    document = json.loads(tournament_export(tournament=played))
    _delete(played)
    document["tournament"]["slug"] = "evil"
    return document


def everything() -> dict[str, list[tuple]]:
    from django.apps import apps

    models = [
        model
        for label in ("auth", "authtoken", "tournament", "tables", "scoring")
        for model in apps.get_app_config(label).get_models(include_auto_created=True)
    ]
    return {m._meta.label: list(m._default_manager.order_by("pk").values_list()) for m in models}


def refused(document: dict, match: str) -> str:
    before = everything()
    with pytest.raises(BackupRefused, match=match) as refusal:
        tournament_import(document=document)
    assert everything() == before, "a refused file wrote something"
    return str(refusal.value)


def test_the_untampered_file_loads_beside_another_tournament(evil, alpha) -> None:
    alpha_before = standings_compute(tournament=alpha)
    imported = tournament_import(document=evil)
    assert imported.tournament.slug == "evil"
    assert standings_compute(tournament=alpha) == alpha_before


def test_a_superuser_row_is_refused(evil) -> None:
    evil["users"] = [{"id": 99, "username": "mallory", "is_superuser": True, "password": "x"}]
    refused(evil, "sections a backup never holds: users")


def test_a_superuser_smuggled_into_the_staff_is_refused(evil) -> None:
    evil["staff"].append(
        {
            "username": "mallory",
            "role": "director",
            "granted_at": None,
            "is_superuser": True,
            "password": "pbkdf2_sha256$x",
        }
    )
    refused(evil, r"staff\[1\]: has fields a backup never holds: is_superuser, password")


def test_a_token_row_is_refused(evil) -> None:
    evil["tokens"] = [{"key": "a" * 40, "user": "dana"}]
    refused(evil, "sections a backup never holds: tokens")


def test_a_version_1_dump_of_any_model_is_refused(evil) -> None:
    dump = {
        "format": "kalooki-tournament-backup",
        "version": 1,
        "tournament": "evil",
        "rows": [
            {
                "model": "auth.user",
                "pk": 99,
                "fields": {"username": "mallory", "is_superuser": True},
            },
            {"model": "authtoken.token", "pk": "k" * 40, "fields": {"user": 99}},
        ],
    }
    refused(dump, "version 1")


def test_a_seat_and_a_ruling_pointing_into_another_tournament_are_refused(evil, alpha) -> None:
    alphas_entry = alpha.entries.first().pk
    alphas_table = alpha.rounds.get().tables.first().pk
    evil["seats"][0]["entry"] = alphas_entry
    evil["rulings"][0]["table"] = alphas_table
    evil["rulings"][0]["points"] = -500
    message = refused(evil, "not the id of a row of this file's own tournament")
    assert f"seats[0].entry: {alphas_entry} is not" in message
    assert f"rulings[0].table: {alphas_table} is not" in message


def test_rows_reusing_another_tournaments_ids_are_refused(evil, alpha) -> None:
    evil["rulings"][0]["id"] = alpha.entries.first().pk  # any id; rulings of alpha: none
    evil["entries"][0]["id"] = alpha.entries.first().pk
    refused(evil, "ids are used by this database already")


def test_an_existing_address_is_refused_and_another_can_be_chosen(evil, alpha) -> None:
    evil["tournament"]["slug"] = "alpha"
    refused(evil, "address 'alpha' is already here")
    assert tournament_import(document=evil, slug="evil-copy").tournament.slug == "evil-copy"


TAMPERINGS = {
    "a number as text": (("deals", 0, "number"), "3", "must be a whole number, not str"),
    "a flag as a number": (("deals", 0, "is_void"), 1, "must be true or false"),
    "a huge number": (("results", 0, "points"), 10**30, "less than or equal"),
    "a negative side": (("results", 0, "side"), -1, "greater than or equal"),
    "a deep result": (("results", 0, "detail"), json.loads("[" * 40 + "]" * 40), "deeper"),
    "a NUL byte": (("players", 0, "name"), "Ann\x00", "NUL"),
    "a NUL byte in JSON": (("revisions", 0, "reason"), "ok\x00", "NUL"),
    "text too long": (("players", 0, "name"), "x" * 121, "at most 120"),
    "a time without offset": (("entries", 0, "registered_at"), "2026-01-01T10:00:00", "offset"),
    "not a time": (("deals", 0, "entered_at"), "yesterday", "not a date and time"),
    "an unknown status": (("entries", 0, "status"), "king", "not a valid choice"),
    "a bad email": (("players", 0, "email"), "not-an-email", "valid email"),
    "a row that is a list": (("deals", 0), [1, 2], "must be an object"),
    "an id that is text": (("deals", 0, "id"), "1", "must be a whole number from 1"),
    "an id of zero": (("deals", 0, "id"), 0, "must be a whole number from 1"),
    "a section that is an object": (("deals",), {}, "must be a list"),
    "a deep JSON field": (("deals", 0, "warnings"), json.loads("[" * 40 + "]" * 40), "deeper"),
    "a bad ruleset": (("tournament", "ruleset"), {"table_size": 50, "x": 1}, "not a ruleset"),
    "a bad date": (("tournament", "starts_on"), "2026-13-45", "not a date|month must be"),
    "a table's link token": (("tables", 0, "access_token"), "guessable", "never holds"),
}


def _set(document: dict, path: tuple, value) -> None:
    *parents, last = path
    for key in parents:
        document = document[key]
    document[last] = value


@pytest.mark.parametrize("name", list(TAMPERINGS))
def test_a_tampered_field_is_refused_naming_it(evil, name: str) -> None:
    path, value, match = TAMPERINGS[name]
    document = copy.deepcopy(evil)
    _set(document, path, value)
    message = refused(document, match)
    assert path[0] in message


def test_a_missing_field_is_refused_naming_it(evil) -> None:
    del evil["results"][3]["points"]
    refused(evil, r"results\[3\]: lacks the fields points")


def test_a_missing_section_is_refused(evil) -> None:
    del evil["rulings"]
    refused(evil, "lacks the sections rulings")


@pytest.mark.parametrize(
    ("data", "match"),
    [
        (b"not json", "not JSON"),
        (b"[]", "not a Kalooki tournament backup"),
        (b'{"format": "other"}', "not a Kalooki tournament backup"),
        ("name,club\nAnn,Ka\u00efn\n".encode("cp1252"), "not UTF-8|not JSON"),
        (b"[" * 100_000 + b"]" * 100_000, "nests deeper|not a Kalooki"),
        (b'{"format": "kalooki-tournament-backup", "version": ' + b"9" * 5000 + b"}", "number"),
        (b'{"format": "kalooki-tournament-backup", "version": 3}', "lacks the sections"),
        (b'{"format": "kalooki-tournament-backup", "version": 2}', "reads version 3 only"),
        (b"\x00\x00\x00", "not JSON"),
    ],
    ids=[
        "text",
        "a list",
        "another format",
        "cp1252",
        "deep nesting",
        "5000 digits",
        "header only",
        "a version 2 file, of Kalooki's columns",
        "NUL bytes",
    ],
)
def test_a_malformed_file_is_a_clear_refusal(data: bytes, match: str) -> None:
    with pytest.raises(BackupRefused, match=match):
        tournament_import(document=backup_parse(data))


class Unreadable(io.RawIOBase):
    """A stream that fails the test if anyone reads it."""

    def read(self, size: int = -1) -> bytes:
        raise AssertionError("the file was read")


def test_a_200_mb_file_is_refused_before_a_byte_is_read() -> None:
    with pytest.raises(BackupRefused, match="at most 50,000,000 bytes"):
        backup_read(Unreadable(), size=200_000_000)


def test_a_stream_over_the_limit_is_refused_after_reading_only_the_limit(settings) -> None:
    settings.BACKUP_MAX_BYTES = 1000
    stream = io.BytesIO(b" " * 5000)
    with pytest.raises(BackupRefused, match="larger than that"):
        backup_read(stream)
    assert stream.tell() == 1001


def test_the_command_refuses_a_200_mb_file_with_a_message(tmp_path) -> None:
    huge = tmp_path / "huge.json"
    with huge.open("wb") as file:
        file.truncate(200_000_000)  # sparse: no disk space, and never read
    with pytest.raises(CommandError, match="200,000,000 bytes"):
        call_command("tournament_import", str(huge))


def test_the_command_turns_a_tampered_file_into_a_message(evil, tmp_path) -> None:
    evil["seats"][0]["entry"] = 10**6
    path = tmp_path / "evil.json"
    path.write_text(json.dumps(evil))
    with pytest.raises(CommandError, match=r"seats\[0\].entry: 1000000 is not the id"):
        call_command("tournament_import", str(path))


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_after_an_import_new_rows_get_new_ids(played) -> None:
    """Rows keep their ids; PostgreSQL's sequences are moved past them."""
    text = tournament_export(tournament=played)
    _empty_the_database()
    imported = load(text)
    from tournament.services import player_add

    entry = player_add(tournament=imported.tournament, by=None, name="Newcomer", club="", late=True)
    assert entry.pk > max(Entry.objects.exclude(pk=entry.pk).values_list("pk", flat=True))


def test_every_reference_of_a_backed_up_row_is_mapped() -> None:
    """A foreign key the backup does not know would be written as a bare id from the file: each
    is a reference within the file, a user named by username, the file's own tournament, or a
    field the backup leaves out (a player's club member: the club's register, not the file's)."""
    from scoring.backup import SECTIONS

    for section in SECTIONS:
        for f in section.model._meta.concrete_fields:
            if f.is_relation and f.name != "tournament":
                known = set(section.references) | set(section.users) | set(section.left_out)
                assert f.name in known, f"{section.name}.{f.name} is not mapped"


def test_byes_go_into_the_backup_and_come_back_with_the_same_standings() -> None:
    """A Parcellus round with a bye (PA7.1, PA7.2): the bye is carried, and scored alike after."""
    from tests.scoring.test_byes_standings import parcellus, play, round_with_bye

    tournament = parcellus("win", bye_points=30)
    play(round_with_bye(tournament, ["Ann", "Ben", "Cy"], "Di", 1), ["Ann", "Ben", "Cy"])
    before = standings_compute(tournament=tournament)
    text = tournament_export(tournament=tournament)
    assert [set(row) for row in json.loads(text)["byes"]] == [{"id", "round", "entry"}]
    _empty_the_database()
    imported = load(text)
    assert standings_compute(tournament=imported.tournament) == before
    [bye] = Bye.objects.select_related("entry__player", "round")
    assert (bye.entry.player.name, bye.round.number) == ("Di", 1)


def test_a_file_written_before_byes_existed_loads(played) -> None:
    document = json.loads(tournament_export(tournament=played))
    del document["byes"]
    _empty_the_database()
    imported = load(json.dumps(document))
    assert imported.tournament.entries.count() == 10 and not Bye.objects.exists()


def test_a_bye_of_another_tournaments_entry_is_refused(evil, alpha) -> None:
    outsider = alpha.entries.first().pk
    evil["byes"] = [{"id": 1, "round": evil["rounds"][0]["id"], "entry": outsider}]
    with pytest.raises(BackupRefused, match=r"byes\[0\]\.entry"):
        tournament_import(document=evil)


def test_teams_and_time_called_go_into_the_backup_and_come_back_alike() -> None:
    """A Hand and Foot table of two teams (HF1.2), a hand played and time called (HF2.2): the
    teams' partners and the call are carried, and the standings are the same after."""
    from scoring.time_called import table_time_call
    from tests.scoring.other_games import game_tournament, seated_by_hand, table_of
    from tests.scoring.test_other_games import HANDS, enter_hf

    tournament = game_tournament("hand_and_foot")
    table = table_of(seated_by_hand(tournament, [["Ann", "Ben", "Cy", "Di"]]))
    enter_hf(tournament, table, 1, HANDS[0])
    table_time_call(table=table, by=None, via="table link · Ann")
    before = standings_compute(tournament=tournament)
    text = tournament_export(tournament=tournament)
    assert [row["position"] for row in json.loads(text)["members"]] == [1, 2, 1, 2]
    _empty_the_database()
    imported = load(text)
    assert standings_compute(tournament=imported.tournament) == before
    teams = {entry.team_name: entry.partner_names() for entry in imported.tournament.entries.all()}
    assert teams == {"Ann & Cy": "Ann & Cy", "Ben & Di": "Ben & Di"}
    assert imported.tournament.rounds.get().tables.get().time_called


def test_a_file_written_before_teams_existed_loads(played) -> None:
    document = json.loads(tournament_export(tournament=played))
    del document["members"]
    for row in document["entries"]:
        del row["team_name"], row["status_note"]
    for row in document["tables"]:
        del row["time_called_at"], row["time_called_by"]
    _empty_the_database()
    imported = load(json.dumps(document))
    assert imported.tournament.entries.filter(team_name="").count() == 10


def test_a_file_written_before_self_check_in_loads(played) -> None:
    document = json.loads(tournament_export(tournament=played))
    del document["tournament"]["check_in_until"]
    for row in document["entries"]:
        del row["checked_in_by_phone"]
    _empty_the_database()
    imported = load(json.dumps(document))
    assert imported.tournament.check_in_until is None
    assert not imported.tournament.entries.filter(checked_in_by_phone=True).exists()


# --- hostile files that pages would have read -----------------------------------------


def _seat_entries(document: dict) -> dict[int, set[int]]:
    """The entries seated at each table of the file, by table id."""
    seated: dict[int, set[int]] = {}
    for seat in document["seats"]:
        seated.setdefault(seat["table"], set()).add(seat["entry"])
    return seated


def _another_tables_entry(document: dict) -> None:
    result = document["results"][0]
    table = next(d["table"] for d in document["deals"] if d["id"] == result["deal"])
    seated = _seat_entries(document)
    result["entry"] = next(e for t, es in seated.items() if t != table for e in sorted(es))


def _a_second_round(document: dict) -> int:
    round_ = {**document["rounds"][0], "id": 900_001, "number": 2}
    document["rounds"].append(round_)
    return round_["id"]


def _seat_of_another_round(document: dict) -> None:
    document["seats"][0]["round"] = _a_second_round(document)


def _ruling_of_another_round(document: dict) -> None:
    document["rulings"][0]["round"] = _a_second_round(document)
    document["rulings"][0]["table"] = document["tables"][0]["id"]


def _bye_of_a_seated_player(document: dict) -> None:
    seat = document["seats"][0]
    document["byes"].append({"id": 900_001, "round": seat["round"], "entry": seat["entry"]})


def _result_of_a_void_deal(document: dict) -> None:
    deal = next(d for d in document["deals"] if d["id"] == document["results"][0]["deal"])
    deal["is_void"] = True


HOSTILE = {  # the file's change, and the refusal it gets
    "deal 42 of a nine-game set": (
        lambda d: d["deals"][0].update(number=42),
        r"deals\[0\]\.number: 42 is past the 9 deals of a set of nine games",
    ),
    "a deal's attempt 500": (
        lambda d: d["deals"][0].update(attempt=500),
        r"deals\[0\]\.attempt: must be at most 20",
    ),
    "warnings of a million integers": (
        lambda d: d["deals"][0].update(warnings=list(range(10**6))),
        r"deals\[0\]\.warnings: is 7,888,890 characters of JSON",
    ),
    "a warning that is not the game's": (
        lambda d: d["deals"][0].update(warnings=[{"message": 5}]),
        r"deals\[0\]\.warnings\[0\]: must be a warning as the game words it",
    ),
    "a deal's detail that is a list": (
        lambda d: d["deals"][0].update(detail=[1, 2]),
        r"deals\[0\]\.detail: must be an object",
    ),
    "a time in year 1": (
        lambda d: d["deals"][0].update(entered_at="0001-01-01T00:00:00+05:00"),
        r"deals\[0\]\.entered_at: 0001-01-01T00:00:00\+05:00 is not between the years 2000",
    ),
    "a time in year 9999": (
        lambda d: d["deals"][0].update(updated_at="9999-12-31T23:59:59-05:00"),
        r"deals\[0\]\.updated_at: 9999-12-31T23:59:59-05:00 is not between the years 2000",
    ),
    "a date in year 1": (
        lambda d: d["tournament"].update(starts_on="0001-01-01"),
        r"tournament\.starts_on: 0001-01-01 is not between the years 2000",
    ),
    "a result of a player seated at another table": (
        _another_tables_entry,
        r"results\[0\]\.entry: is not seated at the deal's table",
    ),
    "side 7 at a five-seat table": (
        lambda d: d["results"][0].update(side=7),
        r"results\[0\]\.side: 7 is not one of the table's 5 sides",
    ),
    "seat 9 at a five-seat table": (
        lambda d: d["seats"][0].update(position=9),
        r"seats\[0\]\.position: 9 is past the 6 seats a table of this game has \(R12.2\)",
    ),
    "a seat of another round": (_seat_of_another_round, r"seats\[0\]\.round: is not its table's"),
    "a ruling of another round's table": (
        _ruling_of_another_round,
        r"rulings\[0\]\.table: is a table of another round than the ruling's",
    ),
    "a bye of a player seated that round": (
        _bye_of_a_seated_player,
        r"byes\[\d+\]\.entry: is seated at a table in that round",
    ),
    "a result of a void deal": (
        _result_of_a_void_deal,
        r"results\[0\]\.deal: is a void deal, which scores nothing",
    ),
    "-1,000,000 points": (
        lambda d: d["results"][0].update(points=-1_000_000),
        r"results\[0\]\.points: must be within ±100,000 for a deal",
    ),
    "a result entered as a list": (
        lambda d: d["results"][0].update(entered=[1]),
        r"results\[0\]\.entered: must be an object of the side's `values` and its `members`",
    ),
    "a value that is not the game's": (
        lambda d: d["results"][0]["entered"]["values"].update(calls="three"),
        r"results\[0\]\.entered\.values\.calls: is not a value of the game's field",
    ),
    "a field that is not the game's": (
        lambda d: d["results"][0]["entered"]["values"].update(red_books=3),
        r"results\[0\]\.entered\.values\.red_books: is not one of the game's fields",
    ),
    "a result's detail of text": (
        lambda d: d["results"][0].update(detail="x"),
        r"results\[0\]\.detail: must be an object",
    ),
    "a version's entry as a list": (
        lambda d: d["revisions"][0].update(entry=[1]),
        r"revisions\[0\]\.entry: must be the deal's entry as the game returned it",
    ),
    "a version's scores as text": (
        lambda d: d["revisions"][0].update(scores="x"),
        r"revisions\[0\]\.scores: must be each side's score",
    ),
    "a version past its deal's": (
        lambda d: d["revisions"][0].update(version=7),
        r"revisions\[0\]\.version: is past its deal's version",
    ),
    "NaN in a JSON field": (
        lambda d: d["results"][0]["detail"].update(card_points=float("nan")),
        "The file holds NaN, which is not a number a backup holds",
    ),
    "Infinity in a JSON field": (
        lambda d: d["results"][0]["detail"].update(x=float("inf")),
        "The file holds Infinity",
    ),
    "a number too large for a float": (
        lambda d: d["results"][0]["detail"].update(x=1e308 * 10),
        "The file holds Infinity",
    ),
    "a number larger than any kept": (
        lambda d: d["results"][0]["detail"].update(x=10**15),
        r"results\[0\]\.detail: holds the number 1000000000000000, larger than any",
    ),
}


def _pages(tournament: Tournament) -> list[tuple[str, str]]:
    """Every page and API of the site that reads this tournament, each with who asks: the
    director ("director"), the public ("public") or the table's link ("link")."""
    from django.urls import URLPattern, URLResolver, get_resolver

    rounds = list(tournament.rounds.values_list("number", flat=True))
    tables = list(Table.objects.filter(round__tournament=tournament).select_related("round"))
    entries = list(tournament.entries.values_list("pk", flat=True))
    deals = sorted(set(Deal.objects.filter(table__in=tables).values_list("number", flat=True)))
    values = {
        "slug": [tournament.slug],
        "number": rounds,
        "round": rounds,
        "table": sorted({t.number for t in tables}),
        "entry_id": entries,
        "game": deals,
        "pk": [t.pk for t in tables] + list(Ruling.objects.values_list("pk", flat=True)),
        "token": [t.access_token for t in tables],
    }
    found = []

    def walk(resolver, prefix: str, namespace: str | None) -> None:
        for pattern in resolver.url_patterns:
            if isinstance(pattern, URLResolver):
                walk(pattern, prefix + str(pattern.pattern), pattern.namespace or namespace)
            elif isinstance(pattern, URLPattern) and not prefix.startswith("admin"):
                found.extend(_filled(prefix + str(pattern.pattern), namespace, values))

    walk(get_resolver(), "", None)
    return found + _parts_of(found)


def _parts_of(pages: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The parts pages ask for by themselves: each public page's live part (`?live=1`), and
    the phone's, all of them at once (`parts` holding none) and the clock (`live`, a route)."""
    live = [(kind, f"{url}?live=1") for kind, url in pages if kind == "public"]
    phone = [(kind, f"{url}?have=") for kind, url in pages if url.endswith("/parts")]
    return live + phone


def _filled(route: str, namespace: str | None, values: dict) -> list[tuple[str, str]]:
    import itertools
    import re

    names = re.findall(r"<(?:\w+:)?(\w+)>", route)
    if any(name not in values for name in names):
        return []
    kind = {"public": "public", "table": "link"}.get(namespace or "", "director")
    if route.startswith("api/tables"):
        kind = "link"
    if kind == "link":  # a table's `number` is a deal's, not a round's
        values = {**values, "number": values["game"]}
    urls = []
    for combo in itertools.islice(itertools.product(*(values[n] for n in names)), 40):
        url = route
        for name, value in zip(names, combo, strict=True):
            url = re.sub(rf"<(?:\w+:)?{name}>", str(value), url, count=1)
        urls.append((kind, "/" + url))
    return urls


def _no_page_fails(tournament: Tournament) -> None:
    from rest_framework.test import APIClient

    director = Client(raise_request_exception=False)
    director.force_login(get_user_model().objects.create_superuser("overseer", password="x"))
    public = Client(raise_request_exception=False)
    Tournament.objects.filter(pk=tournament.pk).update(is_published=True)
    failed = []
    for kind, url in _pages(tournament):
        if kind == "link":
            link = APIClient(raise_request_exception=False)
            table = _link_table(url, tournament)
            link.credentials(HTTP_AUTHORIZATION=f"Table {table.access_token}")
            response = link.get(url)
        else:
            response = (director if kind == "director" else public).get(url)
        if response.status_code >= 500:
            failed.append(f"{url}: {response.status_code}")
    assert not failed, failed


def _link_table(url: str, tournament: Tournament) -> Table:
    """The table whose link the address is about (its token, or its id under /api/tables/)."""
    tables = Table.objects.filter(round__tournament=tournament)
    part = url.split("/")[3 if url.startswith("/api/") else 2]
    found = tables.filter(pk=int(part)) if part.isdigit() else tables.filter(access_token=part)
    return found.first() or tables.first()


@pytest.mark.slow
@pytest.mark.parametrize("name", list(HOSTILE))
def test_a_hostile_file_is_refused_naming_what_pages_would_have_read(evil, name: str) -> None:
    """Each file an attacker (or a day of bad luck) could hand the director is refused whole,
    naming the section, row and field; were one loaded, no page or API that reads it may fail."""
    document = copy.deepcopy(evil)
    change, match = HOSTILE[name]
    change(document)
    text = json.dumps(document)  # NaN and Infinity as Python's json writes them
    before = everything()
    try:
        imported = tournament_import(document=backup_parse(text))
    except BackupRefused as refusal:
        assert re.search(match, str(refusal)), str(refusal)
        assert everything() == before, "a refused file wrote something"
        return
    _no_page_fails(imported.tournament)
    raise AssertionError(f"loaded, though every page answered: {name}")


def test_a_1e309_read_as_text_is_refused_too() -> None:
    text = '{"format": "kalooki-tournament-backup", "version": 3, "x": 1e309}'
    with pytest.raises(BackupRefused, match="1e309, too large to be read"):
        backup_parse(text)


def test_a_key_given_twice_is_refused_a_hidden_staff_among_them(evil) -> None:
    """A second `staff` key hid a stranger made director (`--grant-staff`): the last key won."""
    stranger = '{"username": "mallory", "role": "director", "granted_at": null}'
    text = json.dumps(evil).replace('"staff": [', f'"staff": [{stranger}], "staff": [', 1)
    with pytest.raises(BackupRefused, match="gives the key 'staff' twice in one object"):
        backup_parse(text)
    inner = json.dumps(evil).replace('"number": 1,', '"number": 1, "number": 2,', 1)
    with pytest.raises(BackupRefused, match="gives the key 'number' twice"):
        backup_parse(inner)


def test_a_section_of_300000_rows_is_refused_at_once_saying_so(evil) -> None:
    """A file within the size limit but of more rows than any tournament has (300,000 players:
    33 MB) is refused before a row is looked at, in well under a second after reading it."""
    player = evil["players"][0]
    evil["players"] = [{**player, "id": n} for n in range(1, 300_001)]
    text = json.dumps(evil)
    started = time.perf_counter()
    with pytest.raises(BackupRefused, match="players section holds 300,000 rows; a backup holds"):
        backup_parse(text)
    assert time.perf_counter() - started < 5  # the JSON's reading, mostly


def test_every_page_of_an_honest_file_answers(evil) -> None:
    """The walk over the pages works: an untampered file's pages all answer."""
    imported = tournament_import(document=evil)
    urls = [url for _, url in _pages(imported.tournament)]
    assert len(urls) > 50
    # The parts the phone and the hall's pages ask for by themselves are walked too.
    for part in ("/live", "/parts?have=", "/leaderboard/rows", "?live=1"):
        assert any(url.endswith(part) for url in urls), part
    assert any(re.search(r"^/t/[\w-]+/games/\d+/correct$", url) for url in urls)
    _no_page_fails(imported.tournament)


# --- the import's cost bounded -------------------------------------------------------

FOREVER = (
    "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 1000000000) "
    "SELECT count(*) FROM c"
)


def test_a_statement_of_the_import_is_stopped_after_its_time(monkeypatch) -> None:
    """Each statement the import sends is stopped once it has run `STATEMENT_SECONDS` (here a
    fifth of a second), on PostgreSQL by its statement_timeout, on SQLite by its progress
    handler; and on PostgreSQL without JIT compilation."""
    from django.db import OperationalError, connection, transaction

    from scoring import backup

    monkeypatch.setattr(backup, "STATEMENT_SECONDS", 0.2)
    started = time.perf_counter()
    with backup._statements_bounded(), connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SHOW jit")
            assert cursor.fetchone()[0] == "off"
        with pytest.raises(OperationalError, match=r"timeout|interrupted"), transaction.atomic():
            cursor.execute(FOREVER)
    assert time.perf_counter() - started < 5
    with connection.cursor() as cursor:  # the session is as it was afterwards
        cursor.execute("SELECT 1")
        if connection.vendor == "postgresql":
            cursor.execute("SHOW statement_timeout")
            assert cursor.fetchone()[0] == "0"


def test_the_import_writes_in_batches(evil, monkeypatch) -> None:
    """No statement writes more than a batch of rows: a file of many rows is many modest
    statements, never one giant INSERT, and no row is written twice: the times go in with the
    rows, never by an UPDATE ... CASE afterwards (which PostgreSQL compiled for 50 minutes at
    300,000 players)."""
    from django.db import connection

    from scoring import backup

    monkeypatch.setattr(backup, "BATCH", 8)
    written: list[tuple[str, int]] = []

    def note(execute, sql, params, many, context):
        if sql.lstrip().upper().startswith(("INSERT", "UPDATE")):
            written.append((sql, len(params or ())))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(note):
        tournament_import(document=evil)
    widest = max(len(backup.fields_of(s.model, s.left_out)) + 2 for s in backup.SECTIONS)
    assert written and all(count <= 8 * widest for _, count in written), max(written)
    assert not [sql for sql, _ in written if " CASE " in sql]
    assert Deal.objects.filter(table__round__tournament__slug="evil").count() == len(evil["deals"])
