"""A player's tournament is required; an entry is of one player, and deleting a tournament takes
its players and entries together (RESTRICT, not PROTECT). After 0004 has given every player
its tournament."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("tournament", "0004_split_shared_players")]

    operations = [
        migrations.AlterField(
            model_name="player",
            name="tournament",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="players",
                to="tournament.tournament",
            ),
        ),
        migrations.AlterField(
            model_name="entry",
            name="player",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.RESTRICT,
                related_name="entries",
                to="tournament.player",
            ),
        ),
        migrations.AddConstraint(
            model_name="entry",
            constraint=models.UniqueConstraint(fields=("player",), name="entry_one_per_player"),
        ),
    ]
