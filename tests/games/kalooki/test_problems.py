"""Problems: every refusal, error and warning cites its rule in words a person understands."""

from games.kalooki import Problem


def test_a_problem_message_always_ends_citing_its_rule():
    problem = Problem("R3.5", "two jokers side by side in a four")
    assert problem.message == "two jokers side by side in a four (R3.5)"
    assert str(problem) == problem.message


def test_a_message_that_already_cites_its_rule_is_left_alone():
    assert Problem("R10.3", "card 2 is not a card (R10.3, R11)").message == (
        "card 2 is not a card (R10.3, R11)"
    )


def test_a_problem_reads_as_plain_data():
    assert Problem("R10.2", "Ann went out", "Ann").to_dict() == {
        "rule": "R10.2",
        "message": "Ann went out (R10.2)",
        "player": "Ann",
    }
