"""The Kalooki columns go (their values now live in each row's game data, 0007), and the
constraints every game keeps come back under the protocol's words (issue #12)."""

from django.db import migrations, models
from django.db.models import Q


class Migration(migrations.Migration):
    dependencies = [("scoring", "0007_deal_results_from_kalooki_columns")]

    operations = [
        *(
            migrations.RemoveField(model_name="dealresult", name=name)
            for name in (
                "cards",
                "card_count",
                "card_points",
                "doubled",
                "calls",
                "failed_come_downs",
                "overcall_penalty",
                "penalty_points",
                "total",
            )
        ),
        migrations.RemoveField(model_name="deal", name="down_and_out"),
        migrations.AlterField(
            model_name="dealresult",
            name="side",
            field=models.PositiveSmallIntegerField(help_text="The side's index at the table, from 0."),
        ),
        migrations.AlterField(
            model_name="deal",
            name="number",
            field=models.PositiveSmallIntegerField(
                help_text="From 1 in the match; the game's schedule says how many (Kalooki R4)."
            ),
        ),
        migrations.AlterField(
            model_name="deal",
            name="attempt",
            field=models.PositiveSmallIntegerField(
                default=1, help_text="Goes up after a void deal (Kalooki R9.2)."
            ),
        ),
        migrations.AlterField(
            model_name="resultrevision",
            name="entry",
            field=models.JSONField(
                help_text="The deal's entry as the game returned it (canonical), each side keyed "
                "by its entry id."
            ),
        ),
        migrations.AlterField(
            model_name="resultrevision",
            name="scores",
            field=models.JSONField(help_text="Each side's score as the game computed it."),
        ),
        migrations.AlterModelOptions(
            name="deal", options={"ordering": ["table", "number", "attempt"]}
        ),
        migrations.AlterModelOptions(name="dealresult", options={"ordering": ["deal", "side"]}),
        migrations.AlterModelOptions(
            name="resultrevision", options={"ordering": ["deal", "version"]}
        ),
        migrations.AddConstraint(
            model_name="deal",
            constraint=models.UniqueConstraint(
                fields=("table", "number", "attempt"), name="deal_attempt_unique"
            ),
        ),
        migrations.AddConstraint(
            model_name="deal",
            constraint=models.UniqueConstraint(
                condition=Q(is_void=False), fields=("table", "number"), name="deal_one_scored_attempt"
            ),
        ),
        migrations.AddConstraint(
            model_name="deal",
            constraint=models.CheckConstraint(condition=Q(number__gte=1), name="deal_number_positive"),
        ),
        migrations.AddConstraint(
            model_name="deal",
            constraint=models.CheckConstraint(condition=Q(attempt__gte=1), name="deal_attempt_positive"),
        ),
        migrations.AddConstraint(
            model_name="dealresult",
            constraint=models.UniqueConstraint(fields=("deal", "entry"), name="result_one_per_entry"),
        ),
        migrations.AddConstraint(
            model_name="dealresult",
            constraint=models.UniqueConstraint(fields=("deal", "side"), name="result_one_per_side"),
        ),
        migrations.AddConstraint(
            model_name="dealresult",
            constraint=models.UniqueConstraint(
                condition=Q(went_out=True), fields=("deal",), name="result_one_side_went_out"
            ),
        ),
        migrations.AddConstraint(
            model_name="resultrevision",
            constraint=models.UniqueConstraint(
                fields=("deal", "version"), name="revision_version_unique"
            ),
        ),
        migrations.AddConstraint(
            model_name="resultrevision",
            constraint=models.UniqueConstraint(
                condition=Q(status="confirmed"),
                fields=("deal",),
                name="revision_one_confirmed_per_deal",
            ),
        ),
        migrations.AddConstraint(
            model_name="ruling",
            constraint=models.CheckConstraint(
                condition=Q(entry__isnull=False) | Q(table__isnull=False) | Q(deal__isnull=False),
                name="ruling_has_a_subject",
            ),
        ),
    ]
