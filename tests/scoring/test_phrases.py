"""The games' phrases said in the reader's language: nested words translated too, the rule
citation kept as it is, and the English left alone where nothing is translated."""

from django.utils import translation

from games.base import Problem, and_list, gettext_noop
from scoring.phrases import problem_message, say, translated


def test_a_list_of_names_is_joined_in_the_readers_language() -> None:
    names = and_list(["Ann", "Ben", "Cy"])
    with translation.override("es"):
        assert say(names) == "Ann, Ben y Cy"
    with translation.override("fr"):
        assert say(names) == "Ann, Ben et Cy"


def test_words_inside_a_sentence_are_translated_with_it_r10_1() -> None:
    who = and_list(["Ann", "Ben"])
    text = gettext_noop("exactly one player goes out in a scored game, not {who}", who=who)
    problem = Problem("R10.1", text, field="went_out")
    with translation.override("fr"):
        said = problem_message(problem)
    assert said == "dans une partie comptée, exactement un joueur sort, pas Ann et Ben (R10.1)"


def test_english_is_the_games_own_message_word_for_word() -> None:
    text = gettext_noop(
        "{player} went out, so scores 0 card points, not {points}", player="Di", points=7
    )
    problem = Problem("R10.2", text, "Di", "points")
    with translation.override("en-gb"):
        assert translated(problem) is problem
        assert problem_message(problem) == "Di went out, so scores 0 card points, not 7 (R10.2)"


def test_a_sentence_nobody_translated_stays_english_and_keeps_its_rule() -> None:
    problem = Problem("HF9", gettext_noop("no translation has {this}", this="this"))
    with translation.override("es"):
        assert problem_message(problem) == "no translation has this (HF9)"
    plain = Problem("PA6.1", "a message made without a phrase")
    with translation.override("fr"):
        assert problem_message(plain) == "a message made without a phrase (PA6.1)"
