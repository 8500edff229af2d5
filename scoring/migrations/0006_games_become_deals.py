"""Games become deals and hand results deal results (issue #12): the protocol's words.

Step one of three: the renames and the new columns, beside the old Kalooki columns, which
`0007_deal_results_from_kalooki_columns` reads and `0008_drop_kalooki_columns` then removes.
"""

from django.db import migrations, models

OLD_CONSTRAINTS = {
    "game": [
        "game_attempt_unique",
        "game_one_scored_attempt",
        "game_number_range",
        "game_attempt_positive",
        "game_void_not_down_and_out",
    ],
    "handresult": [
        "hand_one_result_per_player",
        "hand_one_player_went_out",
        "hand_went_out_scores_no_cards",
        "hand_total_adds_up",
    ],
    "resultrevision": ["revision_version_unique", "revision_one_confirmed_per_game"],
    "ruling": ["ruling_has_a_subject"],
}


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0005_round_clock_director_calls_flag_review"),
        ("tournament", "0006_tournament_plays_a_game"),
        ("tables", "0001_initial"),
    ]

    operations = [
        *(
            migrations.RemoveConstraint(model_name=model, name=name)
            for model, names in OLD_CONSTRAINTS.items()
            for name in names
        ),
        migrations.RenameModel("Game", "Deal"),
        migrations.RenameModel("HandResult", "DealResult"),
        migrations.RenameField("dealresult", "game", "deal"),
        migrations.RenameField("resultrevision", "game", "deal"),
        migrations.RenameField("ruling", "game", "deal"),
        migrations.AlterField(
            model_name="deal",
            name="table",
            field=models.ForeignKey(
                on_delete=models.deletion.CASCADE, related_name="deals", to="tables.table"
            ),
        ),
        migrations.AlterField(
            model_name="dealresult",
            name="deal",
            field=models.ForeignKey(
                on_delete=models.deletion.CASCADE, related_name="results", to="scoring.deal"
            ),
        ),
        migrations.AlterField(
            model_name="dealresult",
            name="entry",
            field=models.ForeignKey(
                on_delete=models.deletion.PROTECT,
                related_name="deal_results",
                to="tournament.entry",
            ),
        ),
        migrations.AlterField(
            model_name="resultrevision",
            name="deal",
            field=models.ForeignKey(
                on_delete=models.deletion.CASCADE, related_name="revisions", to="scoring.deal"
            ),
        ),
        migrations.AlterField(
            model_name="ruling",
            name="deal",
            field=models.ForeignKey(
                blank=True, null=True, on_delete=models.deletion.PROTECT, to="scoring.deal"
            ),
        ),
        migrations.AddField(
            model_name="deal",
            name="detail",
            field=models.JSONField(
                blank=True,
                default=dict,
                help_text="The deal-level detail the game reports (Kalooki: down and out, R8.3).",
            ),
        ),
        migrations.AddField(
            model_name="dealresult",
            name="side",
            field=models.PositiveSmallIntegerField(
                null=True, help_text="The side's index at the table, from 0."
            ),
        ),
        migrations.AddField(
            model_name="dealresult",
            name="points",
            field=models.IntegerField(default=0, help_text="The deal's score before rulings."),
        ),
        migrations.AddField(
            model_name="dealresult",
            name="entered",
            field=models.JSONField(
                blank=True,
                default=dict,
                help_text="What was entered for this side, as the game read it.",
            ),
        ),
        migrations.AddField(
            model_name="dealresult",
            name="detail",
            field=models.JSONField(blank=True, default=dict, help_text="The game's breakdown."),
        ),
    ]
