"""The players' own phones: self check-in and "my page".

Alice directs the Spring Cup: ten players registered (Ann, Ben, ... Jo), none checked in, and she
opens self check-in. Ann checks herself in from her phone, which then keeps her page. Ben has
withdrawn, Cy is disqualified (R12.4). Zed plays the Autumn Cup, another tournament. Mallory
tries what an attacker would: another tournament's player, a made-up token, a flood of requests.
"""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone, translation

import games
from hall.phone_views import CHECK_IN_LIMIT, MY_COOKIE
from scoring.rounds import round_publish
from tests.factories import EntryFactory, TournamentFactory
from tests.scoring.playing import director_of, entry, published_round, seated_round, tournament_with
from tournament import check_in
from tournament.models import AuditEvent, Entry, Tournament
from tournament.services import Partner, TournamentError, entry_undo_check_in, team_add

pytestmark = pytest.mark.django_db


@pytest.fixture
def cup() -> Tournament:
    cup = tournament_with(10, name="Spring Cup", slug="spring", is_published=True)
    cup.entries.update(status=Entry.Status.REGISTERED)
    cup.entries.filter(player__name="Ben").update(status=Entry.Status.WITHDRAWN)
    cup.entries.filter(player__name="Cy").update(status=Entry.Status.DISQUALIFIED)
    alice = director_of(cup)
    return check_in.check_in_window_open(tournament=cup, by=alice, minutes=30)


@pytest.fixture
def autumn() -> Tournament:
    autumn = tournament_with(1, name="Autumn Cup", slug="autumn", is_published=True)
    autumn.entries.update(status=Entry.Status.REGISTERED)
    autumn.entries.first().player.__class__.objects.filter(tournament=autumn).update(name="Zed")
    return autumn


def check_in_url(tournament: Tournament, entry_id: int) -> str:
    return reverse("hall:check-in-entry", args=[tournament.slug, entry_id])


@pytest.fixture(autouse=True)
def _in_english() -> object:
    with translation.override("en-gb"):
        yield


def alice() -> AbstractBaseUser:
    return get_user_model().objects.get(username="alice")


# --- the service -------------------------------------------------------------------------------


def test_a_registered_player_checks_in_once_and_the_log_says_by_phone(cup: Tournament) -> None:
    ann = entry(cup, "Ann")
    checked = check_in.entry_self_check_in(tournament=cup, entry_id=ann.pk)
    assert (checked.status, checked.checked_in_by_phone) == (Entry.Status.CHECKED_IN, True)
    event = AuditEvent.objects.get(action="entry.self_check_in")
    assert (event.actor, event.detail["entry_id"]) == (None, ann.pk)
    with pytest.raises(TournamentError, match=r"Ann is already checked in.*director.*undo"):
        check_in.entry_self_check_in(tournament=cup, entry_id=ann.pk)


@pytest.mark.parametrize(
    ("name", "reason"),
    [("Ben", r"Ben has withdrawn.*R12\.1"), ("Cy", r"Cy is disqualified.*R12\.4")],
)
def test_a_player_no_longer_in_is_refused_with_the_reason(
    cup: Tournament, name: str, reason: str
) -> None:
    with pytest.raises(TournamentError, match=reason):
        check_in.entry_self_check_in(tournament=cup, entry_id=entry(cup, name).pk)
    assert not Entry.objects.filter(checked_in_by_phone=True).exists()


def test_a_player_of_another_tournament_is_refused(cup: Tournament, autumn: Tournament) -> None:
    zed = autumn.entries.get()
    with pytest.raises(TournamentError, match="not entered in Spring Cup"):
        check_in.entry_self_check_in(tournament=cup, entry_id=zed.pk)
    assert Entry.objects.get(pk=zed.pk).status == Entry.Status.REGISTERED


def test_outside_the_window_nobody_checks_in(cup: Tournament) -> None:
    check_in.check_in_window_close(tournament=cup, by=alice())
    with pytest.raises(TournamentError, match="Self check-in for Spring Cup is closed"):
        check_in.entry_self_check_in(tournament=cup, entry_id=entry(cup, "Ann").pk)
    Tournament.objects.filter(pk=cup.pk).update(
        check_in_until=timezone.now() - timedelta(seconds=1)
    )
    with pytest.raises(TournamentError, match="closed"):
        check_in.entry_self_check_in(tournament=cup, entry_id=entry(cup, "Ann").pk)


def test_the_director_undoes_a_wrong_check_in_and_the_mark_goes(cup: Tournament) -> None:
    ann = check_in.entry_self_check_in(tournament=cup, entry_id=entry(cup, "Ann").pk)
    undone = entry_undo_check_in(entry=ann, by=alice())
    assert (undone.status, undone.checked_in_by_phone) == (Entry.Status.REGISTERED, False)


def test_a_window_of_no_minutes_or_of_days_is_refused(cup: Tournament) -> None:
    for minutes in (0, check_in.LONGEST_WINDOW_MINUTES + 1):
        with pytest.raises(TournamentError, match="1 to 1440 minutes"):
            check_in.check_in_window_open(tournament=cup, by=alice(), minutes=minutes)


def test_a_token_opens_only_its_own_entry() -> None:
    token = check_in.my_page_token(42)
    assert check_in.entry_id_of_token(token) == 42
    digest = token.split("-")[1]
    flipped = digest[:-1] + ("1" if digest[-1] == "0" else "0")
    for forged in (f"43-{digest}", f"42-{flipped}", "42", "-", "x-1", f"{'9' * 20}-{digest}"):
        assert check_in.entry_id_of_token(forged) is None, forged


# --- the pages ---------------------------------------------------------------------------------


def test_the_list_shows_names_and_clubs_never_an_email(cup: Tournament, autumn: Tournament) -> None:
    Entry.objects.filter(tournament=cup).update()
    cup.players.filter(name="Ann").update(email="ann@example.org")
    page = Client().get(reverse("hall:check-in", args=["spring"])).content.decode()
    assert "Ann" in page and "Jo" in page and "Half Way Tree" in page
    assert "ann@example.org" not in page and "Zed" not in page and "Autumn" not in page


def test_three_taps_check_a_player_in_and_the_phone_keeps_their_page(cup: Tournament) -> None:
    phone = Client()
    ann = entry(cup, "Ann")
    listing = phone.get(reverse("hall:check-in", args=["spring"])).content.decode()
    assert check_in_url(cup, ann.pk) in listing  # tap 1: the name
    assert "Yes, check me in" in phone.get(check_in_url(cup, ann.pk)).content.decode()
    done = phone.post(check_in_url(cup, ann.pk))  # tap 2: the button
    token = check_in.my_page_token(ann.pk)
    assert done.status_code == 302
    assert done["Location"] == reverse("hall:my-page", args=[token]) + "?checked_in=1"
    assert Entry.objects.get(pk=ann.pk).status == Entry.Status.CHECKED_IN
    assert token in phone.cookies[MY_COOKIE].value
    again = phone.get(reverse("hall:my-page-here", args=["spring"]))
    assert again["Location"] == reverse("hall:my-page", args=[token])
    listing = phone.get(reverse("hall:check-in", args=["spring"])).content.decode()
    assert "This phone checked in" in listing and reverse("hall:my-page", args=[token]) in listing


def test_another_phone_cannot_check_the_same_player_in_again(cup: Tournament) -> None:
    ann = entry(cup, "Ann")
    Client().post(check_in_url(cup, ann.pk))
    second = Client().post(check_in_url(cup, ann.pk))
    assert second.status_code == 409
    assert "already checked in" in second.content.decode()
    assert MY_COOKIE not in second.cookies


@pytest.mark.parametrize(("name", "words"), [("Ben", "has withdrawn"), ("Cy", "disqualified")])
def test_the_page_refuses_with_the_reason(cup: Tournament, name: str, words: str) -> None:
    refused = Client().post(check_in_url(cup, entry(cup, name).pk))
    assert refused.status_code == 409
    assert words in refused.content.decode()


def test_another_tournaments_player_is_not_found_here(cup: Tournament, autumn: Tournament) -> None:
    zed = autumn.entries.get()
    refused = Client().post(check_in_url(cup, zed.pk))
    assert refused.status_code == 404
    assert "not entered in Spring Cup" in refused.content.decode()
    assert Entry.objects.get(pk=zed.pk).status == Entry.Status.REGISTERED


def test_a_closed_window_says_so_and_checks_nobody_in(cup: Tournament) -> None:
    check_in.check_in_window_close(tournament=cup, by=alice())
    page = Client().get(reverse("hall:check-in", args=["spring"])).content.decode()
    assert "Self check-in is closed" in page
    refused = Client().post(check_in_url(cup, entry(cup, "Ann").pk))
    assert refused.status_code == 409 and "closed" in refused.content.decode()


def test_an_unpublished_tournament_shows_its_list_only_while_open() -> None:
    hidden = tournament_with(3, slug="hidden")
    assert Client().get(reverse("hall:check-in", args=["hidden"])).status_code == 404
    check_in.check_in_window_open(tournament=hidden, by=director_of(hidden))
    assert Client().get(reverse("hall:check-in", args=["hidden"])).status_code == 200


def test_a_flood_from_one_address_is_slowed_and_the_director_is_not(cup: Tournament) -> None:
    mallory = Client(REMOTE_ADDR="203.0.113.9")
    nobody = check_in_url(cup, 999999)
    answers = [mallory.post(nobody).status_code for _ in range(CHECK_IN_LIMIT + 3)]
    assert answers[:CHECK_IN_LIMIT] == [404] * CHECK_IN_LIMIT
    assert answers[CHECK_IN_LIMIT:] == [429] * 3
    slowed = mallory.post(check_in_url(cup, entry(cup, "Ann").pk))
    assert slowed.status_code == 429 and 1 <= int(slowed["Retry-After"]) <= 60
    assert Entry.objects.get(pk=entry(cup, "Ann").pk).status == Entry.Status.REGISTERED
    # Another phone on another address checks in; the director, same address, too.
    assert (
        Client(REMOTE_ADDR="203.0.113.10").post(check_in_url(cup, entry(cup, "Di").pk)).status_code
        == 302
    )
    desk = Client(REMOTE_ADDR="203.0.113.9")
    desk.force_login(alice())
    action = reverse("director:entry-action", args=["spring", entry(cup, "Ed").pk, "check-in"])
    assert desk.post(action).status_code == 302
    assert entry(cup, "Ed").status == Entry.Status.CHECKED_IN


def test_a_tampered_cookie_keeps_nothing(cup: Tournament) -> None:
    phone = Client()
    phone.cookies[MY_COOKIE] = check_in.my_page_token(entry(cup, "Ann").pk)  # not signed
    answer = phone.get(reverse("hall:my-page-here", args=["spring"]))
    assert answer["Location"] == reverse("hall:check-in", args=["spring"])


# --- my page -----------------------------------------------------------------------------------


def test_my_page_shows_the_seat_the_table_and_the_next_round(cup: Tournament) -> None:
    cup.entries.filter(status=Entry.Status.REGISTERED).update(status=Entry.Status.CHECKED_IN)
    ann = entry(cup, "Ann")
    url = reverse("hall:my-page", args=[check_in.my_page_token(ann.pk)])
    phone = Client()
    before = phone.get(url)
    assert "appears here as soon as the director publishes" in before.content.decode()
    published_round(cup)
    page = phone.get(url).content.decode()
    seat = ann.seats.select_related("table").get()
    assert f"Table <strong data-my-table>{seat.table.number}</strong>" in page
    assert f"Seat <strong data-my-seat>{seat.position}</strong>" in page
    for mate in seat.table.seats.select_related("entry__player"):
        assert mate.entry.player.name in page
    second = seated_round(cup, number=2)
    live = phone.get(url + "?live=1")
    etag = live["ETag"]
    assert phone.get(url + "?live=1", HTTP_IF_NONE_MATCH=etag).status_code == 304
    round_publish(round=second, by=None)
    changed = phone.get(url + "?live=1", HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and "Round 2" in changed.content.decode()


def test_a_made_up_token_opens_nothing(cup: Tournament) -> None:
    ann = entry(cup, "Ann")
    forged = f"{ann.pk}-0123456789abcdef"
    assert Client().get(reverse("hall:my-page", args=[forged])).status_code == 404
    assert Client().get(reverse("hall:api-my-page", args=[forged])).status_code == 404


def test_the_api_gives_my_page_with_an_etag(cup: Tournament) -> None:
    cup.entries.filter(status=Entry.Status.REGISTERED).update(status=Entry.Status.CHECKED_IN)
    published_round(cup)
    ann = entry(cup, "Ann")
    url = reverse("hall:api-my-page", args=[check_in.my_page_token(ann.pk)])
    answer = Client().get(url)
    body = answer.json()
    assert (body["name"], body["slug"], body["status"]) == ("Ann", "spring", "checked_in")
    [seat] = body["seats"]
    assert seat["round"] == 1 and [m["is_me"] for m in seat["mates"]].count(True) == 1
    assert "email" not in answer.content.decode()
    assert Client().get(url, HTTP_IF_NONE_MATCH=answer["ETag"]).status_code == 304


def test_the_seat_cards_print_each_players_own_page(cup: Tournament) -> None:
    cup.entries.filter(status=Entry.Status.REGISTERED).update(status=Entry.Status.CHECKED_IN)
    round = published_round(cup)
    desk = Client()
    desk.force_login(alice())
    page = desk.get(reverse("director:print-seat-cards", args=["spring", round.number]))
    text = page.content.decode()
    seated = Entry.objects.filter(seats__round=round)
    assert text.count('class="seat-card"') == seated.count() == 8
    for seat in round.seats.select_related("entry__player", "table"):
        link = reverse("hall:my-page", args=[check_in.my_page_token(seat.entry_id)])
        assert f"{link}</p>" in text and f"QR code of {seat.entry.player.name}" in text


def _queries(url: str) -> int:
    Client().get(url)  # the caches warmed
    with CaptureQueriesContext(connection) as seen:
        assert Client().get(url).status_code == 200
    return len(seen)


def test_the_list_and_my_page_read_as_much_for_forty_players_as_for_eight(cup: Tournament) -> None:
    cup.entries.filter(status=Entry.Status.REGISTERED).update(status=Entry.Status.CHECKED_IN)
    published_round(cup)
    token = check_in.my_page_token(entry(cup, "Ann").pk)
    urls = [
        reverse("hall:check-in", args=["spring"]),
        reverse("hall:my-page", args=[token]),
        reverse("hall:my-page", args=[token]) + "?live=1",
        reverse("hall:api-my-page", args=[token]),
    ]
    before = [_queries(url) for url in urls]
    for index in range(32):
        EntryFactory(tournament=cup, player__name=f"Late {index}", status="registered")
    assert [_queries(url) for url in urls] == before
    assert max(before) <= 12, before


def test_a_partner_finds_their_own_name_and_checks_the_team_in() -> None:
    """Hand and Foot (HF1.2): each partner is listed by name with the team; one checks it in."""
    game = games.get("hand_and_foot")
    night = TournamentFactory(
        slug="night", game=game.key, ruleset=game.dump(game.ruleset()), is_published=True
    )
    desk = director_of(night)
    team = team_add(
        tournament=night,
        by=desk,
        name="Aces",
        partners=(Partner("Ann Lee", email="ann@example.org"), Partner("Cy Moss")),
    )
    check_in.check_in_window_open(tournament=night, by=desk)
    listing = Client().get(reverse("hall:check-in", args=["night"])).content.decode()
    assert "Ann Lee" in listing and "Cy Moss" in listing and "team Aces" in listing
    assert "ann@example.org" not in listing
    done = Client().post(check_in_url(night, team.pk))
    assert done.status_code == 302
    assert Entry.objects.get(pk=team.pk).status == Entry.Status.CHECKED_IN
    page = Client().get(done["Location"]).content.decode()
    assert "Aces" in page, page[page.find("my-name") - 50 : page.find("my-name") + 400]
    assert "Partners: Ann Lee & Cy Moss" in page
