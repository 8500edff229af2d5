"""Each existing tournament gets a club, each player a member.

The tournaments one director runs share a club (named after that director), so that a regular's
records at their events become one member; a tournament without a director gets a club of its
own. Within a club, players of the same name and club text (ignoring case and spacing) are one
member: the same person at two events, as the players page has always told them apart.
"""

from django.db import migrations
from django.utils.text import slugify


def _key(name: str, club: str) -> tuple[str, str]:
    return " ".join(name.split()).casefold(), " ".join(club.split()).casefold()


def forwards(apps, schema_editor):
    Tournament = apps.get_model("tournament", "Tournament")
    StaffRole = apps.get_model("tournament", "StaffRole")
    Player = apps.get_model("tournament", "Player")
    Club = apps.get_model("clubs", "Club")
    Member = apps.get_model("clubs", "Member")
    clubs: dict = {}
    taken = set(Club.objects.values_list("slug", flat=True))
    for tournament in Tournament.objects.filter(club__isnull=True).order_by("pk"):
        role = (
            StaffRole.objects.filter(tournament=tournament, role="director")
            .select_related("user")
            .order_by("pk")
            .first()
        )
        owner = ("user", role.user_id) if role else ("tournament", tournament.pk)
        if owner not in clubs:
            name = f"{role.user.username}'s club" if role else f"{tournament.name} club"
            clubs[owner] = Club.objects.create(name=name[:120], slug=_free(name, taken))
            if role:
                clubs[owner].directors.add(role.user_id)
        tournament.club = clubs[owner]
        tournament.save(update_fields=["club"])
    members: dict = {}
    players = Player.objects.filter(member__isnull=True).select_related("tournament")
    for player in players.order_by("pk").iterator():
        club_id = player.tournament.club_id
        key = (club_id, *_key(player.name, player.club))
        if key not in members:
            members[key] = Member.objects.create(club_id=club_id, name=player.name)
        player.member = members[key]
        player.save(update_fields=["member"])


def _free(name: str, taken: set) -> str:
    base = (slugify(name) or "club")[:70]
    slug, n = base, 2
    while slug in taken:
        slug, n = f"{base}-{n}", n + 1
    taken.add(slug)
    return slug


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0010_tournament_club_player_member"),
        ("clubs", "0001_initial"),
    ]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
