"""Laws of the engine that hold for every hand (hypothesis): swapping the teams swaps the scores,
the deck's limits hold in every accepted entry, a score is the sum of its parts, and every
example entry is valid for every hand of every preset."""

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from games.base import DealReport, SideReport
from games.cards import JOKER, NATURALS, format_cards, parse_cards
from games.hand_and_foot import GAME, PRESETS
from games.hand_and_foot.books import books_fit
from games.hand_and_foot.deck import Kind, kind_of
from games.hand_and_foot.scoring import PARTS

from .builders import CLUB, swapped

SETTINGS = {"max_examples": 150, "deadline": None}
seeds = st.integers(0, 2**32)
hand_numbers = st.sampled_from((1, 2, 3))
cards = st.sampled_from((*NATURALS, JOKER))


def example(seed, number, game=CLUB):
    return game.example_report(number, 2, random.Random(seed))


@settings(**SETTINGS)
@given(seeds, st.sampled_from(sorted(PRESETS)))
def test_every_example_report_is_valid_for_every_hand_of_every_preset(seed, preset):
    game = GAME.rules(PRESETS[preset])
    rng = random.Random(seed)
    scores = []
    for number in range(1, game.ruleset.hands + 1):
        evaluation = game.evaluate(game.example_report(number, 2, rng), scores)
        assert evaluation.ok, [str(problem) for problem in evaluation.errors]
        assert {w.rule for w in evaluation.warnings} <= {"HF8.8", "HF8.9", "HF8.10"}
        scores.append(evaluation.score)
    assert game.next_deal(scores) is None


@settings(**SETTINGS)
@given(seeds, hand_numbers)
def test_swapping_the_teams_swaps_the_scores(seed, number):
    entry = example(seed, number)
    score = CLUB.evaluate(entry, _before(number)).score
    mirror = CLUB.evaluate(swapped(entry), _before(number)).score
    assert [side.points for side in mirror.sides] == [side.points for side in score.sides][::-1]
    assert [side.detail for side in mirror.sides] == [side.detail for side in score.sides][::-1]


@settings(**SETTINGS)
@given(seeds, hand_numbers, st.data())
def test_swapping_the_teams_swaps_the_problems(seed, number, data):
    entry = _roughened(example(seed, number), data)
    straight = CLUB.evaluate(entry, _before(number))
    mirror = CLUB.evaluate(swapped(entry), _before(number))
    flip = {None: None, 0: 1, 1: 0}
    assert Counter((p.rule, p.field, flip[p.side], p.member) for p in straight.errors) == Counter(
        (p.rule, p.field, p.side, p.member) for p in mirror.errors
    )


@settings(**SETTINGS)
@given(seeds, hand_numbers)
def test_a_score_is_the_sum_of_its_parts(seed, number):
    score = CLUB.evaluate(example(seed, number), _before(number)).score
    for side in score.sides:
        assert side.points == sum(side.detail["parts"][name] for name in PARTS)
        assert set(side.detail["parts"]) == set(PARTS)


@settings(**SETTINGS)
@given(seeds, hand_numbers, st.data())
def test_the_deck_limits_hold_in_every_accepted_entry(seed, number, data):
    entry = _roughened(example(seed, number), data)
    evaluation = CLUB.evaluate(entry, _before(number))
    if not evaluation.ok:
        return
    held = Counter()
    for side in evaluation.entry.sides:
        for member in side.members:
            for name in ("hand", "foot"):
                held.update(kind_of(card) for card in _cards(member.get(name)))
            held[Kind.RED_THREE] += member.get("red_threes", 0)
    deck = CLUB.ruleset.deck
    assert all(held[kind] <= deck.counts[kind] for kind in Kind)
    supply = {kind: deck.counts[kind] - held[kind] for kind in Kind}
    red = sum(side.values.get("red_books", 0) for side in entry.sides)
    black = sum(side.values.get("black_books", 0) for side in entry.sides)
    assert books_fit(supply, red, black)
    laid = sum(side.values.get("laid_down", 0) for side in entry.sides)
    assert laid <= deck.worth


@settings(**SETTINGS)
@given(seeds, hand_numbers)
def test_the_canonical_entry_scores_the_same(seed, number):
    first = CLUB.evaluate(example(seed, number), _before(number))
    again = CLUB.evaluate(first.entry, _before(number))
    assert again.entry == first.entry and again.score == first.score


# --- helpers ------------------------------------------------------------------------------------


def _before(number):
    return [_PLAYED] * (number - 1)


def _cards(text):
    return parse_cards(text) if text else []


def _roughened(entry, data):
    """The example with one team's books raised or one player's hand stuffed with any cards."""
    side = data.draw(st.integers(0, 1))
    sides = list(entry.sides)
    if data.draw(st.booleans()):
        values = dict(sides[side].values)
        values["red_books"] = values.get("red_books", 0) + data.draw(st.integers(0, 14))
        values["black_books"] = values.get("black_books", 0) + data.draw(st.integers(0, 14))
        sides[side] = SideReport(sides[side].label, values, sides[side].members)
    else:
        member = data.draw(st.integers(0, 1))
        members = [dict(m) for m in sides[side].members]
        extra = data.draw(st.lists(cards, max_size=40))
        members[member]["hand"] = format_cards([*_cards(members[member].get("hand")), *extra])
        members[member].pop("hand_points", None)
        sides[side] = SideReport(sides[side].label, sides[side].values, tuple(members))
    return DealReport(entry.number, tuple(sides), entry.values)


_PLAYED = CLUB.evaluate(example(0, 1)).score
