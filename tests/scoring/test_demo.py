"""The demo tournaments look like tournaments in progress (Kalooki; Parcellus with its byes), and
loading them twice changes nothing."""

import pytest
from django.core.management import call_command
from django.db.models import Count

from scoring.models import Deal, DealResult, ResultRevision
from tables.models import Seat, Table
from tournament.models import AuditEvent, Entry, Player, Round, Tournament

pytestmark = pytest.mark.django_db

MODELS = [
    Tournament,
    Player,
    Entry,
    Round,
    Table,
    Seat,
    Deal,
    DealResult,
    ResultRevision,
    AuditEvent,
]


def _counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in MODELS}


KALOOKI = {"round__tournament__slug": "demo-kalooki-open"}


def test_it_seats_23_players_at_three_tables_of_five_and_two_of_four_r12_2() -> None:
    call_command("load_demo", stdout=None)
    tables = Table.objects.filter(**KALOOKI).annotate(players=Count("seats")).order_by("number")
    assert [table.players for table in tables] == [5, 5, 5, 4, 4]
    assert Entry.objects.filter(tournament__slug="demo-kalooki-open").checked_in().count() == 23


def test_it_has_games_recorded_through_the_game() -> None:
    call_command("load_demo")
    scored = Deal.objects.filter(is_void=False, table__round__tournament__slug="demo-kalooki-open")
    assert scored.count() == 16
    assert Deal.objects.filter(is_void=True).count() == 1  # R9.2: the void attempt is kept
    assert scored.filter(detail__down_and_out=True).count() == 1  # R8.3, as the game reports it
    assert not Deal.objects.filter(is_flagged=True).exists()
    for game in scored:
        hands = list(game.results.all())
        assert sum(hand.went_out for hand in hands) == 1  # R10.1
        assert len(hands) == game.table.seats.count()


def test_every_table_has_a_first_dealer_r4_3() -> None:
    call_command("load_demo")
    assert Seat.objects.filter(is_first_dealer=True, **KALOOKI).count() == 5
    assert Table.objects.filter(**KALOOKI).count() == 5


def test_loading_it_twice_changes_nothing() -> None:
    call_command("load_demo")
    before = _counts()
    call_command("load_demo")
    assert _counts() == before


def test_the_demo_logins_work(client) -> None:
    call_command("load_demo", "--accounts")
    signed_in = client.post(
        "/accounts/login/", {"username": "director", "password": "kalooki-director"}
    )
    assert signed_in.status_code == 302
    assert client.get("/admin/").status_code == 200


# --- demo accounts only in development ------------------------------------


def test_with_debug_off_it_creates_no_account(settings) -> None:
    from django.contrib.auth import get_user_model

    settings.DEBUG = False
    call_command("load_demo")
    assert not get_user_model().objects.exists()
    assert Tournament.objects.get(slug="demo-kalooki-open").entries.count() == 23


def test_with_debug_off_the_accounts_flag_creates_them(settings) -> None:
    from django.contrib.auth import get_user_model

    settings.DEBUG = False
    call_command("load_demo", "--accounts")
    assert get_user_model().objects.filter(username="admin", is_superuser=True).exists()


def test_make_serve_loads_no_demo() -> None:
    from django.conf import settings as django_settings

    serve = (django_settings.BASE_DIR / "bin" / "serve").read_text()
    assert "load_demo" not in serve


def test_the_parcellus_demo_has_a_completed_round_and_a_round_in_play_with_byes_pa7_1() -> None:
    from scoring.rounds import _unfinished_tables
    from scoring.standings import standings_compute
    from tables.models import Bye

    call_command("load_demo")
    cup = Tournament.objects.get(slug="demo-parcellus-cup")
    first, second = cup.rounds.order_by("number")
    assert (first.status, second.status) == (Round.Status.COMPLETE, Round.Status.IN_PLAY)
    for round in (first, second):
        assert [t.seats.count() for t in round.tables.order_by("number")] == [3, 3, 3]
        assert Bye.objects.filter(round=round).count() == 1
    byes = Bye.objects.filter(round__tournament=cup).values_list("entry_id", flat=True)
    assert len(set(byes)) == 2  # never the same player twice
    assert _unfinished_tables(second) and not _unfinished_tables(first)
    assert not Deal.objects.filter(table__round__tournament=cup, is_flagged=True).exists()
    standings = standings_compute(tournament=cup)
    assert standings["live_rounds"] == [2]
    assert all(row["place"] is not None for row in standings["players"])


def test_a_hand_and_foot_team_night_is_in_progress_hf11() -> None:
    call_command("load_demo")
    night = Tournament.objects.get(slug="demo-hand-and-foot-night")
    assert night.entries.exclude(team_name="").count() == 9
    one, two = night.rounds.order_by("number")
    assert (one.status, two.status) == (Round.Status.COMPLETE, Round.Status.IN_PLAY)
    for round in (one, two):
        seats = Table.objects.filter(round=round).annotate(teams=Count("seats"))
        assert [table.teams for table in seats] == [2, 2, 2, 2]
        assert round.byes.count() == 1  # nine teams: one out each round (HF11.1)
    assert one.tables.filter(time_called_at__isnull=False).count() == 1  # HF2.2
    scored = Deal.objects.filter(table__round=two, is_void=False)
    assert scored.count() == 6
    assert all(deal.results.count() == 2 for deal in scored)  # a result per team


@pytest.mark.django_db(transaction=True)  # each write commits, its standings task runs then
def test_load_demo_ends_with_the_addresses_and_every_login_and_logs_no_task(caplog) -> None:
    """`make run` (load_demo, then the server): the addresses and the three demo logins are the
    last lines before the server's own, not after a line per standings task."""
    import io
    import logging

    from scoring.demo import PASSWORDS

    caplog.set_level(logging.INFO)
    out = io.StringIO()
    call_command("load_demo", "--accounts", stdout=out)
    assert [r.getMessage() for r in caplog.records if r.name == "celery.app.trace"] == []
    lines = out.getvalue().rstrip().splitlines()
    assert lines[-4] == "  Demo logins (username / password):"
    assert [line.split() for line in lines[-3:]] == [list(login) for login in PASSWORDS.items()]
    assert any(line.strip().startswith("Home") for line in lines)


def test_make_run_echoes_no_command_after_the_logins() -> None:
    """make echoes a recipe's command before running it: the server's must not come between the
    logins and the server's own lines."""
    from itertools import takewhile

    from django.conf import settings as django_settings

    makefile = (django_settings.BASE_DIR / "Makefile").read_text().splitlines()
    after = makefile[makefile.index("run: demo") + 1 :]
    recipe = list(takewhile(lambda line: line.startswith("\t"), after))
    assert recipe and all(line.startswith("\t@") for line in recipe), recipe


def test_the_demo_belongs_to_a_club_whose_members_are_its_players() -> None:
    from clubs.models import Club
    from scoring.demo import CLUB_SLUG, demo_load, hand_and_foot_demo_load
    from tournament.models import Player

    demo_load(accounts=True)
    hand_and_foot_demo_load(accounts=False)
    club = Club.objects.get(slug=CLUB_SLUG)
    assert set(club.tournaments.values_list("slug", flat=True)) == {
        "demo-kalooki-open", "demo-hand-and-foot-night"
    }  # fmt: skip
    assert not Player.objects.filter(member__isnull=True).exists()
    assert club.members.count() == len(set(Player.objects.values_list("name", flat=True)))
    assert club.directors.filter(username="director").exists()
