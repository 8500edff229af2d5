"""Rulings (R12.4): who decided what and why, points that show in the scores, never deleted.

Alice directs the Open, where ten players sit at two tables in round 1. Bob directs the Cup.
"""

from collections.abc import Callable
from functools import partial

import pytest

from scoring.models import Ruling
from scoring.rulings import (
    RulingError,
    player_reinstate,
    ruling_record,
    ruling_reverse,
    seat_change_by_ruling,
    standing_disqualifications,
)
from scoring.standings import standings_compute
from tables.models import Seat
from tests.factories import EntryFactory, TableFactory
from tests.scoring.playing import (
    director_of,
    entry,
    play,
    play_set,
    published_round,
    seated_round,
    tables_of,
    tournament_with,
)
from tournament.models import AuditEvent, Entry, Round, Tournament
from tournament.services import TournamentError, entry_reinstate

pytestmark = pytest.mark.django_db

Kind = Ruling.Kind


@pytest.fixture
def open_() -> Tournament:
    tournament = tournament_with(10, name="Open")
    published_round(tournament)
    return tournament


@pytest.fixture
def alice(open_):
    return director_of(open_)


@pytest.fixture
def round_one(open_) -> Round:
    """The Open's round 1, published: five players at each of tables 1 and 2."""
    return open_.rounds.get()


@pytest.fixture
def alice_rules(open_, alice) -> Callable[..., Ruling]:
    """Alice records a ruling in the Open: `alice_rules(kind=..., decision=..., entry=...)`."""
    return partial(ruling_record, tournament=open_, by=alice)


def at_table(tournament: Tournament, number: int) -> list[Entry]:
    seats = Seat.objects.filter(round__tournament=tournament, table__number=number)
    return [seat.entry for seat in seats.select_related("entry__player").order_by("position")]


def first_seats(tournament: Tournament) -> tuple[Entry, Entry]:
    """The players in seat 1 at tables 1 and 2 of round 1."""
    return at_table(tournament, 1)[0], at_table(tournament, 2)[0]


def total(tournament: Tournament, player: Entry) -> int:
    return row_of(tournament, player)["total"]


def play_game_one_everywhere(round: Round) -> None:
    """Game 1 at every table of the round, so that the live round counts it: until every table
    has played game 1 nobody is placed and no total counts (README, "Standings the hall can
    read mid-round")."""
    for table in tables_of(round):
        play(table, 1)


def row_of(tournament: Tournament, player: Entry) -> dict:
    """The player's line of the standings, as computed now from the results and rulings."""
    players = standings_compute(tournament=tournament)["players"]
    [row] = [row for row in players if row["entry"] == player.pk]
    return row


class TestRecording:
    def test_a_penalty_records_who_when_what_and_why(self, open_, alice, alice_rules) -> None:
        ann = entry(open_, "Ann")
        ruling = alice_rules(
            kind=Kind.PENALTY_POINTS,
            entry=ann,
            points=25,
            decision="  25 points for showing cards.  ",
            reason="Seen by the director.",
        )
        assert (ruling.decided_by, ruling.points, ruling.entry) == (alice, 25, ann)
        assert ruling.decision == "25 points for showing cards." and ruling.decided_at
        event = AuditEvent.objects.get(action="ruling.record")
        assert event.actor == alice and "Ann" in event.summary and event.detail["points"] == 25

    def test_a_ruling_about_a_game_also_names_its_table_and_round(
        self, open_, round_one, alice_rules
    ) -> None:
        table = tables_of(round_one)[0]
        game = play(table, 1)
        player = at_table(open_, 1)[2]
        ruling = alice_rules(
            kind=Kind.SCORE_CORRECTION,
            entry=player,
            deal=game,
            points=-5,
            decision="A 5 was counted as a 10.",
        )
        assert (ruling.table, ruling.round, ruling.deal) == (table, table.round, game)

    def test_a_warning_about_a_table_needs_no_player(self, round_one, alice_rules) -> None:
        table = tables_of(round_one)[1]
        ruling = alice_rules(kind=Kind.WARNING, table=table, decision="Too loud.")
        assert ruling.entry is None and ruling.points == 0


class TestRefusals:
    @pytest.mark.parametrize(
        ("kind", "points", "message"),
        [
            (Kind.WARNING, 10, "Only penalty points and score corrections carry points"),
            (Kind.TIE_BREAK, -3, "Only penalty points and score corrections carry points"),
            (Kind.PENALTY_POINTS, 0, "needs its points: a number other than 0"),
            (Kind.SCORE_CORRECTION, 0, "needs its points"),
            (Kind.PENALTY_POINTS, -10, "give a positive number, or record a score correction"),
        ],
    )
    def test_points_only_for_penalties_and_corrections(
        self, open_, alice_rules, kind, points, message
    ) -> None:
        ann = entry(open_, "Ann")
        with pytest.raises(RulingError, match=message) as refused:
            alice_rules(kind=kind, entry=ann, points=points, decision="Decided.")
        assert refused.value.field == "points"
        assert not Ruling.objects.exists()

    def test_points_go_to_a_player(self, round_one, alice_rules) -> None:
        table = tables_of(round_one)[0]
        with pytest.raises(RulingError, match="Choose the player") as refused:
            alice_rules(kind=Kind.PENALTY_POINTS, table=table, points=5, decision="5 points.")
        assert refused.value.field == "entry"

    def test_a_ruling_needs_a_subject(self, alice_rules) -> None:
        with pytest.raises(RulingError, match="about a player, a table or a game"):
            alice_rules(kind=Kind.WARNING, decision="Hm.")

    def test_a_ruling_needs_its_decision_in_words(self, open_, alice_rules) -> None:
        with pytest.raises(RulingError, match="Write the decision") as refused:
            alice_rules(kind=Kind.WARNING, entry=entry(open_, "Ann"), decision=" ")
        assert refused.value.field == "decision"

    def test_a_player_of_another_tournament_is_refused(self, alice_rules) -> None:
        stranger = EntryFactory(tournament__name="Cup", player__name="Zed")
        with pytest.raises(RulingError, match="Zed does not play in Open"):
            alice_rules(kind=Kind.WARNING, entry=stranger, decision="No.")

    def test_a_table_of_another_tournament_is_refused(self, alice_rules) -> None:
        elsewhere = TableFactory(round__status=Round.Status.PUBLISHED)
        with pytest.raises(RulingError, match="is not a table of Open") as refused:
            alice_rules(kind=Kind.WARNING, table=elsewhere, decision="No.")
        assert refused.value.field == "table"

    def test_the_player_must_sit_at_the_table_named(self, open_, round_one, alice_rules) -> None:
        stranger = at_table(open_, 2)[0]
        table = tables_of(round_one)[0]
        with pytest.raises(RulingError, match="does not sit at table 1 of round 1"):
            alice_rules(kind=Kind.WARNING, entry=stranger, table=table, decision="Talked.")

    def test_a_game_must_be_of_the_table_named(self, round_one, alice_rules) -> None:
        first, second = tables_of(round_one)
        game = play(first, 1)
        with pytest.raises(RulingError, match="was not played at Table 2"):
            alice_rules(kind=Kind.VOID_REDEAL, table=second, deal=game, decision="Redeal.")

    def test_a_draft_rounds_tables_take_no_ruling(self, alice) -> None:
        tournament = tournament_with(5)
        director = director_of(tournament, "dora")
        table = tables_of(seated_round(tournament))[0]
        with pytest.raises(RulingError, match="Round 1 is a draft: change its seating directly"):
            ruling_record(
                tournament=tournament,
                by=director,
                kind=Kind.WARNING,
                table=table,
                decision="Early.",
            )

    def test_a_seating_change_is_not_recorded_without_moving_seats(
        self, open_, alice_rules
    ) -> None:
        with pytest.raises(RulingError, match="record it from the round's page"):
            alice_rules(kind=Kind.SEATING_CHANGE, entry=entry(open_, "Ann"), decision="Moved.")


class TestDisqualification:
    def test_it_disqualifies_the_player_and_keeps_their_scores(
        self, open_, round_one, alice_rules
    ) -> None:
        play(tables_of(round_one)[0], 1)
        player = at_table(open_, 1)[1]
        decision = "Disqualified for marking cards."
        alice_rules(kind=Kind.DISQUALIFICATION, entry=player, decision=decision)
        player.refresh_from_db()
        assert player.status == Entry.Status.DISQUALIFIED
        row = row_of(open_, player)
        assert (row["status"], row["place"], row["games_played"]) == ("disqualified", None, 1)

    def test_a_disqualified_player_is_not_disqualified_twice(self, open_, alice_rules) -> None:
        ann = entry(open_, "Ann")
        out = {"kind": Kind.DISQUALIFICATION, "entry": ann, "decision": "Out."}
        alice_rules(**out)
        with pytest.raises(RulingError, match="Ann is already disqualified"):
            alice_rules(**out)
        assert Ruling.objects.count() == 1

    def test_reversing_it_reinstates_the_player(self, open_, alice, alice_rules) -> None:
        ann = entry(open_, "Ann")
        ruling = alice_rules(kind=Kind.DISQUALIFICATION, entry=ann, decision="Out.")
        ruling_reverse(ruling=ruling, by=alice, reason="Mistaken identity.")
        ann.refresh_from_db()
        assert ann.status == Entry.Status.REGISTERED  # checks in again, as after any reinstatement


class TestReinstatement:
    """Reinstating a disqualified player reverses the disqualification (R12.4), so that the
    rulings, the standings and the player's status never disagree."""

    def test_it_reverses_the_disqualification_with_the_reason(
        self, open_, round_one, alice, alice_rules
    ) -> None:
        play_game_one_everywhere(round_one)
        player = at_table(open_, 1)[1]
        out = alice_rules(kind=Kind.DISQUALIFICATION, entry=player, decision="Marked cards.")
        reinstated = player_reinstate(entry=player, by=alice, reason="The venue's deck.")
        assert reinstated.status == Entry.Status.REGISTERED
        reversal = out.reversed_by.get()
        assert (reversal.reason, reversal.decided_by, reversal.round) == (
            "The venue's deck.",
            alice,
            round_one,
        )
        assert standing_disqualifications(entry=player) == []
        row = row_of(open_, player)
        assert (row["status"], row["place"] is not None) == ("registered", True)  # placed again

    def test_a_disqualified_player_is_not_reinstated_without_a_reason(
        self, open_, alice, alice_rules
    ) -> None:
        ann = entry(open_, "Ann")
        alice_rules(kind=Kind.DISQUALIFICATION, entry=ann, decision="Out.")
        why = r"Say why Ann is reinstated: it reverses the ruling .* \(R12\.4\)"
        with pytest.raises(RulingError, match=why) as refused:
            player_reinstate(entry=ann, by=alice, reason="  ")
        assert refused.value.field == "reason"
        ann.refresh_from_db()
        assert ann.status == Entry.Status.DISQUALIFIED and Ruling.objects.count() == 1

    def test_a_withdrawn_player_is_reinstated_without_a_ruling(self, open_, alice) -> None:
        ann = entry(open_, "Ann")
        Entry.objects.filter(pk=ann.pk).update(status=Entry.Status.WITHDRAWN)
        assert player_reinstate(entry=ann, by=alice).status == Entry.Status.REGISTERED
        assert not Ruling.objects.exists()

    def test_a_disqualification_left_standing_by_an_old_reinstatement_is_reversed_too(
        self, open_, alice, alice_rules
    ) -> None:
        """Before this fix the players page reinstated a disqualified player directly, leaving
        the ruling standing; reinstating after a second disqualification reverses both."""
        ann = entry(open_, "Ann")
        first = alice_rules(kind=Kind.DISQUALIFICATION, entry=ann, decision="Out.")
        Entry.objects.filter(pk=ann.pk).update(status=Entry.Status.REGISTERED)  # the old way
        second = alice_rules(kind=Kind.DISQUALIFICATION, entry=ann, decision="Out again.")
        assert standing_disqualifications(entry=ann) == [first, second]
        player_reinstate(entry=ann, by=alice, reason="Cleared of both.")
        assert first.reversed_by.exists() and second.reversed_by.exists()
        assert AuditEvent.objects.filter(action="entry.reinstate").count() == 1

    def test_a_player_disqualified_without_a_ruling_is_reinstated_and_the_log_says_why(
        self, open_, alice
    ) -> None:
        ann = entry(open_, "Ann")
        Entry.objects.filter(pk=ann.pk).update(status=Entry.Status.DISQUALIFIED)
        assert player_reinstate(entry=ann, by=alice, reason="Cleared.").status == "registered"
        assert not Ruling.objects.exists()
        event = AuditEvent.objects.get(action="entry.reinstate")
        assert (event.actor, event.detail["reason"]) == (alice, "Cleared.")

    def test_the_tournament_service_alone_refuses_a_disqualified_player(
        self, open_, alice, alice_rules
    ) -> None:
        """The bug: `entry_reinstate` undid the status and left the ruling standing."""
        ann = entry(open_, "Ann")
        alice_rules(kind=Kind.DISQUALIFICATION, entry=ann, decision="Out.")
        with pytest.raises(TournamentError, match="only reversing that ruling"):
            entry_reinstate(entry=ann, by=alice)
        ann.refresh_from_db()
        assert ann.status == Entry.Status.DISQUALIFIED


class TestReversal:
    def test_a_reversal_is_a_new_ruling_with_the_opposite_points(
        self, open_, alice, alice_rules
    ) -> None:
        ann = entry(open_, "Ann")
        decision = "25 for a late return."
        penalty = alice_rules(kind=Kind.PENALTY_POINTS, entry=ann, points=25, decision=decision)
        reversal = ruling_reverse(ruling=penalty, by=alice, reason="She was excused.")
        assert (reversal.kind, reversal.points, reversal.reverses) == (
            Kind.PENALTY_POINTS,
            -25,
            penalty,
        )
        assert reversal.decision.startswith(f"Reverses ruling {penalty.pk}: 25 for a late")
        assert reversal.reason == "She was excused."
        assert Ruling.objects.count() == 2  # the original stays
        assert AuditEvent.objects.filter(action="ruling.reverse").exists()

    def test_a_ruling_is_reversed_once(self, open_, alice, alice_rules) -> None:
        warning = alice_rules(kind=Kind.WARNING, entry=entry(open_, "Ben"), decision="!")
        reversal = ruling_reverse(ruling=warning, by=alice, reason="Wrong player.")
        with pytest.raises(RulingError, match=f"already reversed by ruling {reversal.pk}"):
            ruling_reverse(ruling=warning, by=alice, reason="Again.")
        with pytest.raises(RulingError, match="is itself a reversal"):
            ruling_reverse(ruling=reversal, by=alice, reason="Undo the undo.")

    def test_a_reversal_says_why(self, open_, alice, alice_rules) -> None:
        warning = alice_rules(kind=Kind.WARNING, entry=entry(open_, "Ben"), decision="!")
        with pytest.raises(RulingError, match="Say why") as refused:
            ruling_reverse(ruling=warning, by=alice, reason="  ")
        assert refused.value.field == "reason"

    def test_rulings_flow_into_the_totals(self, open_, round_one, alice, alice_rules) -> None:
        play_game_one_everywhere(round_one)
        player = at_table(open_, 1)[1]  # seat 2 scores 10 + 2 points in game 1
        assert total(open_, player) == 12
        decision = "Failed come-down not entered (R5.4)."
        penalty = alice_rules(kind=Kind.PENALTY_POINTS, entry=player, points=50, decision=decision)
        assert total(open_, player) == 62
        ruling_reverse(ruling=penalty, by=alice, reason="It was entered after all.")
        assert total(open_, player) == 12


class TestSeatChangeByRuling:
    def test_a_swap_after_publishing_is_recorded_as_a_ruling(self, open_, round_one, alice) -> None:
        a, b = first_seats(open_)
        ruling = seat_change_by_ruling(
            round=round_one, by=alice, entry=a, swap_with=b, decision="Swap for a wheelchair."
        )
        assert (ruling.kind, ruling.entry, ruling.round) == (Kind.SEATING_CHANGE, a, round_one)
        assert ruling.table.number == 2
        assert at_table(open_, 1)[0] == b and at_table(open_, 2)[0] == a

    def test_a_move_after_publishing_keeps_tables_within_size_r12_2(
        self, open_, round_one, alice
    ) -> None:
        to_table_two = {"round": round_one, "by": alice, "table": tables_of(round_one)[1]}
        seat_change_by_ruling(entry=at_table(open_, 1)[0], decision="Moved.", **to_table_two)
        assert [len(at_table(open_, n)) for n in (1, 2)] == [4, 6]
        with pytest.raises(RulingError, match="Table 2 would seat more than 6"):
            seat_change_by_ruling(entry=at_table(open_, 1)[0], decision="Moved.", **to_table_two)

    def test_it_is_refused_once_the_table_has_a_result(self, open_, round_one, alice) -> None:
        play(tables_of(round_one)[1], 1)
        a, b = first_seats(open_)
        with pytest.raises(RulingError, match="Table 2 has results already"):
            seat_change_by_ruling(round=round_one, by=alice, entry=a, swap_with=b, decision="Swap.")
        assert at_table(open_, 1)[0] == a and not Ruling.objects.exists()

    def test_a_draft_needs_no_ruling(self, alice) -> None:
        tournament = tournament_with(10)
        round = seated_round(tournament)
        a, b = first_seats(tournament)
        with pytest.raises(RulingError, match="Round 1 is a draft: move or swap the players"):
            seat_change_by_ruling(round=round, by=alice, entry=a, swap_with=b, decision="Swap.")

    def test_a_complete_round_keeps_its_seats(self, alice) -> None:
        tournament = tournament_with(5)
        round = published_round(tournament)
        play_set(tables_of(round)[0])
        Round.objects.filter(pk=round.pk).update(status=Round.Status.COMPLETE)
        a, b = at_table(tournament, 1)[:2]
        with pytest.raises(RulingError, match="Round 1 is complete"):
            seat_change_by_ruling(round=round, by=alice, entry=a, swap_with=b, decision="Swap.")

    def test_either_a_swap_or_a_move(self, open_, round_one, alice) -> None:
        a, b = first_seats(open_)
        with pytest.raises(RulingError, match="Either swap the player with another, or move"):
            seat_change_by_ruling(round=round_one, by=alice, entry=a, decision="Hm.")
        table_two = tables_of(round_one)[1]
        with pytest.raises(RulingError, match="Either swap"):
            seat_change_by_ruling(
                round=round_one, by=alice, entry=a, swap_with=b, table=table_two, decision="Hm."
            )

    def test_a_seating_change_is_undone_by_another_not_by_a_reversal(
        self, open_, round_one, alice
    ) -> None:
        a, b = first_seats(open_)
        ruling = seat_change_by_ruling(
            round=round_one, by=alice, entry=a, swap_with=b, decision="Swap."
        )
        with pytest.raises(RulingError, match="moves the players back"):
            ruling_reverse(ruling=ruling, by=alice, reason="Oops.")


def test_the_players_page_disqualifies_through_a_prefilled_ruling(client) -> None:
    """R12.4: a disqualification is a ruling; the players page opens the rulings form for it."""
    from tests.factories import EntryFactory, StaffRoleFactory

    role = StaffRoleFactory(user__username="dana")
    entry = EntryFactory(tournament=role.tournament, player__name="Errol Thompson")
    client.force_login(role.user)
    players = client.get(f"/director/{role.tournament.slug}/players").content.decode()
    link = f"/director/{role.tournament.slug}/rulings/?kind=disqualification&amp;entry={entry.pk}"
    assert link in players
    form = client.get(link.replace("&amp;", "&")).context["form"]
    assert form.initial == {"kind": "disqualification", "entry": str(entry.pk)}
