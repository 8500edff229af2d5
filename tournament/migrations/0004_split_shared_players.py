"""Players belong to one tournament's records (issue #17, finding 6).

Until now a Player row was reused by name and club across tournaments, so one director could
read and change another's player. Each shared row is split: the tournament of its earliest entry
keeps the row (and its id), every other tournament gets a copy (name, club, email, created_at)
and its entry points at the copy. Results, seats and rulings point at entries, not players, so
every result stays with the right person. A player with no entry belongs to no tournament that
anyone can reach; such rows are deleted. 0005 then makes the tournament required.
"""

from django.db import migrations


def split_shared_players(apps, schema_editor):
    Player = apps.get_model("tournament", "Player")
    Entry = apps.get_model("tournament", "Entry")
    Player.objects.filter(entries__isnull=True).delete()
    for player in Player.objects.order_by("pk").iterator():
        entries = list(Entry.objects.filter(player=player).order_by("pk"))
        player.tournament_id = entries[0].tournament_id
        player.save(update_fields=["tournament"])
        for entry in entries[1:]:
            entry.player = _copy(Player, player, entry.tournament_id)
            entry.save(update_fields=["player"])


def _copy(Player, player, tournament_id):
    copy = Player.objects.create(
        tournament_id=tournament_id, name=player.name, club=player.club, email=player.email
    )
    Player.objects.filter(pk=copy.pk).update(created_at=player.created_at)  # auto_now_add
    return copy


def join_copies_back(apps, schema_editor):
    """Going back, a copy stays a row of its own: the old schema allowed that too."""


class Migration(migrations.Migration):
    dependencies = [("tournament", "0003_player_belongs_to_one_tournament")]

    operations = [migrations.RunPython(split_shared_players, join_copies_back)]
