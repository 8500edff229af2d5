"""Set-up, players and entry status: what a director may do, and the reasons when not."""

import datetime
import re

import pytest

from games.kalooki import ASAJ_2025, PRESETS
from scoring.models import DealResult
from tables.models import Seat
from tests.factories import (
    DealResultFactory,
    EntryFactory,
    PlayerFactory,
    RoundFactory,
    SeatFactory,
    TournamentFactory,
)
from tournament.models import AuditEvent, Entry, Player, Round, StaffRole, Tournament
from tournament.permissions import tournament_for_director
from tournament.services import (
    RulesFrozen,
    TournamentError,
    entries_check_in_all,
    entry_check_in,
    entry_disqualify,
    entry_lift_disqualification,
    entry_reinstate,
    entry_undo_check_in,
    entry_withdraw,
    player_add,
    tournament_create,
    tournament_update,
)

pytestmark = pytest.mark.django_db
Status = Entry.Status
APRIL_18, APRIL_19 = datetime.date(2026, 4, 18), datetime.date(2026, 4, 19)


def create(by, **fields) -> Tournament:
    values = {"name": "Summer Slam", "starts_on": APRIL_18, "ends_on": APRIL_19} | fields
    return tournament_create(by=by, **values)


def last_event(tournament: Tournament) -> AuditEvent:
    return tournament.audit.order_by("-at", "-id").first()


# Setting up a tournament


def test_the_creator_directs_the_new_tournament(bob) -> None:
    summer = create(bob, venue="  Ocho   Rios ", rounds_planned=5)
    assert tournament_for_director(bob, summer.slug) == summer
    assert summer.staff.get().role == StaffRole.Role.DIRECTOR
    assert (summer.venue, summer.rounds_planned, summer.is_published) == ("Ocho Rios", 5, False)


def test_the_address_is_made_from_the_name_and_never_clashes(bob) -> None:
    slugs = [create(bob, name="Spring Open!").slug for _ in range(3)]
    assert slugs == ["spring-open", "spring-open-2", "spring-open-3"]


def test_new_is_no_tournament_address_since_it_is_the_create_page(bob) -> None:
    assert create(bob, name="New").slug == "new-2"
    with pytest.raises(TournamentError) as refused:
        create(bob, slug="new")
    assert refused.value.field == "slug"


def test_a_chosen_address_that_is_taken_is_refused(bob, spring) -> None:
    with pytest.raises(TournamentError, match="“spring-open” is taken") as refused:
        create(bob, slug="spring-open")
    assert refused.value.field == "slug"


def test_the_new_tournament_keeps_its_own_copy_of_the_preset(bob) -> None:
    summer = create(bob)
    summer.refresh_from_db()
    assert summer.rules().ruleset == ASAJ_2025


@pytest.mark.parametrize(
    ("fields", "field", "words"),
    [
        ({"ends_on": datetime.date(2026, 4, 17)}, "ends_on", "cannot end (17 Apr 2026) before"),
        ({"rounds_planned": 0}, "rounds_planned", "at least one round (R12.1)"),
        ({"name": "   "}, "name", "Give the tournament a name"),
        ({"ruleset": "house-rules"}, "ruleset", "there is no preset called 'house-rules'"),
        ({"game": "bridge"}, "game", "there is no game called 'bridge'"),
    ],
)
def test_a_set_up_that_cannot_be_is_refused(bob, fields, field, words) -> None:
    with pytest.raises(TournamentError) as refused:
        create(bob, **fields)
    assert refused.value.field == field and words in refused.value.message
    assert not Tournament.objects.filter(name="Summer Slam").exists()


def test_creating_a_tournament_is_in_its_audit_log(bob) -> None:
    event = last_event(create(bob))
    assert (event.actor, event.action) == (bob, "tournament.create")


def test_a_director_changes_the_set_up_and_the_log_keeps_before_and_after(dana, spring) -> None:
    tournament_update(
        tournament=spring, by=dana, venue="Mandeville", ends_on=datetime.date(2026, 4, 20)
    )
    spring.refresh_from_db()
    assert (spring.venue, spring.ends_on) == ("Mandeville", datetime.date(2026, 4, 20))
    event = last_event(spring)
    assert (event.actor, event.action) == (dana, "tournament.update")
    assert event.detail["changes"]["venue"] == ["Half Way Tree", "Mandeville"]
    assert event.detail["changes"]["ends_on"] == ["2026-04-19", "2026-04-20"]


def test_saving_an_unchanged_set_up_records_nothing(dana, spring) -> None:
    tournament_update(tournament=spring, by=dana, venue="Half Way Tree", ruleset="asaj-2025")
    assert not spring.audit.exists()


def test_an_update_that_cannot_be_is_refused_and_nothing_changes(dana, spring) -> None:
    with pytest.raises(TournamentError, match="cannot end"):
        tournament_update(tournament=spring, by=dana, starts_on=datetime.date(2026, 5, 1))
    spring.refresh_from_db()
    assert spring.starts_on == APRIL_18


def test_the_ruleset_can_change_before_any_round(dana, spring) -> None:
    tournament_update(tournament=spring, by=dana, ruleset={"preset": "club-four"})
    spring.refresh_from_db()
    assert spring.rules().ruleset == PRESETS["club-four"]
    before_after = last_event(spring).detail["changes"]["ruleset"]
    assert before_after == [{"preset": "asaj-2025"}, {"preset": "club-four"}]


def test_the_ruleset_never_changes_under_games_already_played(dana, spring) -> None:
    RoundFactory(tournament=spring, number=1, status=Round.Status.PUBLISHED)
    with pytest.raises(RulesFrozen, match="round 1 has been published") as refused:
        tournament_update(tournament=spring, by=dana, ruleset="club-four", venue="Mandeville")
    assert refused.value.field == "ruleset"
    spring.refresh_from_db()
    assert (spring.rules().ruleset, spring.venue) == (ASAJ_2025, "Half Way Tree")


def test_fewer_rounds_than_already_exist_cannot_be_planned(dana, spring) -> None:
    for number in (1, 2, 3):
        RoundFactory(tournament=spring, number=number)
    with pytest.raises(TournamentError, match="Round 3 already exists: plan at least 3"):
        tournament_update(tournament=spring, by=dana, rounds_planned=2)


def test_the_address_cannot_be_changed_since_printed_links_carry_it(dana, spring) -> None:
    with pytest.raises(TypeError, match="slug"):
        tournament_update(tournament=spring, by=dana, slug="elsewhere")


# Adding players


def test_a_director_enters_a_new_player(dana, spring) -> None:
    entry = player_add(
        tournament=spring, by=dana, name=" Ann  Clarke ", club="Half Way Tree", email="a@b.jm"
    )
    assert (entry.player.name, entry.player.club, entry.player.email) == (
        "Ann Clarke",
        "Half Way Tree",
        "a@b.jm",
    )
    assert (entry.status, entry.is_late_entry) == (Status.REGISTERED, False)
    event = last_event(spring)
    assert (event.actor, event.action, event.detail["entry_id"]) == (dana, "player.add", entry.pk)


def test_a_returning_player_gets_a_record_in_each_tournament(dana, spring) -> None:
    """Records are per tournament: another event's record is neither reused nor
    changed."""
    ann = PlayerFactory(name="Ann Clarke", club="Half Way Tree", email="")
    entry = player_add(
        tournament=spring, by=dana, name="ann clarke", club="HALF WAY TREE", email="ann@x.jm"
    )
    assert entry.player != ann and entry.player.tournament == spring
    ann.refresh_from_db()
    assert ann.email == ""


def test_two_people_with_one_name_are_told_apart_by_club(dana, spring) -> None:
    first = player_add(tournament=spring, by=dana, name="Ann Clarke", club="Half Way Tree")
    second = player_add(tournament=spring, by=dana, name="Ann Clarke", club="Mandeville")
    assert first.player != second.player


def test_the_same_player_cannot_be_entered_twice(dana, spring) -> None:
    player_add(tournament=spring, by=dana, name="Ann Clarke", club="Half Way Tree")
    with pytest.raises(TournamentError) as refused:
        player_add(tournament=spring, by=dana, name="ANN CLARKE", club="half way tree")
    assert refused.value.message == (
        "ANN CLARKE (half way tree) is already entered in this tournament (registered)"
    )
    assert spring.entries.count() == 1


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"name": "  "}, "name", "The name is missing."),
        ({"name": "Ann", "email": "ann@"}, "email", "“ann@” is not an email address."),
        ({"name": "A" * 121}, "name", "The name is longer than 120 characters."),
    ],
)
def test_a_player_record_that_cannot_be_is_refused(dana, spring, fields, field, message) -> None:
    with pytest.raises(TournamentError) as refused:
        player_add(tournament=spring, by=dana, **fields)
    assert (refused.value.field, refused.value.message) == (field, message)
    assert not Player.objects.exists()


def test_after_round_1_a_player_is_entered_only_as_a_late_entry(dana, spring) -> None:
    RoundFactory(tournament=spring, number=1)
    with pytest.raises(TournamentError, match="add them as a late entry") as refused:
        player_add(tournament=spring, by=dana, name="Desmond Brown")
    assert refused.value.field == "late"
    entry = player_add(tournament=spring, by=dana, name="Desmond Brown", late=True)
    assert entry.is_late_entry
    assert "late entry" in last_event(spring).summary


def test_nobody_is_late_before_round_1(dana, spring) -> None:
    with pytest.raises(TournamentError, match="would not be late"):
        player_add(tournament=spring, by=dana, name="Desmond Brown", late=True)


# Entry status


SERVICES = {
    "check in": entry_check_in,
    "undo check-in": entry_undo_check_in,
    "withdraw": entry_withdraw,
    "disqualify": lambda **kw: entry_disqualify(reason="Marked cards", **kw),
    "reinstate": entry_reinstate,
    "lift disqualification": lambda **kw: entry_lift_disqualification(reason="Cleared", **kw),
}
ALLOWED = [
    ("check in", Status.REGISTERED, Status.CHECKED_IN),
    ("undo check-in", Status.CHECKED_IN, Status.REGISTERED),
    ("withdraw", Status.REGISTERED, Status.WITHDRAWN),
    ("withdraw", Status.CHECKED_IN, Status.WITHDRAWN),
    ("disqualify", Status.REGISTERED, Status.DISQUALIFIED),
    ("disqualify", Status.CHECKED_IN, Status.DISQUALIFIED),
    ("disqualify", Status.WITHDRAWN, Status.DISQUALIFIED),
    ("reinstate", Status.WITHDRAWN, Status.REGISTERED),
    ("reinstate", Status.REFUSED, Status.REGISTERED),
    ("lift disqualification", Status.DISQUALIFIED, Status.REGISTERED),
]
REFUSED = [
    ("check in", Status.CHECKED_IN, "Ann Clarke is already checked in."),
    ("check in", Status.WITHDRAWN, "Ann Clarke has withdrawn: reinstate them first"),
    ("check in", Status.DISQUALIFIED, "Ann Clarke is disqualified and cannot check in"),
    ("undo check-in", Status.REGISTERED, "is not checked in, so there is no check-in to undo"),
    ("undo check-in", Status.WITHDRAWN, "Ann Clarke has withdrawn, so there is no check-in"),
    ("undo check-in", Status.DISQUALIFIED, "disqualified, so there is no check-in to undo"),
    ("withdraw", Status.WITHDRAWN, "Ann Clarke has already withdrawn."),
    ("withdraw", Status.DISQUALIFIED, "disqualified, which already takes them out"),
    ("disqualify", Status.DISQUALIFIED, "Ann Clarke is already disqualified."),
    ("reinstate", Status.REGISTERED, "still in the tournament (registered)"),
    ("reinstate", Status.CHECKED_IN, "still in the tournament (checked in)"),
    # R12.4: a disqualification is a ruling; `scoring.rulings.player_reinstate` reverses it.
    ("reinstate", Status.DISQUALIFIED, "disqualified by a director's ruling (R12.4): only "),
    ("lift disqualification", Status.REGISTERED, "still in the tournament (registered)"),
    ("lift disqualification", Status.CHECKED_IN, "still in the tournament (checked in)"),
    ("lift disqualification", Status.WITHDRAWN, "Ann Clarke is withdrawn, so this cannot be"),
    # HF1.2: a refused pairing is re-paired and reinstated before it plays again.
    ("check in", Status.REFUSED, "The director refused the pairing of Ann Clarke (HF1.2)"),
    ("undo check-in", Status.REFUSED, "Ann Clarke is pairing refused, so this cannot be done"),
    ("withdraw", Status.REFUSED, "The pairing of Ann Clarke is refused (HF1.2)"),
    ("disqualify", Status.REFUSED, "Ann Clarke is pairing refused, so this cannot be done"),
    ("lift disqualification", Status.REFUSED, "Ann Clarke is pairing refused, so this cannot"),
]


def ann(spring: Tournament, status: str) -> Entry:
    return EntryFactory(tournament=spring, status=status, player__name="Ann Clarke")


@pytest.mark.parametrize(("action", "before", "after"), ALLOWED)
def test_an_entry_moves_and_the_log_says_who_moved_it(dana, spring, action, before, after) -> None:
    entry = SERVICES[action](entry=ann(spring, before), by=dana)
    entry.refresh_from_db()
    assert entry.status == after and entry.status_changed_at is not None
    event = last_event(spring)
    assert event.actor == dana
    assert event.detail | {"entry_id": entry.pk, "from": before, "to": after} == event.detail


@pytest.mark.parametrize(("action", "before", "message"), REFUSED)
def test_an_impossible_move_is_refused_with_the_reason(
    dana, spring, action, before, message
) -> None:
    entry = ann(spring, before)
    with pytest.raises(TournamentError, match=re.escape(message)):
        SERVICES[action](entry=entry, by=dana)
    entry.refresh_from_db()
    assert entry.status == before
    assert not spring.audit.exists()


def test_every_possible_move_is_either_allowed_or_explained() -> None:
    covered = {(action, before) for action, before, _ in ALLOWED + REFUSED}
    assert covered == {(action, status) for action in SERVICES for status in Status.values}


def test_check_in_is_timed_and_undoing_it_clears_the_time(dana, spring) -> None:
    entry = entry_check_in(entry=ann(spring, Status.REGISTERED), by=dana)
    assert entry.checked_in_at is not None
    entry = entry_undo_check_in(entry=entry, by=dana)
    entry.refresh_from_db()
    assert entry.checked_in_at is None


def test_a_disqualification_needs_a_reason_and_the_log_keeps_it(dana, spring) -> None:
    entry = ann(spring, Status.CHECKED_IN)
    with pytest.raises(TournamentError, match="Give the reason") as refused:
        entry_disqualify(entry=entry, by=dana, reason="   ")
    assert refused.value.field == "reason"
    entry_disqualify(entry=entry, by=dana, reason="Marked cards (R12.4)")
    event = last_event(spring)
    assert event.detail["reason"] == "Marked cards (R12.4)"
    assert event.summary == "Disqualified Ann Clarke (Half Way Tree): Marked cards (R12.4)"


def test_lifting_a_disqualification_needs_a_reason_and_the_log_names_the_ruling(
    dana, spring
) -> None:
    entry = ann(spring, Status.DISQUALIFIED)
    with pytest.raises(TournamentError, match="Give the reason for reinstating Ann") as refused:
        entry_lift_disqualification(entry=entry, by=dana, reason=" ")
    assert refused.value.field == "reason"
    entry_lift_disqualification(entry=entry, by=dana, reason="The deck was marked", ruling_id=7)
    event = last_event(spring)
    assert (event.action, event.detail["reason"], event.detail["ruling"]) == (
        "entry.reinstate",
        "The deck was marked",
        7,
    )
    assert event.summary.endswith("no longer disqualified: The deck was marked")


def test_a_withdrawn_player_keeps_the_scores_already_played(dana, spring) -> None:
    round_1 = RoundFactory(tournament=spring, number=1)
    seat = SeatFactory(table__round=round_1, entry=ann(spring, Status.CHECKED_IN))
    hand = DealResultFactory(deal__table=seat.table, entry=seat.entry, points=35)
    entry_withdraw(entry=seat.entry, by=dana)
    entry_disqualify(entry=seat.entry, by=dana, reason="Left the hall")
    assert DealResult.objects.get(pk=hand.pk).points == 35
    assert Seat.objects.filter(pk=seat.pk).exists()
    assert Entry.objects.get(pk=seat.entry.pk).status == Status.DISQUALIFIED


def test_check_in_all_checks_in_only_the_registered(dana, spring) -> None:
    for status in [Status.REGISTERED] * 3 + [Status.CHECKED_IN, Status.WITHDRAWN]:
        EntryFactory(tournament=spring, status=status)
    other = EntryFactory(tournament=TournamentFactory(), status=Status.REGISTERED)
    assert entries_check_in_all(tournament=spring, by=dana) == 3
    statuses = sorted(spring.entries.values_list("status", flat=True))
    assert statuses == [Status.CHECKED_IN] * 4 + [Status.WITHDRAWN]
    assert Entry.objects.get(pk=other.pk).status == Status.REGISTERED
    event = last_event(spring)
    assert (event.actor, event.action, len(event.detail["entry_ids"])) == (
        dana,
        "entries.check_in_all",
        3,
    )


def test_check_in_all_with_nobody_waiting_does_nothing(dana, spring) -> None:
    EntryFactory(tournament=spring, status=Status.CHECKED_IN)
    assert entries_check_in_all(tournament=spring, by=dana) == 0
    assert not spring.audit.exists()
