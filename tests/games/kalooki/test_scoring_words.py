"""The words a scorekeeper reads (a score's **reasons**) and the data the score sheet stores
(``to_dict``), each written out here in full from R8, R9.2, R12.4 and R13: a wrong rule number or
a wrong sum in a reason is a defect, as a wrong total is. And the set's counts the tie-breaks read
(R12.3): games won and down-and-outs, player by player."""

import dataclasses

from games.kalooki import ASAJ_2025, GameReport, HandReport, evaluate, score_game, score_set

RULES = ASAJ_2025
DOUBLE_PENALTIES = dataclasses.replace(RULES, double_penalties_on_down_and_out=True)
NO_DOUBLING = dataclasses.replace(RULES, double_on_down_and_out=False)
CHALLENGE = dataclasses.replace(RULES, card_challenge=True)
OUT = HandReport("Ann", went_out=True, cards="")


def reasons(entry: GameReport, rules=RULES) -> dict[str, list[str]]:
    return {line.player: list(line.reasons) for line in score_game(entry, rules).scores}


def test_the_reasons_of_a_down_and_out_game_with_penalties_and_an_adjustment_r8():
    entry = GameReport(
        3,
        (
            HandReport("Ann", went_out=True, cards="", failed_come_downs=1),
            HandReport("Bob", cards="KD 5H", failed_come_downs=2, overcall_penalty=True, calls=4),
            HandReport("Cy", points=7, adjustment=-5),
            HandReport("Di", cards="9C"),
        ),
        down_and_out=True,
    )
    assert reasons(entry) == {
        "Ann": [
            "went out: 0 (R8.1)",
            "failed come-down ×1 = 50 (R5.4)",
            "game score = 0 + 50 = 50 (R8.5)",
        ],
        "Bob": [
            "cards KD 5H = 10 + 5 = 15 (R8.2)",
            "doubled: down and out (R8.3): 15 × 2 = 30",
            "failed come-down ×2 = 100 (R5.4)",
            "overcall = 50 (R6.3)",
            "penalties not doubled (R8.4)",
            "game score = 30 + 150 = 180 (R8.5)",
        ],
        "Cy": [
            "points entered = 7 (R8.2)",
            "doubled: down and out (R8.3): 7 × 2 = 14",
            "director adjustment -5 (R12.4)",
            "game score = 14 - 5 = 9 (R8.5)",
        ],
        "Di": [
            "cards 9C = 9 (R8.2)",
            "doubled: down and out (R8.3): 9 × 2 = 18",
            "game score = 18 (R8.5)",
        ],
    }


def test_a_ruleset_that_doubles_penalties_says_so_r8_4():
    entry = GameReport(
        1,
        (OUT, HandReport("Bob", points=4, failed_come_downs=1), HandReport("Cy", points=2)),
        down_and_out=True,
    )
    assert reasons(entry, DOUBLE_PENALTIES)["Bob"] == [
        "points entered = 4 (R8.2)",
        "doubled: down and out (R8.3): 4 × 2 = 8",
        "failed come-down ×1 = 100 (R5.4)",
        "penalties doubled too, by this ruleset (R8.4)",
        "game score = 8 + 100 = 108 (R8.5)",
    ]


def test_a_ruleset_whose_down_and_out_doubles_nothing_says_so_r13_8():
    entry = GameReport(
        1,
        (OUT, HandReport("Bob", points=4, adjustment=3), HandReport("Cy", points=2)),
        down_and_out=True,
    )
    assert reasons(entry, NO_DOUBLING)["Bob"] == [
        "points entered = 4 (R8.2)",
        "not doubled: this ruleset's down and out doubles nothing (R13.8)",
        "director adjustment +3 (R12.4)",
        "game score = 4 + 3 = 7 (R8.5)",
    ]


def test_the_reasons_of_the_challenges_lost_r13_9():
    challenged = "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH 2S 3S 4S 5S 6S 7S 8S"  # 19 cards, 119
    entry = GameReport(
        9,
        (
            HandReport("Ann", went_out=True, cards=""),
            HandReport("Bob", cards=challenged, calls=3, challenge="challenged"),
            HandReport("Cy", cards="KD 5H", challenge="challenger"),
        ),
        down_and_out=True,
    )
    got = reasons(entry, CHALLENGE)
    assert got["Bob"][1:] == [
        "not doubled: counted when they left the game on losing the challenge (R13.9)",
        "lost the 18-card challenge: challenged, held more than 18 cards = 50 (R13.9)",
        "game score = 119 + 50 = 169 (R8.5)",
    ]
    assert got["Cy"] == [
        "cards KD 5H = 10 + 5 = 15 (R8.2)",
        "not doubled: counted when they left the game on losing the challenge (R13.9)",
        "lost the 18-card challenge: challenged a player who held 18 or fewer = 50 (R13.9)",
        "game score = 15 + 50 = 65 (R8.5)",
    ]


def test_a_void_game_says_why_it_scores_nothing_r9_2():
    entry = GameReport(4, (HandReport("Ann"), HandReport("Bob"), HandReport("Cy")), void=True)
    void = ["void game: no score for anyone (R9.2)"]
    assert reasons(entry) == {"Ann": void, "Bob": void, "Cy": void}


def test_a_game_score_as_stored_every_key_and_value():
    entry = GameReport(
        5,
        (
            HandReport("Ann", points=6, failed_come_downs=1),
            HandReport("Bob", went_out=True, cards=""),
            HandReport("Cy", points=2),
        ),
        down_and_out=True,
    )
    assert score_game(entry, RULES).to_dict() == {
        "game": 5,
        "void": False,
        "down_and_out": True,
        "scores": [
            {
                "player": "Ann",
                "went_out": False,
                "card_points": 6,
                "doubled": True,
                "doubled_points": 12,
                "penalties": 50,
                "adjustment": 0,
                "total": 62,
                "reasons": [
                    "points entered = 6 (R8.2)",
                    "doubled: down and out (R8.3): 6 × 2 = 12",
                    "failed come-down ×1 = 50 (R5.4)",
                    "penalties not doubled (R8.4)",
                    "game score = 12 + 50 = 62 (R8.5)",
                ],
            },
            {
                "player": "Bob",
                "went_out": True,
                "card_points": 0,
                "doubled": False,
                "doubled_points": 0,
                "penalties": 0,
                "adjustment": 0,
                "total": 0,
                "reasons": ["went out: 0 (R8.1)", "game score = 0 (R8.5)"],
            },
            {
                "player": "Cy",
                "went_out": False,
                "card_points": 2,
                "doubled": True,
                "doubled_points": 4,
                "penalties": 0,
                "adjustment": 0,
                "total": 4,
                "reasons": [
                    "points entered = 2 (R8.2)",
                    "doubled: down and out (R8.3): 2 × 2 = 4",
                    "game score = 4 (R8.5)",
                ],
            },
        ],
    }


def a_set() -> list[GameReport]:
    """Nine games of Ann, Bob and Cy: Ann goes out in 1 to 4 (2 and 4 down and out), Bob in 5
    to 8 (6 down and out), Cy in 9; a void attempt of game 3 before it is replayed."""
    winners = {1: "Ann", 2: "Ann", 3: "Ann", 4: "Ann", 5: "Bob", 6: "Bob", 7: "Bob", 8: "Bob"}
    entries = []
    for number in range(1, 10):
        winner = winners.get(number, "Cy")
        hands = tuple(
            HandReport(name, went_out=True, cards="")
            if name == winner
            else HandReport(name, points=1)
            for name in ("Ann", "Bob", "Cy")
        )
        entries.append(GameReport(number, hands, down_and_out=number in (2, 4, 6)))
    void = GameReport(3, tuple(HandReport(name) for name in ("Ann", "Bob", "Cy")), void=True)
    entries.insert(2, void)
    return entries


def test_the_set_counts_games_won_and_down_and_outs_player_by_player_r12_3():
    lines = {line.player: line.to_dict() for line in score_set(a_set(), RULES).players}
    assert lines == {
        # 1 point a game not won, 2 in a game down and out (R8.3)
        "Ann": {"player": "Ann", "total": 4 + 2, "games_won": 4, "down_and_outs": 2},
        "Bob": {"player": "Bob", "total": 3 + 2 * 2, "games_won": 4, "down_and_outs": 1},
        "Cy": {"player": "Cy", "total": 5 + 2 * 3, "games_won": 1, "down_and_outs": 0},
    }


def test_the_words_of_the_hand_size_and_overcall_warnings_r10_5_r10_6():
    """Game 1: 9 cards dealt, 2 more a call (R6.1), a contract of 9 cards (R5.1)."""
    entry = GameReport(
        1,
        (
            OUT,
            HandReport("Bob", cards="2H 3H 4H 5H 6H 7H 8H 9C", calls=1),
            HandReport("Cy", points=3, calls=1, overcall_penalty=True),
        ),
    )
    check, _ = evaluate(entry, RULES)
    words = [(p.rule, p.player, p.field, p.message) for p in check.errors + check.warnings]
    assert words == [
        ("R10.5", "Cy", "overcall_penalty",
         "Cy has an overcall penalty with only 1 call (an overcall is more than 3 calls, R10.5)"),
        ("R10.6", "Bob", "cards",
         "Bob holds 8 cards with 1 call; expected 11 if they never came down, or at most 2 if "
         "they did (R10.6)"),
    ]  # fmt: skip


def test_a_hand_of_the_dealt_size_less_one_with_no_calls_r10_6():
    entry = GameReport(
        1,
        (
            OUT,
            HandReport("Bob", cards="2H 3H 4H 5H 6H 7H 8H 9C", calls=0),
            HandReport("Cy", points=3),
        ),
    )
    check, _ = evaluate(entry, RULES)
    assert [(p.rule, p.player, p.message) for p in check.warnings] == [
        (
            "R10.6",
            "Bob",
            "Bob holds 8 cards with 0 calls; expected 9 if they never came down (R10.6)",
        )
    ]
