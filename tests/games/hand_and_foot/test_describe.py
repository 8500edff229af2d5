"""A ruleset in words, as the set-up page and the printed rules show it."""

from .builders import CLUB, rules


def test_the_club_sheet_in_words():
    assert CLUB.describe() == (
        "Four decks with eight jokers (216 cards); two teams of two, partners sitting "
        "opposite (HF1).",
        "A game is three hands with opening meld minimums of 90, 120 and 150, time permitting "
        "within 1 h 30 (the players are warned 15 minutes before time); the director calls "
        "time (HF2).",
        "A red book scores 500 and a black book 300; going out needs two red and two black books "
        "and a discard (HF4, HF5).",
        "Cards count joker 50, ace 20, king to ten 10, nine to four 5, two 20, black three 0, red "
        "three laid aside 0: for the team when laid down, against it when left in hand or in a "
        "foot not played (HF6, HF7).",
        "A red three left in hand -500; going out +100; picking up and dealing exactly 26 cards "
        "+100; a failed meld -100 (HF6).",
        "The higher total wins the game; a tie is settled at once by a short play-off or a "
        "high-card draw, as the director decides (HF10).",
        "Standings: games won, then total points (HF11.2).",
        "A bye counts as the team's average over the rounds it played (HF11.1).",
    )


def test_every_setting_shows_in_words():
    lines = rules(
        decks=5,
        jokers=10,
        minutes=45,
        warning_minutes=0,
        bye_rule="win",
        bye_points=30,
        tie_breaks=["books", "latest_round"],
        red_books_to_go_out=1,
    ).describe()
    assert lines[0].startswith("Five decks with 10 jokers (270 cards)")
    assert "within 45 minutes; the director" in lines[1]
    assert "needs one red and two black books" in lines[2]
    assert (
        lines[6] == "Standings: games won, then books made and points in the latest round (HF11.2)."
    )
    assert lines[7] == "A bye counts as a game won with 30 points (HF11.1)."
    assert rules(bye_rule="nothing").describe()[7].startswith("A bye counts as nothing")
    assert "share a place" in rules(tie_breaks=[]).describe()[6]
