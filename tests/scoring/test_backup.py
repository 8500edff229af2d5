"""A tournament exports to one JSON document and imports with identical standings; a hostile
file is refused whole, naming what is wrong, and writes nothing (issue #17, findings 1, 2, 11).
"""

import copy
import io
import json

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
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
    is a reference within the file, a user named by username, or the file's own tournament."""
    from scoring.backup import SECTIONS

    for section in SECTIONS:
        for f in section.model._meta.concrete_fields:
            if f.is_relation and f.name != "tournament":
                known = set(section.references) | set(section.users)
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
