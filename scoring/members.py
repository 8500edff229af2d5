"""Merging and erasing a club's members, across every event they played.

**Merge** (two members who are one person): the second's players move to the first, who keeps
every result; refused when both played in the same round (one person cannot sit at two tables,
R12.1), and kept in the club's and each touched tournament's audit log. **Erase** (the right to be
forgotten): the member and every player record of theirs lose the name, contact and email; the
rows stay, so every score stays, and the standings of their events are refreshed so that no
snapshot keeps the name.
"""

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext

from clubs.models import Member
from clubs.services import ClubError, club_audit
from scoring.standings import standings_forget
from tables.models import Bye, Seat
from tournament.models import AuditEvent, EntryMember, Player, Tournament

ERASED = "Erased member"


@transaction.atomic
def member_merge(*, keep: Member, drop: Member, by: AbstractBaseUser | None) -> Member:
    """`drop` is the same person as `keep`: its players become `keep`'s (see the module)."""
    keep, drop = _locked_pair(keep, drop)
    clash = _same_round(keep, drop)
    if clash:
        raise ClubError(
            gettext(
                "{keep_name} and {drop_name} both played in {clash}: one person cannot sit at "
                "two tables of a round (R12.1), so they are two people and are not merged."
            ).format(keep_name=keep.name, drop_name=drop.name, clash=clash)
        )
    touched = set(drop.players.values_list("tournament_id", flat=True))
    moved = drop.players.update(member=keep)
    drop.merged_into = keep
    drop.save(update_fields=["merged_into"])
    detail = {"kept": keep.pk, "merged": drop.pk, "players": moved}
    club_audit(club=keep.club, by=by, action="member.merge",
               summary=f"Merged member {drop.pk} ({drop.name}) into {keep.pk} ({keep.name})",
               **detail)  # fmt: skip
    for tournament_id in sorted(touched):
        _tournament_audit(tournament_id, by, "member.merge", f"Merged {drop.name} into "
                          f"{keep.name}", detail)  # fmt: skip
    return keep


def _locked_pair(keep: Member, drop: Member) -> tuple[Member, Member]:
    if keep.pk == drop.pk:
        raise ClubError(gettext("A member cannot be merged with themselves."))
    if keep.club_id != drop.club_id:
        raise ClubError(gettext("Only members of one club can be merged."))
    rows = {m.pk: m for m in Member.objects.select_for_update().filter(pk__in=[keep.pk, drop.pk])}
    keep, drop = rows[keep.pk], rows[drop.pk]
    if keep.merged_into_id or drop.merged_into_id:
        raise ClubError(gettext("A member already merged into another cannot be merged again."))
    return keep, drop


def _same_round(keep: Member, drop: Member) -> str:
    """A round both members played in (seated, or a bye), as words; "" when none."""
    rounds = [_rounds_of(member) for member in (keep, drop)]
    both = rounds[0] & rounds[1]
    if not both:
        return ""
    tournament_id, number = min(both)
    name = Tournament.objects.filter(pk=tournament_id).values_list("name", flat=True).first()
    return f"round {number} of {name}"


def _entries_of(member: Member) -> set[int]:
    """The entries the member played in: their own, and their teams' (HF1.2)."""
    players = Player.objects.filter(member=member)
    teams = EntryMember.objects.filter(player__in=players).values_list("entry_id", flat=True)
    entries = set(players.values_list("entries__id", flat=True)) | set(teams)
    entries.discard(None)
    return entries


def _rounds_of(member: Member) -> set[tuple[int, int]]:
    entries = _entries_of(member)
    seated = Seat.objects.filter(entry_id__in=entries).values_list(
        "round__tournament_id", "round__number"
    )
    byes = Bye.objects.filter(entry_id__in=entries).values_list(
        "round__tournament_id", "round__number"
    )
    return set(seated) | set(byes)


@transaction.atomic
def member_erase(*, member: Member, by: AbstractBaseUser | None) -> Member:
    """Anonymise `member` everywhere (see the module); every score stays."""
    member = Member.objects.select_for_update().get(pk=member.pk)
    old_names = {member.name, member.display_name} - {""}
    old_names |= set(member.players.values_list("name", flat=True))
    anonymous = f"{ERASED} {member.pk}"
    member.name, member.display_name, member.number, member.contact = anonymous, "", "", ""
    member.public_name, member.erased_at = Member.PublicName.HIDDEN, timezone.now()
    member.save()
    touched = set(member.players.values_list("tournament_id", flat=True))
    member.players.update(name=anonymous, email="", club="")
    _scrub_audit(touched, old_names, anonymous)
    club_audit(club=member.club, by=by, action="member.erase", summary=f"Erased member {member.pk}",
               member=member.pk)  # fmt: skip
    entries = _entries_of(member)
    for tournament_id in sorted(touched):
        transaction.on_commit(
            lambda t=tournament_id: standings_forget(
                tournament_id=t, entries=entries, name=anonymous
            )
        )
    return member


def _scrub_audit(tournaments: set[int], names: set[str], anonymous: str) -> None:
    """The erased names taken out of the tournaments' audit summaries (the actions stay)."""
    if not names:
        return
    named = Q()
    for name in names:
        named |= Q(summary__icontains=name)
    for event in AuditEvent.objects.filter(named, tournament_id__in=tournaments):
        for name in names:
            event.summary = event.summary.replace(name, anonymous)
        event.save(update_fields=["summary"])


def _tournament_audit(tournament_id: int, by: AbstractBaseUser | None, action: str,
                      summary: str, detail: dict) -> None:  # fmt: skip
    actor = by if by is not None and by.is_authenticated else None
    AuditEvent.objects.create(
        tournament_id=tournament_id, actor=actor, action=action, summary=summary[:300],
        detail=detail,
    )  # fmt: skip
