"""Writes to clubs and their registers: each use case one function, one transaction.

A refusal is a `ClubError` whose message a director can act on; a file with any bad row is
refused whole (`MembersRefused`, every problem by line) and nothing is saved. Every change is kept
in the club's audit log (`ClubAudit`). Merging and erasing members touch the events they played,
so they live with the tournaments (``tournament.members``).
"""

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from clubs.csv_files import RowProblem, tidy
from clubs.csv_import import CsvMember, member_problems, read_members
from clubs.models import Club, ClubAudit, Member
from clubs.pages import club_pages_changed


class ClubError(Exception):
    """A refusal a director can act on; `field` names the input at fault, if one is."""

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.message, self.field = message, field


class MembersRefused(ClubError):
    """A members file with bad rows: every problem, by line; nothing was imported."""

    def __init__(self, problems: list[RowProblem]) -> None:
        super().__init__("; ".join(str(problem) for problem in problems[:20]))
        self.problems = problems


def club_audit(
    *, club: Club, by: AbstractBaseUser | None, action: str, summary: str, **detail: object
) -> None:
    ClubAudit.objects.create(
        club=club, actor=_user(by), action=action, summary=summary[:300], detail=detail
    )
    club_pages_changed(club.slug)


def _user(by: AbstractBaseUser | None) -> AbstractBaseUser | None:
    return by if by is not None and by.is_authenticated else None


@transaction.atomic
def club_create(*, name: str, by: AbstractBaseUser | None, slug: str = "") -> Club:
    """A club directed by `by` (when given), at a free address made from its name."""
    name = tidy(name)
    if not name or len(name) > 120:
        raise ClubError(_("A club needs a name of at most 120 characters."), field="name")
    club = Club.objects.create(name=name, slug=_free_slug(slugify(slug or name) or "club"))
    if _user(by) is not None:
        club.directors.add(by)
    club_audit(club=club, by=by, action="club.create", summary=f"Created {club.name}")
    return club


def _free_slug(slug: str) -> str:
    slug, taken, n = slug[:70], set(Club.objects.values_list("slug", flat=True)), 2
    found = slug
    while found in taken:
        found, n = f"{slug}-{n}", n + 1
    return found


@transaction.atomic
def member_add(
    *,
    club: Club,
    by: AbstractBaseUser | None,
    name: str,
    display_name: str = "",
    number: str = "",
    contact: str = "",
    public_name: str = Member.PublicName.FULL,
) -> Member:
    """One new member of the register; a bad value or a number already held is refused."""
    wanted = CsvMember(
        0, tidy(name), tidy(display_name), tidy(number).upper(), contact.strip(), public_name
    )
    problems = member_problems(wanted)
    if problems:
        raise ClubError(_sentence(problems[0]))
    _locked(club)
    held = _numbers_held(club, [wanted])
    if held:
        raise ClubError(_sentence(held[0].message), field="number")
    member = _create(club, [wanted])[0]
    club_audit(club=club, by=by, action="member.add", summary=f"Added {member.name}",
               member_id=member.pk)  # fmt: skip
    return member


@transaction.atomic
def members_import_csv(*, club: Club, by: AbstractBaseUser | None, text: str) -> list[Member]:
    """Every member of the file, or none: any bad row refuses the file with every problem."""
    _locked(club)
    members, problems = read_members(text)
    problems += _numbers_held(club, members) + _names_held(club, members)
    if problems:
        raise MembersRefused(sorted(problems, key=lambda problem: problem.line or 0))
    created = _create(club, members)
    club_audit(club=club, by=by, action="member.import", summary=f"Imported {len(created)} members",
               count=len(created))  # fmt: skip
    return created


def _sentence(message: str) -> str:
    return f"{message[0].upper()}{message[1:]}."


def _locked(club: Club) -> Club:
    """One writer of a register at a time: a number checked free stays free until written."""
    return Club.objects.select_for_update().get(pk=club.pk)


def _numbers_held(club: Club, wanted: list[CsvMember]) -> list[RowProblem]:
    """Rows whose number a member of this register, or of another club, already holds: a
    member number names one person (the other club's member is never named)."""
    held = Member.objects.filter(number__in={m.number for m in wanted if m.number})
    by_number = {m.number: m for m in held}
    problems = []
    for member in wanted:
        other = by_number.get(member.number) if member.number else None
        if other is None:
            continue
        if other.club_id == club.pk:
            whose = _("member number {number} already belongs to {name} in this club")
        else:
            whose = _("member number {number} already belongs to another club")
        problems.append(
            RowProblem(member.line, whose.format(number=member.number, name=other.name))
        )
    return problems


def _names_held(club: Club, wanted: list[CsvMember]) -> list[RowProblem]:
    """Rows without a number naming someone already in the register: the same person twice,
    unless a number tells them apart."""
    held = club.members.current().values_list("name", flat=True)
    present = {name.casefold() for name in held}
    return [
        RowProblem(
            member.line,
            f"{member.name} is already a member: give a member number if this is another person",
        )
        for member in wanted
        if not member.number and member.name.casefold() in present
    ]


def _create(club: Club, wanted: list[CsvMember]) -> list[Member]:
    return Member.objects.bulk_create(
        Member(
            club=club,
            name=member.name,
            display_name=member.display_name,
            number=member.number,
            contact=member.contact,
            public_name=member.public_name,
        )
        for member in wanted
    )
