"""Players linked to their club's members; merging and erasing members.

**Matching** (a player added or imported): the same member number names the member (a number
not yet in the register makes a new member holding it); without a number, the same name
(ignoring case and spacing) among the club's current members. One match links; none makes a new
member; several are **ambiguous**: refused with the candidates, for the director to choose
(``member`` chosen on the page or in the API, or a ``number`` column in a file), never guessed.
A member already playing in the tournament is refused as entered twice.
Merging and erasing members: ``scoring.members`` (they read the seats of rounds).
"""

from collections.abc import Collection
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Count
from django.utils.translation import gettext as _

from clubs.models import Club, Member
from clubs.services import ClubError, club_create
from tournament.csv_import import CsvPlayer, RowProblem, tidy
from tournament.models import Player, Tournament


@dataclass(frozen=True, slots=True)
class Candidate:
    """A member a name could be: what tells them apart for the director."""

    id: int
    name: str
    number: str
    events: int

    def words(self) -> str:
        if self.number:
            words = _("{name} (member {id}, number {number}, {events} events)")
        else:
            words = _("{name} (member {id}, no number, {events} events)")
        return words.format(name=self.name, id=self.id, number=self.number, events=self.events)


class MemberAmbiguous(ClubError):
    """A name matches several members: the director chooses one (``member``)."""

    def __init__(self, name: str, candidates: list[Candidate]) -> None:
        listed = "; ".join(candidate.words() for candidate in candidates)
        super().__init__(
            _(
                "{name} matches {count} members of the club: choose one ({listed}), "
                "or give the member number."
            ).format(name=name, count=len(candidates), listed=listed),
            field="member",
        )
        self.candidates = candidates


def members_match(
    *, tournament: Tournament, wanted: list[CsvPlayer], leaving: Collection[int] = ()
) -> tuple[list[Member | None], list[RowProblem]]:
    """The member each wanted player is (None: a new member to make), and a problem for each
    ambiguous, unknown or already entered one (by the file's line). The players `leaving` (ids
    of records being corrected) do not count as entered."""
    club = tournament.club
    if club is None:
        return [None] * len(wanted), []
    register = list(club.members.current())
    by_id = {m.pk: m for m in register}
    by_number = {m.number: m for m in register if m.number}
    by_name: dict[str, list[Member]] = {}
    for member in register:
        by_name.setdefault(tidy(member.name).casefold(), []).append(member)
    entered = set(
        Player.objects.filter(tournament=tournament, member__isnull=False)
        .exclude(pk__in=leaving)
        .values_list("member_id", flat=True)
    )
    found, problems = [], []
    for player in wanted:
        member, problem = _match(player, by_id, by_number, by_name)
        if member is not None and member.pk in entered:
            problem = f"{member.name} (member {member.pk}) is already entered in this tournament"
        found.append(member)
        if problem:
            problems.append(RowProblem(player.line, problem))
        elif member is not None:
            entered.add(member.pk)
    return found, problems


def _match(
    player: CsvPlayer,
    by_id: dict[int, Member],
    by_number: dict[str, Member],
    by_name: dict[str, list[Member]],
) -> tuple[Member | None, str]:
    if player.member is not None:
        chosen = by_id.get(player.member)
        not_member = _("member {id} is not a member of this club").format(id=player.member)
        return chosen, "" if chosen else not_member
    if player.number:
        return by_number.get(player.number), ""
    same = by_name.get(player.name.casefold(), [])
    if len(same) > 1:
        return None, MemberAmbiguous(player.name, _candidates(same)).message
    return (same[0] if same else None), ""


def _candidates(members: list[Member]) -> list[Candidate]:
    events = dict(
        Player.objects.filter(member__in=members).values_list("member_id").annotate(n=Count("id"))
    )
    return [Candidate(m.pk, m.name, m.number, events.get(m.pk, 0)) for m in members]


def ambiguity(*, tournament: Tournament, wanted: CsvPlayer) -> MemberAmbiguous | None:
    """The refusal of one player whose name matches several members, with the candidates."""
    if tournament.club is None or wanted.member is not None or wanted.number:
        return None
    same = [
        m
        for m in tournament.club.members.current().filter(name__iexact=wanted.name)
        if tidy(m.name).casefold() == wanted.name.casefold()
    ]
    return MemberAmbiguous(wanted.name, _candidates(same)) if len(same) > 1 else None


def members_link(
    *, tournament: Tournament, players: list[Player], members: list[Member | None],
    wanted: list[CsvPlayer],
) -> None:  # fmt: skip
    """Each new (or renamed) player linked to its member, a new member made for each new name."""
    if tournament.club is None:
        return
    new = [
        Member(club=tournament.club, name=w.name, number=w.number)
        for w, m in zip(wanted, members, strict=True)
        if m is None
    ]
    made = iter(Member.objects.bulk_create(new))
    for player, member in zip(players, members, strict=True):
        player.member = member if member is not None else next(made)
    Player.objects.bulk_update(players, ["member"])


def club_for(*, by: AbstractBaseUser) -> Club:
    """The club a new tournament of `by` belongs to: the first they direct, else a new one."""
    club = Club.objects.filter(directors=by).order_by("pk").first() if by.is_authenticated else None
    if club is not None:
        return club
    return club_create(name=f"{by.get_username()}'s club", by=by)
