"""Writes to tournaments: each use case is one function doing its own transaction.

Every director action is kept in the tournament's audit log (who, when, what) by `audit_record`.
A refusal is a `TournamentError` whose message a director can act on; nothing half-done is saved.

Players: a **player** is a person in one tournament's records, and an **entry** their place in
it; adding a player creates both. A regular at two events has a record in each, so that no
director reads or changes another director's player. Two people with the same name are told
apart by their club; the same name and club twice in one tournament (ignoring case and extra
spaces) is refused as a duplicate entry.

An entry's **status** moves only along these lines (anything else is refused with the reason):
registered → checked in (and back, to undo a mistaken check-in); registered or checked in →
withdrawn; a team registered or checked in → pairing refused (with the director's note, HF1.2),
and back to registered once re-paired (``team_update``) and reinstated; any but disqualified →
disqualified (with a reason); withdrawn or disqualified →
registered again (reinstated; a disqualified player only by reversing the ruling that
disqualified them, R12.4). A status change never deletes anything, so a withdrawn or
disqualified player keeps the scores already played.

Rules: a tournament plays one **game** under one **ruleset**, asked for as a **request** (a
preset's name and only the settings that differ, ``games.base``) and stored whole. The game checks
the request setting by setting (``RulesetRefused`` lists every bad one, nothing is saved). The
rules are **frozen** once a round exists (``RulesFrozen``): a published round has games played
under them, and a draft round was seated by their table plan.
"""

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from datetime import date
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

import games
from clubs.models import Club
from games.base import Game, Problem, RulesError, RulesetInvalid
from tournament.csv_import import (
    MAX_NAME,
    CsvPlayer,
    CsvTeam,
    RowProblem,
    player_key,
    player_problems,
    read_players,
    teams_of,
    tidy,
)
from tournament.members import ambiguity, club_for, members_link, members_match
from tournament.models import (
    DEFAULT_GAME,
    AuditEvent,
    Entry,
    EntryMember,
    Player,
    StaffRole,
    Tournament,
)
from tournament.selectors import rules_frozen_because
from tournament.signals import entries_changed, tournament_finished

RulesetRequest = Mapping[str, Any] | str | None  # a request, a preset's name, or the default
# Editable after creation. The slug is not: printed table cards and shared links carry it.
EDITABLE = (
    "name",
    "starts_on",
    "ends_on",
    "venue",
    "rounds_planned",
    "is_published",
    "requires_confirmation",
    "game",
    "ruleset",
)
RESERVED_SLUGS = {"new"}  # /director/new is the create page
Status = Entry.Status


class TournamentError(Exception):
    """A director's request that cannot be done; the message says why and what to do instead.
    `field` names the input at fault, when one is."""

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


class CsvImportRefused(TournamentError):
    """A players file with bad rows: every problem, each with its line; nothing was imported."""

    def __init__(self, problems: list[RowProblem]) -> None:
        count = len(problems)
        super().__init__(
            ngettext(
                "Nothing was imported: the file has {count} problem. "
                "Correct every line listed and import the whole file again.",
                "Nothing was imported: the file has {count} problems. "
                "Correct every line listed and import the whole file again.",
                count,
            ).format(count=count),
            field="csv",
        )
        self.problems = problems


class RulesetRefused(TournamentError):
    """A ruleset the game cannot play: one problem per bad setting, each naming its ``field``
    (a setting of the game, such as ``packs`` or ``card_values.joker``); nothing was saved."""

    def __init__(self, problems: tuple[Problem, ...]) -> None:
        count = len(problems)
        super().__init__(
            ngettext(
                "The ruleset cannot be played: {count} setting to correct. {problems}",
                "The ruleset cannot be played: {count} settings to correct. {problems}",
                count,
            ).format(count=count, problems=" ".join(problem.message for problem in problems)),
            field="ruleset",
        )
        self.problems = problems


class MemberChoiceNeeded(TournamentError):
    """A name matches several club members: the director chooses one (``member``), never the
    software; `candidates` tell them apart."""

    def __init__(self, message: str, candidates: list[Any]) -> None:
        super().__init__(message, field="member")
        self.candidates = candidates


class RulesFrozen(TournamentError):
    """The game or ruleset asked to change once a round exists; the message says why."""


class StatusRefused(TournamentError):
    """A move the entry's status does not allow (checking in a player already checked in,
    withdrawing one withdrawn): the entry's state is in the way, not the request."""


def audit_record(
    *,
    tournament: Tournament,
    actor: AbstractBaseUser | None,
    action: str,
    summary: str,
    detail: dict[str, Any] | None = None,
) -> AuditEvent:
    """Keep a director's action in the tournament's audit log (who, when, what)."""
    return AuditEvent.objects.create(
        tournament=tournament,
        actor=actor if actor is not None and actor.is_authenticated else None,
        action=action,
        summary=summary[:300],
        detail=detail or {},
    )


# Tournaments


@transaction.atomic
def tournament_create(
    *,
    by: AbstractBaseUser,
    name: str,
    slug: str | None = None,
    starts_on: date,
    ends_on: date,
    venue: str = "",
    rounds_planned: int = 1,
    is_published: bool = False,
    requires_confirmation: bool = False,
    game: str = DEFAULT_GAME,
    ruleset: RulesetRequest = None,
    club: Club | None = None,
) -> Tournament:
    """A new tournament of ``club`` (the creator's first club when none is given: a new one if
    they direct none), directed by its creator, playing ``game`` under a copy of the ruleset
    asked for (the game's default preset when none is)."""
    kind = _game(game)
    stored = _ruleset(kind, ruleset)
    tournament = Tournament(
        name=tidy(name),
        starts_on=starts_on,
        ends_on=ends_on,
        venue=tidy(venue),
        rounds_planned=rounds_planned,
        is_published=is_published,
        requires_confirmation=requires_confirmation,
        game=kind.key,
        ruleset=stored,
        club=club or club_for(by=by),
    )
    _check_tournament(tournament)
    tournament.slug = _free_slug(slug) if slug else _slug_for(tournament.name)
    tournament.save()
    StaffRole.objects.create(tournament=tournament, user=by, role=StaffRole.Role.DIRECTOR)
    audit_record(
        tournament=tournament,
        actor=by,
        action="tournament.create",
        summary=f"Created {tournament.name} ({tournament.slug})",
        detail={"slug": tournament.slug, "game": kind.key, "ruleset": _request(kind, stored)},
    )
    return tournament


@transaction.atomic
def tournament_update(*, tournament: Tournament, by: AbstractBaseUser, **fields: Any) -> Tournament:
    """Change the set-up. A new ``game`` without a ``ruleset`` takes that game's default preset;
    a ``ruleset`` without a preset changes the current one (only the settings sent). The game
    and ruleset are frozen once a round exists (``RulesFrozen``)."""
    unknown = set(fields) - set(EDITABLE)
    if unknown:
        raise TypeError(f"tournament_update cannot change {', '.join(sorted(unknown))}")
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    values = _checked_values(tournament, fields)
    changes = {
        field: [_plain(getattr(tournament, field)), _plain(value)]
        for field, value in values.items()
        if getattr(tournament, field) != value
    }
    if not changes:
        return tournament
    if "game" in changes or "ruleset" in changes:
        _check_rules_change(tournament)
        changes["ruleset"] = _ruleset_change(tournament, values)
    for field in changes:
        setattr(tournament, field, values[field])
    _check_tournament(tournament)
    tournament.save()
    audit_record(
        tournament=tournament,
        actor=by,
        action="tournament.update",
        summary=f"Changed {', '.join(f.replace('_', ' ') for f in changes)}",
        detail={"changes": changes},
    )
    return tournament


def _checked_values(tournament: Tournament, fields: dict[str, Any]) -> dict[str, Any]:
    try:
        return _normalised(tournament, fields)
    except RulesetRefused:
        _check_rules_change(tournament)  # frozen rules: that is the answer, not the settings
        raise


def _normalised(tournament: Tournament, fields: dict[str, Any]) -> dict[str, Any]:
    values = dict(fields)
    for field in ("name", "venue"):
        if field in values:
            values[field] = tidy(values[field])
    if "game" in values or "ruleset" in values:
        kind = _game(values.get("game", tournament.game))
        values["game"] = kind.key
        values["ruleset"] = _ruleset(kind, _asked(tournament, kind, values.get("ruleset")))
    return values


def _asked(tournament: Tournament, kind: Game[Any], request: RulesetRequest) -> RulesetRequest:
    """A request without a preset changes the tournament's own ruleset, when the game stays."""
    if kind.key != tournament.game or not isinstance(request, Mapping) or "preset" in request:
        return request
    return {**tournament.rules().game.changes(tournament.rules().ruleset), **request}


def _ruleset_change(tournament: Tournament, values: dict[str, Any]) -> list[dict[str, Any]]:
    """The audit log's before and after: each ruleset as its request (preset and changes)."""
    before = tournament.rules()
    return [
        before.game.changes(before.ruleset),
        _request(games.get(values["game"]), values["ruleset"]),
    ]


def _request(kind: Game[Any], stored: dict[str, Any]) -> dict[str, Any]:
    return kind.changes(kind.load(stored))


def _plain(value: Any) -> Any:
    """A value as the audit log's JSON can keep it."""
    return value.isoformat() if isinstance(value, date) else value


def _game(key: Any) -> Game[Any]:
    try:
        return games.get(key if isinstance(key, str) else repr(key))
    except RulesError as error:
        raise TournamentError(f"{error.problem.message}.", field="game") from None


def _ruleset(kind: Game[Any], request: RulesetRequest) -> dict[str, Any]:
    """The whole ruleset ``request`` asks for, as stored; ``RulesetRefused`` if unplayable."""
    if isinstance(request, str):
        request = {"preset": request}
    try:
        return kind.dump(kind.ruleset(request))
    except RulesetInvalid as invalid:
        raise RulesetRefused(invalid.problems) from None


def _check_rules_change(tournament: Tournament) -> None:
    because = rules_frozen_because(tournament=tournament)
    if because:
        raise RulesFrozen(because, field="ruleset")


def _check_tournament(tournament: Tournament) -> None:
    if not tournament.name:
        raise TournamentError(_("Give the tournament a name."), field="name")
    if tournament.ends_on < tournament.starts_on:
        raise TournamentError(
            _(
                "The tournament cannot end ({ends}) before it starts ({starts}): correct one of "
                "the dates."
            ).format(
                ends=date_format(tournament.ends_on, "d M Y"),
                starts=date_format(tournament.starts_on, "d M Y"),
            ),
            field="ends_on",
        )
    if tournament.rounds_planned < 1:
        raise TournamentError(
            _("A tournament has at least one round (R12.1)."), field="rounds_planned"
        )
    if tournament.pk:
        _check_rounds_planned(tournament)


def _check_rounds_planned(tournament: Tournament) -> None:
    last = tournament.rounds.order_by("-number").first()
    if last is not None and last.number > tournament.rounds_planned:
        raise TournamentError(
            _("Round {number} already exists: plan at least {number} rounds.").format(
                number=last.number
            ),
            field="rounds_planned",
        )


def _slug_for(name: str) -> str:
    """The name as an address, made unique with -2, -3, ... when another tournament has it."""
    base = slugify(name)[:70].strip("-") or "tournament"
    taken = (
        set(Tournament.objects.filter(slug__startswith=base).values_list("slug", flat=True))
        | RESERVED_SLUGS
    )
    slug, number = base, 2
    while slug in taken:
        slug, number = f"{base}-{number}", number + 1
    return slug


def _free_slug(slug: str) -> str:
    if slugify(slug) != slug or len(slug) > 80:
        raise TournamentError(
            _(
                "“{slug}” cannot be an address: use up to 80 lower-case letters, digits and "
                "hyphens, such as spring-open-2026."
            ).format(slug=slug),
            field="slug",
        )
    if slug in RESERVED_SLUGS or Tournament.objects.filter(slug=slug).exists():
        raise TournamentError(
            _(
                "The address “{slug}” is taken: choose another, or leave it blank to make one "
                "from the name."
            ).format(slug=slug),
            field="slug",
        )
    return slug


# Players and entries


@transaction.atomic
def player_add(
    *,
    tournament: Tournament,
    by: AbstractBaseUser,
    name: str,
    club: str = "",
    email: str = "",
    late: bool = False,
    number: str = "",
    member: int | None = None,
) -> Entry:
    """Enter one player; after round 1 exists only as a late entry (`late=True`), which the
    director must ask for, since a late player has missed the rounds already seated. The
    player is the club member with that `number`, else the one `member` chosen, else the one
    of that name (``tournament.members``: several of one name are refused, with the candidates)."""
    tournament = _locked(tournament)
    _check_single_players(tournament)
    name, club, email = tidy(name), tidy(club), email.strip()
    problems = player_problems(name=name, club=club, email=email)
    if problems:
        field, message = problems[0]
        raise TournamentError(f"{message[0].upper()}{message[1:]}.", field=field)
    is_late = _is_late(tournament, late=late, who=name)
    wanted = CsvPlayer(line=0, name=name, club=club, email=email, number=tidy(number).upper(),
                       member=member)  # fmt: skip
    existing = _entries_by_key(tournament).get(wanted.key())
    if existing is not None and not (wanted.number or member):
        raise TournamentError(_already_entered(wanted, existing), field="name")
    refusal = ambiguity(tournament=tournament, wanted=wanted)
    if refusal is not None:
        raise MemberChoiceNeeded(refusal.message, refusal.candidates)
    entry = _enter(tournament, [wanted], late=is_late)[0]
    audit_record(
        tournament=tournament,
        actor=by,
        action="player.add",
        summary=f"Entered {entry.player}{' as a late entry' if is_late else ''}",
        detail={"entry_id": entry.pk, "player_id": entry.player_id, "late": is_late},
    )
    return entry


@transaction.atomic
def players_import_csv(
    *, tournament: Tournament, by: AbstractBaseUser, text: str, late: bool = False
) -> list[Entry]:
    """Enter every player of a CSV file (see `tournament.csv_import`), or none: a file with any
    bad row is refused with every problem listed by line number."""
    tournament = _locked(tournament)
    is_late = _is_late(tournament, late=late, who=_("these players"))
    players, problems = read_players(text)
    if plays_in_teams(tournament):
        return _import_teams(tournament, by, players, problems, late=is_late)
    problems += [
        RowProblem(
            player.line,
            _(
                "{player} names a team, but {game} is played by single players: remove the "
                "team column"
            ).format(player=player, game=_game_name(tournament)),
        )
        for player in players
        if player.team
    ]
    entered = _entries_by_key(tournament)
    problems += [
        RowProblem(player.line, _already_entered(player, entered[player.key()]))
        for player in players
        if player.key() in entered
    ]
    return _imported(
        tournament,
        problems,
        lambda: _enter(tournament, players, late=is_late),
        "players",
        by=by,
        late=is_late,
    )


def _locked(tournament: Tournament) -> Tournament:
    """Entries are added one writer at a time, so that two people with one name and club
    cannot slip in twice between the duplicate check and the insert."""
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def _is_late(tournament: Tournament, *, late: bool, who: str) -> bool:
    seated = tournament.rounds.exists()
    if seated and not late:
        raise TournamentError(
            _(
                "Round 1 has already been seated, so {who} would join late: add them as a late "
                "entry. A late entry plays from the next round seated."
            ).format(who=who),
            field="late",
        )
    if late and not seated:
        raise TournamentError(
            _(
                "No round has been seated yet, so {who} would not be late: add them as a normal "
                "entry."
            ).format(who=who),
            field="late",
        )
    return seated


def _entries_by_key(tournament: Tournament) -> dict[tuple[str, str], Entry]:
    """Every player of the tournament by name and club, with their entry (a team's partners
    both find the team's)."""
    entries = tournament.entries.select_related("player")
    found = {player_key(entry.player.name, entry.player.club): entry for entry in entries}
    members = EntryMember.objects.filter(entry__tournament=tournament).select_related(
        "player", "entry"
    )
    for member in members:
        found[player_key(member.player.name, member.player.club)] = member.entry
    return found


def _already_entered(player: CsvPlayer, entry: Entry) -> str:
    return _("{player} is already entered in this tournament ({status})").format(
        player=player, status=entry.get_status_display().lower()
    )


def _enter(tournament: Tournament, wanted: list[CsvPlayer], *, late: bool) -> list[Entry]:
    """A new player record of this tournament and its entry for each row wanted, each
    linked to its club member (``tournament.members``)."""
    members = _members_for(tournament, wanted)
    players = Player.objects.bulk_create(
        Player(tournament=tournament, name=player.name, club=player.club, email=player.email)
        for player in wanted
    )
    members_link(tournament=tournament, players=players, members=members, wanted=wanted)
    entries = Entry.objects.bulk_create(
        Entry(tournament=tournament, player=player, is_late_entry=late) for player in players
    )
    entries_changed.send(sender=Entry, tournament_id=tournament.pk)
    return entries


def _members_for(tournament: Tournament, wanted: list[CsvPlayer]) -> list[Any]:
    """The member each wanted player is; any ambiguous or entered twice refuses them all."""
    members, problems = members_match(tournament=tournament, wanted=wanted)
    if problems and len(wanted) == 1 and not problems[0].line:
        raise TournamentError(f"{problems[0].message[0].upper()}{problems[0].message[1:]}.",
                              field="member")  # fmt: skip
    if problems:
        raise CsvImportRefused(problems)
    return members


# Teams (HF1.2): in a game of partners an entry is a team of two players


@dataclass(frozen=True, slots=True)
class Partner:
    """One partner of a team as the director gives it: the same values as a player."""

    name: str
    club: str = ""
    email: str = ""

    def tidied(self, line: int = 0, team: str = "") -> CsvPlayer:
        return CsvPlayer(line, tidy(self.name), tidy(self.club), self.email.strip(), team)


def plays_in_teams(tournament: Tournament) -> bool:
    """Whether the tournament's game is played by teams of partners (Hand and Foot, HF1.2)."""
    return tournament.rules().shape().members > 1


def _game_name(tournament: Tournament) -> str:
    return games.get(tournament.game).name


def _check_single_players(tournament: Tournament) -> None:
    if plays_in_teams(tournament):
        raise TournamentError(
            _(
                "{game} is played by teams of two partners (HF1.2): enter a team with both its "
                "players."
            ).format(game=_game_name(tournament)),
            field="name",
        )


def _check_teams(tournament: Tournament) -> None:
    if not plays_in_teams(tournament):
        raise TournamentError(
            _("{game} is played by single players: enter each player.").format(
                game=_game_name(tournament)
            ),
            field="team_name",
        )


@transaction.atomic
def team_add(
    *,
    tournament: Tournament,
    by: AbstractBaseUser,
    name: str,
    partners: tuple[Partner, Partner],
    late: bool = False,
) -> Entry:
    """Enter a team: its name and its two partners, registered together (HF1.2)."""
    tournament = _locked(tournament)
    _check_teams(tournament)
    team = _team_wanted(name, partners)
    is_late = _is_late(tournament, late=late, who=team.name)
    _check_team_free(tournament, team)
    entry = _enter_teams(tournament, [team], late=is_late)[0]
    audit_record(
        tournament=tournament,
        actor=by,
        action="team.add",
        summary=f"Entered team {entry.team_name}: {_partner_words(team)}"
        + (" as a late entry" if is_late else ""),
        detail={"entry_id": entry.pk, "late": is_late},
    )
    return entry


def _team_wanted(name: str, partners: tuple[Partner, ...]) -> CsvTeam:
    """The team as asked, tidied and checked; a `TournamentError` naming the field at fault."""
    if len(partners) != 2:
        raise TournamentError(_("A team is two partners (HF1.2)."), field="partner_1_name")
    rows = tuple(partner.tidied(team=tidy(name)) for partner in partners)
    for position, row in enumerate(rows, start=1):
        problems = player_problems(name=row.name, club=row.club, email=row.email)
        if problems:
            field, message = problems[0]
            raise TournamentError(
                _("Partner {position}: {problem}.").format(position=position, problem=message),
                field=f"partner_{position}_{field}",
            )
    if rows[0].key() == rows[1].key():
        raise TournamentError(
            _("{player} cannot partner themselves: a team is two players (HF1.2).").format(
                player=rows[0]
            ),
            field="partner_2_name",
        )
    team_name = tidy(name) or f"{rows[0].name} & {rows[1].name}"
    if len(team_name) > MAX_NAME:
        raise TournamentError(
            _("The team name is longer than {most} characters.").format(most=MAX_NAME),
            field="team_name",
        )
    return CsvTeam(team_name, rows)


def _check_team_free(tournament: Tournament, team: CsvTeam, entry: Entry | None = None) -> None:
    """Each partner plays in one entry only, and no two teams share a name."""
    entered = _entries_by_key(tournament)
    for position, partner in enumerate(team.partners, start=1):
        other = entered.get(partner.key())
        if other is not None and other != entry:
            raise TournamentError(
                _already_entered(partner, other), field=f"partner_{position}_name"
            )
    named = tournament.entries.filter(team_name__iexact=team.name)
    if entry is not None:
        named = named.exclude(pk=entry.pk)
    if named.exists():
        raise TournamentError(
            _("A team called “{team}” is already entered: give this one another name.").format(
                team=team.name
            ),
            field="team_name",
        )


def _partner_words(team: CsvTeam) -> str:
    return " & ".join(str(partner) for partner in team.partners)


def _enter_teams(tournament: Tournament, teams: list[CsvTeam], *, late: bool) -> list[Entry]:
    """A player record for each partner, and one entry per team with its two members."""
    wanted = [p for team in teams for p in team.partners]
    members = _members_for(tournament, wanted)
    players = Player.objects.bulk_create(
        Player(tournament=tournament, name=p.name, club=p.club, email=p.email) for p in wanted
    )
    members_link(tournament=tournament, players=players, members=members, wanted=wanted)
    entries = Entry.objects.bulk_create(
        Entry(tournament=tournament, player=players[2 * i], team_name=team.name, is_late_entry=late)
        for i, team in enumerate(teams)
    )
    EntryMember.objects.bulk_create(
        EntryMember(entry=entry, player=players[2 * i + m], position=m + 1)
        for i, entry in enumerate(entries)
        for m in range(2)
    )
    entries_changed.send(sender=Entry, tournament_id=tournament.pk)
    return entries


def _import_teams(
    tournament: Tournament,
    by: AbstractBaseUser,
    players: list[CsvPlayer],
    problems: list[RowProblem],
    *,
    late: bool,
) -> list[Entry]:
    """The teams of a players file (``teams_of``), or none: every bad row is listed."""
    teams, team_problems = teams_of(players) if players else ([], [])
    entered = _entries_by_key(tournament)
    named = {name.casefold() for name in tournament.entries.values_list("team_name", flat=True)}
    problems = problems + team_problems
    problems += [
        RowProblem(p.line, _already_entered(p, entered[p.key()]))
        for p in players
        if p.key() in entered
    ]
    problems += [
        RowProblem(team.line, _("a team called “{team}” is already entered").format(team=team.name))
        for team in teams
        if team.name.casefold() in named
    ]
    return _imported(
        tournament,
        problems,
        lambda: _enter_teams(tournament, teams, late=late),
        "teams",
        by=by,
        late=late,
    )


def _imported(
    tournament: Tournament,
    problems: list[RowProblem],
    enter: Callable[[], list[Entry]],
    noun: str,
    *,
    by: AbstractBaseUser | None,
    late: bool,
) -> list[Entry]:
    """A file's every bad row refused at once (by line), else its entries made and audited."""
    if problems:
        raise CsvImportRefused(sorted(problems, key=lambda problem: problem.line or 0))
    entries = enter()
    audit_record(
        tournament=tournament,
        actor=by,
        action=f"{noun}.import",
        summary=f"Imported {len(entries)} {noun} from a CSV file"
        + (" as late entries" if late else ""),
        detail={"entry_ids": [entry.pk for entry in entries], "late": late},
    )
    return entries


@transaction.atomic
def team_update(
    *, entry: Entry, by: AbstractBaseUser, name: str, partners: tuple[Partner, Partner]
) -> Entry:
    """Rename a team or correct its partners; a partner who is not the same person (by name and
    club) is replaced, which a team that has sat at a table cannot do: its games were played by
    its partners (withdraw it and enter the new pairing)."""
    entry = Entry.objects.select_for_update().select_related("tournament").get(pk=entry.pk)
    if not entry.is_team:
        raise TournamentError(
            _("{name} is a player, not a team.").format(name=entry.name), field="team_name"
        )
    team = _team_wanted(name, partners)
    _check_team_free(entry.tournament, team, entry)
    members = list(entry.members.select_related("player"))
    replaced = [
        m
        for m, p in zip(members, team.partners, strict=True)
        if m.player.name.casefold() != p.name.casefold()
        or m.player.club.casefold() != p.club.casefold()
    ]
    if replaced and entry.seats.exists():
        raise TournamentError(
            _(
                "{team} has already been seated, so its partners stay as they played: "
                "withdraw the team and enter the new pairing."
            ).format(team=entry.team_name),
            field=f"partner_{replaced[0].position}_name",
        )
    before = entry.partner_names()
    players, found, wanted = _partners_renamed(entry.tournament, members, team)
    for member, partner in zip(members, team.partners, strict=True):
        _set_partner(entry, member, partner)
    members_link(tournament=entry.tournament, players=players, members=found, wanted=wanted)
    entry.team_name = team.name
    entry.save(update_fields=["team_name"])
    entries_changed.send(sender=Entry, tournament_id=entry.tournament_id)
    audit_record(
        tournament=entry.tournament,
        actor=by,
        action="team.update",
        summary=f"Team {entry.team_name}: {before} → {_partner_words(team)}",
        detail={"entry_id": entry.pk, "replaced": [m.position for m in replaced]},
    )
    return entry


def _partners_renamed(
    tournament: Tournament, members: list[EntryMember], team: CsvTeam
) -> tuple[list[Player], list[Any], list[CsvPlayer]]:
    """The partners given another name, with the member each now is, matched as adding a partner
    matches it: an ambiguous name or a member already entered refuses the edit on its field."""
    renamed = [
        (m, replace(p, line=m.position))
        for m, p in zip(members, team.partners, strict=True)
        if m.player.name.casefold() != p.name.casefold()
    ]
    wanted = [partner for _, partner in renamed]
    leaving = [m.player_id for m, _ in renamed]
    found, problems = members_match(tournament=tournament, wanted=wanted, leaving=leaving)
    for problem in problems:
        message = problem.message[0].upper() + problem.message[1:]
        raise TournamentError(
            _("Partner {position}: {problem}.").format(position=problem.line, problem=message),
            field=f"partner_{problem.line}_name",
        )
    return [m.player for m, _ in renamed], found, wanted


def _set_partner(entry: Entry, member: EntryMember, partner: CsvPlayer) -> None:
    """The partner's record corrected in place: the same person, or a team not yet seated (its
    player records belong to this team alone; the audit log keeps the names before)."""
    player = member.player
    player.name, player.club, player.email = partner.name, partner.club, partner.email
    player.save(update_fields=["name", "club", "email"])


def pairing_refuse(*, entry: Entry, by: AbstractBaseUser, note: str) -> Entry:
    """The director refuses a team's pairing (HF1.2: spouses or close friends may not partner),
    saying why; the team leaves the rounds until re-paired and reinstated."""
    note = tidy(note)
    if not entry.is_team:
        raise TournamentError(
            _("{name} is a player: only a team's pairing is refused.").format(name=entry.name)
        )
    if not note:
        raise TournamentError(
            _(
                "Say why the pairing of {name} is refused (HF1.2): the note is kept in the "
                "audit log and shown on the teams page."
            ).format(name=entry.name),
            field="note",
        )
    return _move(entry=entry, by=by, move=REFUSE_PAIRING, detail={"note": note[:300]})


# Entry status


@dataclass(frozen=True, slots=True)
class Move:
    """One status change an entry can make: from where, to where, and how it reads."""

    action: str
    allowed: tuple[str, ...]
    to: str
    done: str  # "{player} checked in"


CHECK_IN = Move("check_in", (Status.REGISTERED,), Status.CHECKED_IN, "Checked in {player}")
UNDO_CHECK_IN = Move(
    "undo_check_in", (Status.CHECKED_IN,), Status.REGISTERED, "Undid the check-in of {player}"
)
WITHDRAW = Move(
    "withdraw", (Status.REGISTERED, Status.CHECKED_IN), Status.WITHDRAWN, "Withdrew {player}"
)
DISQUALIFY = Move(
    "disqualify",
    (Status.REGISTERED, Status.CHECKED_IN, Status.WITHDRAWN),
    Status.DISQUALIFIED,
    "Disqualified {player}",
)
REINSTATE = Move(
    "reinstate", (Status.WITHDRAWN, Status.REFUSED), Status.REGISTERED, "Reinstated {player}"
)
# HF1.2: the director may refuse a pairing (spouses or close friends may not partner).
REFUSE_PAIRING = Move(
    "refuse_pairing",
    (Status.REGISTERED, Status.CHECKED_IN),
    Status.REFUSED,
    "Refused the pairing of {player} (HF1.2)",
)
# A disqualification is a director's ruling (R12.4): only reversing it lifts it.
LIFT_DISQUALIFICATION = Move(
    "reinstate",
    (Status.DISQUALIFIED,),
    Status.REGISTERED,
    "Reinstated {player}, no longer disqualified",
)

# Why a move is refused, by (action, current status); {name} is the player's name.
REFUSALS = {
    ("check_in", Status.CHECKED_IN): gettext_lazy("{name} is already checked in."),
    ("check_in", Status.WITHDRAWN): gettext_lazy(
        "{name} has withdrawn: reinstate them first if they are back to play, then check them in."
    ),
    ("check_in", Status.REFUSED): gettext_lazy(
        "The director refused the pairing of {name} (HF1.2): "
        "change a partner, reinstate the team, then check it in."
    ),
    ("withdraw", Status.REFUSED): gettext_lazy(
        "The pairing of {name} is refused (HF1.2): the team is already out of the rounds."
    ),
    ("refuse_pairing", Status.REFUSED): gettext_lazy("The pairing of {name} is already refused."),
    ("refuse_pairing", Status.WITHDRAWN): gettext_lazy(
        "{name} has withdrawn: there is no pairing to refuse."
    ),
    ("refuse_pairing", Status.DISQUALIFIED): gettext_lazy(
        "{name} is disqualified: there is no pairing to refuse."
    ),
    ("check_in", Status.DISQUALIFIED): gettext_lazy(
        "{name} is disqualified and cannot check in. Only a "
        "director reinstating them lets them play again."
    ),
    ("undo_check_in", Status.REGISTERED): gettext_lazy(
        "{name} is not checked in, so there is no check-in to undo."
    ),
    ("undo_check_in", Status.WITHDRAWN): gettext_lazy(
        "{name} has withdrawn, so there is no check-in to undo."
    ),
    ("undo_check_in", Status.DISQUALIFIED): gettext_lazy(
        "{name} is disqualified, so there is no check-in to undo."
    ),
    ("withdraw", Status.WITHDRAWN): gettext_lazy("{name} has already withdrawn."),
    ("withdraw", Status.DISQUALIFIED): gettext_lazy(
        "{name} is disqualified, which already takes them out of the tournament."
    ),
    ("disqualify", Status.DISQUALIFIED): gettext_lazy("{name} is already disqualified."),
    ("reinstate", Status.REGISTERED): gettext_lazy(
        "{name} is still in the tournament (registered); only a "
        "withdrawn or disqualified player can be reinstated."
    ),
    ("reinstate", Status.CHECKED_IN): gettext_lazy(
        "{name} is still in the tournament (checked in); only a "
        "withdrawn or disqualified player can be reinstated."
    ),
    ("reinstate", Status.DISQUALIFIED): gettext_lazy(
        "{name} is disqualified by a director's ruling (R12.4): "
        "only reversing that ruling, with the reason why, reinstates them."
    ),
}
FALLBACK_REFUSAL = gettext_lazy(
    "{name} is {status}, so this cannot be done: the player's status is unchanged."
)


def entry_check_in(*, entry: Entry, by: AbstractBaseUser) -> Entry:
    return _move(entry=entry, by=by, move=CHECK_IN)


def entry_undo_check_in(*, entry: Entry, by: AbstractBaseUser) -> Entry:
    """Back to registered, for a player checked in by mistake."""
    return _move(entry=entry, by=by, move=UNDO_CHECK_IN)


def entry_withdraw(*, entry: Entry, by: AbstractBaseUser) -> Entry:
    """Out of the rounds still to be seated; the scores already played stay (nothing is
    deleted), so they still count for the other players at the table."""
    return _move(entry=entry, by=by, move=WITHDRAW)


def entry_disqualify(*, entry: Entry, by: AbstractBaseUser, reason: str) -> Entry:
    """Out of the tournament by a director's decision (R12.4); the reason goes in the log."""
    reason = tidy(reason)
    if not reason:
        raise TournamentError(
            _(
                "Give the reason for disqualifying {name}: it is kept in the audit "
                "log and shown on the players page."
            ).format(name=entry.name),
            field="reason",
        )
    return _move(entry=entry, by=by, move=DISQUALIFY, detail={"reason": reason})


def entry_reinstate(*, entry: Entry, by: AbstractBaseUser) -> Entry:
    """A withdrawn player back in as registered; they check in again before the next round is
    seated. A disqualified player is refused: see `entry_lift_disqualification`."""
    return _move(entry=entry, by=by, move=REINSTATE)


def entry_lift_disqualification(
    *, entry: Entry, by: AbstractBaseUser, reason: str, ruling_id: int | None = None
) -> Entry:
    """A disqualified player back in as registered, as `entry_reinstate`. A disqualification is
    a ruling (R12.4), so this is for `scoring.rulings` only, when it reverses that ruling
    (`ruling_id`: the reversal) or finds none to reverse; the log keeps both and the reason."""
    reason = tidy(reason)
    if not reason:
        raise TournamentError(
            _(
                "Give the reason for reinstating {name}, who is disqualified (R12.4): "
                "it is kept in the audit log."
            ).format(name=entry.name),
            field="reason",
        )
    detail: dict[str, Any] = {"reason": reason}
    if ruling_id is not None:
        detail["ruling"] = ruling_id
    return _move(entry=entry, by=by, move=LIFT_DISQUALIFICATION, detail=detail)


@transaction.atomic
def entries_check_in_all(*, tournament: Tournament, by: AbstractBaseUser) -> int:
    """Check in every registered player at once (the hall is full and the round is due);
    returns how many were checked in."""
    waiting = tournament.entries.select_for_update().filter(status=Status.REGISTERED)
    ids = list(waiting.values_list("pk", flat=True))
    if not ids:
        return 0
    now = timezone.now()
    Entry.objects.filter(pk__in=ids).update(
        status=Status.CHECKED_IN, checked_in_at=now, status_changed_at=now
    )
    entries_changed.send(sender=Entry, tournament_id=tournament.pk)
    audit_record(
        tournament=tournament,
        actor=by,
        action="entries.check_in_all",
        summary=f"Checked in all {len(ids)} registered players",
        detail={"entry_ids": ids},
    )
    return len(ids)


@transaction.atomic
def _move(
    *, entry: Entry, by: AbstractBaseUser, move: Move, detail: dict[str, Any] | None = None
) -> Entry:
    locked = Entry.objects.select_for_update().select_related("player", "tournament")
    entry = locked.get(pk=entry.pk)
    if entry.status not in move.allowed:
        raise StatusRefused(_refusal(entry, move))
    before, now = entry.status, timezone.now()
    entry.status, entry.status_changed_at = move.to, now
    if move.to == Status.CHECKED_IN:
        entry.checked_in_at = now
    elif move.to == Status.REGISTERED:
        entry.checked_in_at = None
    entry.status_note = (detail or {}).get("note", "")
    entry.checked_in_by_phone = False  # the director's move: not the player's phone
    fields = ["status", "status_changed_at", "checked_in_at", "status_note", "checked_in_by_phone"]
    entry.save(update_fields=fields)
    entries_changed.send(sender=Entry, tournament_id=entry.tournament_id)
    reason = f": {detail['reason']}" if detail and "reason" in detail else ""
    reason = f": {detail['note']}" if detail and "note" in detail else reason
    audit_record(
        tournament=entry.tournament,
        actor=by,
        action=f"entry.{move.action}",
        summary=move.done.format(player=entry.name if entry.is_team else entry.player) + reason,
        detail={"entry_id": entry.pk, "from": before, "to": move.to, **(detail or {})},
    )
    return entry


def _refusal(entry: Entry, move: Move) -> str:
    template = REFUSALS.get((move.action, entry.status), FALLBACK_REFUSAL)
    return template.format(name=entry.name, status=entry.get_status_display().lower())


# Tournament status: setting up → running → finished


TournamentStatus = Tournament.Status
STATUS_VERBS = {  # the step to each status, as the director's button and the audit log say it
    TournamentStatus.SETUP: "back to setting up",
    TournamentStatus.RUNNING: "running",
    TournamentStatus.FINISHED: "finished",
}


@transaction.atomic
def tournament_status_set(*, tournament: Tournament, to: str, by: AbstractBaseUser) -> Tournament:
    """Move the tournament to status `to`, refused with the reason where it makes no sense:
    - running: it has players to play (registered or checked in); from finished, it reopens;
    - finished: it was running and every round is locked (R12.4: the scores are final);
    - back to setting up: only while no round has been published.
    """
    if to not in TournamentStatus.values:
        raise TournamentError(_("“{to}” is no tournament status.").format(to=to), field="status")
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status == to:
        label = TournamentStatus(to).label.lower()
        raise TournamentError(
            _("{name} is already {status}: nothing to change.").format(
                name=tournament.name, status=label
            )
        )
    CHECKS[to](tournament)
    return _status_save(tournament, to, by)


def tournament_start_on_publish(*, tournament: Tournament, by: AbstractBaseUser | None) -> None:
    """The first published round sets a tournament that is still setting up running."""
    setting_up = Tournament.objects.filter(pk=tournament.pk, status=TournamentStatus.SETUP)
    if setting_up.update(status=TournamentStatus.RUNNING, updated_at=timezone.now()):
        audit_record(
            tournament=tournament,
            actor=by,
            action="tournament.status",
            summary="Status: Setting up → Running (the first round is published)",
            detail={"from": TournamentStatus.SETUP, "to": TournamentStatus.RUNNING},
        )


def _status_save(tournament: Tournament, to: str, by: AbstractBaseUser | None) -> Tournament:
    before = tournament.status
    tournament.status = to
    tournament.save(update_fields=["status", "updated_at"])
    audit_record(
        tournament=tournament,
        actor=by,
        action="tournament.status",
        summary=f"Status: {TournamentStatus(before).label} → {TournamentStatus(to).label}",
        detail={"from": before, "to": to},
    )
    if TournamentStatus.FINISHED in (before, to):
        tournament_finished.send(sender=Tournament, tournament_id=tournament.pk)
    return tournament


def _check_running(tournament: Tournament) -> None:
    if tournament.status == TournamentStatus.FINISHED:
        return  # reopened, for a correction or a ruling after the end
    if not tournament.entries.active().exists():
        raise TournamentError(
            _(
                "{name} has no player registered or checked in: add the players before it runs."
            ).format(name=tournament.name)
        )


def _check_finished(tournament: Tournament) -> None:
    if tournament.status != TournamentStatus.RUNNING:
        raise TournamentError(
            _("{name} is still setting up: a tournament finishes after it has run.").format(
                name=tournament.name
            )
        )
    rounds = list(tournament.rounds.order_by("number"))
    if not rounds:
        raise TournamentError(
            _("{name} has no round yet: nothing was played.").format(name=tournament.name)
        )
    open_ = [r for r in rounds if r.status != r.Status.LOCKED]
    if open_:
        listed = ", ".join(
            _("round {number} is {status}").format(
                number=r.number, status=r.get_status_display().lower()
            )
            for r in open_
        )
        raise TournamentError(
            _(
                "Not finished: {rounds}. Lock every round first, so that its scores are final "
                "(R12.4)."
            ).format(rounds=listed)
        )


def _check_setup(tournament: Tournament) -> None:
    published = tournament.rounds.exclude(status="draft").order_by("number").first()
    if published is not None:
        raise TournamentError(
            _(
                "Round {number} is published already: the tournament is under way and "
                "cannot go back to setting up."
            ).format(number=published.number)
        )


CHECKS = {
    TournamentStatus.SETUP: _check_setup,
    TournamentStatus.RUNNING: _check_running,
    TournamentStatus.FINISHED: _check_finished,
}
