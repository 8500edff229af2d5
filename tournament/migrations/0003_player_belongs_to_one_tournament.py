"""Players belong to one tournament's records (issue #17, finding 6): each player gets a
tournament (nullable until 0004 has filled it in, 0005 makes it required). Three migrations, each
in a transaction of its own, since PostgreSQL alters or indexes no table with row changes of
the same transaction pending."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("tournament", "0002_entry_status_dated_from_registration")]

    operations = [
        migrations.AddField(
            model_name="player",
            name="tournament",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="players",
                to="tournament.tournament",
            ),
        ),
    ]
