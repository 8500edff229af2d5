"""A tournament's game and ruleset: asked for as a request, checked by the game setting by setting,
stored whole, and frozen once a round exists (R13)."""

import datetime

import pytest

from games.kalooki import ASAJ_2025, PRESETS
from tests.factories import RoundFactory
from tournament.models import Round, Tournament
from tournament.selectors import ruleset_summary
from tournament.services import (
    RulesetRefused,
    RulesFrozen,
    TournamentError,
    tournament_create,
    tournament_update,
)

pytestmark = pytest.mark.django_db
DAY = datetime.date(2026, 5, 2)
SEVEN_GAMES = [
    {"number": n, "dealt": d, "contract": c}
    for n, d, c in [(1, 9, "333"), (2, 10, "334"), (3, 11, "344"), (4, 12, "444"),
                    (5, 12, "3333"), (6, 13, "3334"), (7, 14, "3344")]
]  # fmt: skip


def create(by, **fields) -> Tournament:
    return tournament_create(by=by, name="Club Night", starts_on=DAY, ends_on=DAY, **fields)


# Each house rule (R13) set in a request is stored, and the tournament plays by it.
SWITCHES = [
    ("games", SEVEN_GAMES, lambda r: len(r.games) == 7),
    ("table_size", 4, lambda r: r.table_size == 4),
    ("packs", 2, lambda r: (r.packs, r.max_copies) == (2, 2)),  # a card exists once a pack
    ("jokers", 4, lambda r: r.jokers == 4),
    ("min_naturals_in_three", 1, lambda r: r.min_naturals_in_three == 1),
    ("joker_exchange", True, lambda r: r.joker_exchange),
    ("call_limit", 2, lambda r: (r.call_limit, r.assumed_calls_when_unknown) == (2, 2)),
    ("calls_after_coming_down", True, lambda r: r.calls_after_coming_down),
    ("failed_come_down_penalty", 25, lambda r: r.failed_come_down_penalty == 25),
    ("overcall_penalty", 30, lambda r: r.overcall_penalty == 30),
    ("double_on_down_and_out", False, lambda r: not r.double_on_down_and_out),
    ("double_penalties_on_down_and_out", True, lambda r: r.double_penalties_on_down_and_out),
    ("card_challenge", True, lambda r: r.card_challenge),
    ("challenge_penalty", 100, lambda r: r.challenge_penalty == 100),
    ("card_values", {"joker": 25, "black_ace": 1}, lambda r: r.card_values.joker == 25),
    ("tie_breaks", ["latest_round_score"], lambda r: r.tie_breaks == ("latest_round_score",)),
]


@pytest.mark.parametrize(("setting", "value", "played"), SWITCHES, ids=[s[0] for s in SWITCHES])
def test_each_house_rule_is_stored_and_played(bob, setting, value, played) -> None:
    club = create(bob, ruleset={"preset": "asaj-2025", setting: value})
    club = Tournament.objects.get(pk=club.pk)
    assert played(club.rules().ruleset)
    request = ruleset_summary(tournament=club).request
    assert request["preset"] == "asaj-2025" and setting in request


def test_a_preset_by_name_alone_is_copied_whole(bob) -> None:
    club = create(bob, ruleset="club-four")
    assert club.ruleset == PRESETS["club-four"].to_dict()
    assert ruleset_summary(tournament=club).request == {"preset": "club-four"}


def test_no_ruleset_is_the_games_default_preset(bob) -> None:
    assert create(bob).rules().ruleset == ASAJ_2025
    parcellus = create(bob, game="parcellus")
    assert (parcellus.game, ruleset_summary(tournament=parcellus).preset) == (
        "parcellus",
        "shields-2008",
    )


@pytest.mark.parametrize(
    ("asked", "fields"),
    [
        ({"table_size": 2}, {"table_size"}),
        ({"card_values": {"joker": -5}}, {"card_values.joker"}),
        (
            {"games": [{"number": 1, "dealt": 9, "contract": "4444"}]},
            {"games"},
        ),
        ({"table_size": 2, "packs": 9}, {"table_size", "packs"}),
        ({"colour": "red"}, {"colour"}),
        ({"preset": "house"}, {"preset"}),
    ],
    ids=[
        "table of 2",
        "negative card value",
        "contract beyond the deal",
        "two",
        "unknown",
        "preset",
    ],
)
def test_an_unplayable_ruleset_is_refused_field_by_field_and_nothing_is_saved(
    bob, asked, fields
) -> None:
    with pytest.raises(RulesetRefused) as refused:
        create(bob, ruleset=asked)
    assert {problem.field for problem in refused.value.problems} == fields
    assert all(
        problem.rule and problem.rule in problem.message for problem in refused.value.problems
    )
    assert not Tournament.objects.filter(name="Club Night").exists()


def test_a_contract_needing_more_cards_than_are_dealt_says_so(bob) -> None:
    with pytest.raises(RulesetRefused) as refused:
        create(bob, ruleset={"games": [{"number": 1, "dealt": 9, "contract": "4444"}]})
    [problem] = refused.value.problems
    assert "contract 4444 needs at least 16 cards, but only 9 are dealt" in problem.message


def test_an_unknown_game_is_refused_on_its_field(bob) -> None:
    with pytest.raises(TournamentError) as refused:
        create(bob, game="bridge")
    assert refused.value.field == "game" and "kalooki" in refused.value.message


def test_a_ruleset_without_a_preset_changes_only_the_settings_sent(dana, spring) -> None:
    tournament_update(tournament=spring, by=dana, ruleset={"preset": "club-four"})
    tournament_update(tournament=spring, by=dana, ruleset={"call_limit": 2})
    spring.refresh_from_db()
    # The calls the R10.4 check assumes follow the limit, unless the request sets them too.
    assert ruleset_summary(tournament=spring).request == {
        "preset": "club-four",
        "call_limit": 2,
        "assumed_calls_when_unknown": 2,
    }


def test_a_new_game_starts_from_its_default_preset(dana, spring) -> None:
    tournament_update(tournament=spring, by=dana, ruleset={"preset": "club-four"})
    tournament_update(tournament=spring, by=dana, game="parcellus")
    spring.refresh_from_db()
    summary = ruleset_summary(tournament=spring)
    assert (summary.game, summary.request) == ("parcellus", {"preset": "shields-2008"})
    changes = spring.audit.order_by("-at", "-id").first().detail["changes"]
    assert changes["game"] == ["kalooki", "parcellus"]
    assert changes["ruleset"] == [{"preset": "club-four"}, {"preset": "shields-2008"}]


def test_an_unplayable_change_keeps_the_stored_ruleset(dana, spring) -> None:
    with pytest.raises(RulesetRefused):
        tournament_update(tournament=spring, by=dana, ruleset={"jokers": 13}, venue="Mandeville")
    spring.refresh_from_db()
    assert (spring.rules().ruleset, spring.venue) == (ASAJ_2025, "Half Way Tree")
    assert not spring.audit.exists()


def test_a_draft_round_holds_the_rules_until_it_is_removed(dana, spring) -> None:
    RoundFactory(tournament=spring, number=1, status=Round.Status.DRAFT)
    with pytest.raises(RulesFrozen, match="Round 1 is seated as a draft under these rules"):
        tournament_update(tournament=spring, by=dana, ruleset="club-four")
    spring.rounds.all().delete()
    tournament_update(tournament=spring, by=dana, ruleset="club-four")
    spring.refresh_from_db()
    assert spring.rules().ruleset == PRESETS["club-four"]


def test_frozen_rules_are_refused_before_the_settings_are_read(dana, spring) -> None:
    RoundFactory(tournament=spring, number=1, status=Round.Status.LOCKED)
    with pytest.raises(RulesFrozen, match="round 1 has been published"):
        tournament_update(tournament=spring, by=dana, ruleset={"table_size": 2})
    with pytest.raises(RulesFrozen):
        tournament_update(tournament=spring, by=dana, game="parcellus")


def test_the_same_rules_sent_again_once_frozen_change_nothing(dana, spring) -> None:
    RoundFactory(tournament=spring, number=1, status=Round.Status.PUBLISHED)
    tournament_update(tournament=spring, by=dana, ruleset={"preset": "asaj-2025"}, game="kalooki")
    assert not spring.audit.exists()


def test_the_ruleset_in_words_and_as_a_request(bob) -> None:
    club = create(bob, ruleset={"preset": "club-four", "games": SEVEN_GAMES})
    summary = ruleset_summary(tournament=club)
    assert summary.changed == ("The games of a set",)
    assert "A set is seven games, played in order (R4)." in summary.words
    assert (summary.table_size, summary.min_table_size, summary.max_table_size) == (4, 3, 5)
    assert (
        "2 packs and 4 jokers: 108 cards; one card exists at most 2 times (R1.2)." in summary.words
    )
