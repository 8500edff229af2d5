"""Self check-in: players check themselves in from their own phones.

Terms
- window: the time the director opens self check-in for (`Tournament.check_in_until`); the
  director closes it early, or it closes by itself at that time. Outside it a phone is refused.
- my page token: what opens a player's own page ("my page") on a phone: the entry's id and a
  keyed digest of it (`my_page_token`), so that nobody makes one up for another player. The
  check-in answers with it (the phone keeps it in a cookie) and the seat cards print it as a
  QR code. It shows only what the public pages show of the player; it needs no database row.
- self check-in: a registered player's own check-in from the check-in page (its QR code is
  printed and on the projector). It is the director's check-in (`services.entry_check_in`) with
  no account behind it: kept in the audit log as done by the player's phone, marked on the entry
  (`checked_in_by_phone`) so that the players page shows it, and undone only by the director
  (`services.entry_undo_check_in`): a player checks in once, and a wrong tap is the director's
  to undo, never another phone's.

Every refusal is a `TournamentError` with the reason, in words a player reads on a phone: a
player of another tournament, a withdrawn or disqualified player (R12.4), a player already
checked in, a team whose pairing is refused (HF1.2), the window closed.
"""

from datetime import timedelta

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.translation import gettext, gettext_noop

from tournament.models import Entry, Tournament
from tournament.services import TournamentError, audit_record
from tournament.signals import entries_changed

Status = Entry.Status
WINDOW_MINUTES = 60  # how long the window stays open when the director opens it
LONGEST_WINDOW_MINUTES = 24 * 60

# Why a phone's check-in is refused, by the entry's status; {name} is the entry's name. In the
# player's language (gettext at the refusal), the rules' citations unchanged.
PHONE_REFUSALS = {
    Status.CHECKED_IN: gettext_noop(
        "{name} is already checked in. If that was not you, tell the director, who can undo it."
    ),
    Status.WITHDRAWN: gettext_noop(
        "{name} has withdrawn from this tournament: only the director can reinstate a player "
        "(R12.1 seats only players still in it)."
    ),
    Status.DISQUALIFIED: gettext_noop(
        "{name} is disqualified by the director's ruling (R12.4) and cannot check in."
    ),
    Status.REFUSED: gettext_noop(
        "The director refused the pairing of {name} (HF1.2): see the director."
    ),
}


@transaction.atomic
def check_in_window_open(
    *, tournament: Tournament, by: AbstractBaseUser, minutes: int = WINDOW_MINUTES
) -> Tournament:
    """Open self check-in for `minutes` from now (or move its end there)."""
    if not 1 <= minutes <= LONGEST_WINDOW_MINUTES:
        raise TournamentError(
            gettext("Open self check-in for 1 to {most} minutes, not {minutes}.").format(
                most=LONGEST_WINDOW_MINUTES, minutes=minutes
            ),
            field="minutes",
        )
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    tournament.check_in_until = timezone.now() + timedelta(minutes=minutes)
    tournament.save(update_fields=["check_in_until", "updated_at"])
    until = timezone.localtime(tournament.check_in_until)
    audit_record(
        tournament=tournament,
        actor=by,
        action="check_in.open",
        summary=f"Opened self check-in until {until:%H:%M}",
        detail={"until": tournament.check_in_until.isoformat()},
    )
    return tournament


@transaction.atomic
def check_in_window_close(*, tournament: Tournament, by: AbstractBaseUser) -> Tournament:
    """Close self check-in now; players already checked in stay checked in."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if not tournament.is_check_in_open():
        raise TournamentError(gettext("Self check-in is not open, so there is nothing to close."))
    tournament.check_in_until = timezone.now()
    tournament.save(update_fields=["check_in_until", "updated_at"])
    audit_record(
        tournament=tournament, actor=by, action="check_in.close", summary="Closed self check-in"
    )
    return tournament


@transaction.atomic
def entry_self_check_in(*, tournament: Tournament, entry_id: int) -> Entry:
    """Check in the player whose phone asked, within the window; refused with the reason."""
    open_now = Tournament.objects.filter(pk=tournament.pk, check_in_until__gt=timezone.now())
    if not open_now.exists():
        raise TournamentError(
            gettext(
                "Self check-in for {tournament} is closed: the director opens it before the "
                "first round. Check in at the director's desk."
            ).format(tournament=tournament.name)
        )
    locked = Entry.objects.select_for_update().select_related("player")
    entry = locked.filter(pk=entry_id, tournament=tournament).first()
    if entry is None:
        raise TournamentError(
            gettext(
                "This player is not entered in {tournament}: check in at the tournament you "
                "entered, or see the director."
            ).format(tournament=tournament.name),
            field="entry",
        )
    if entry.status != Status.REGISTERED:
        refusal = gettext(PHONE_REFUSALS[Status(entry.status)])
        raise TournamentError(refusal.format(name=entry.name))
    return _checked_in(tournament, entry)


def _checked_in(tournament: Tournament, entry: Entry) -> Entry:
    now = timezone.now()
    entry.status, entry.status_changed_at, entry.checked_in_at = Status.CHECKED_IN, now, now
    entry.checked_in_by_phone = True
    entry.save(
        update_fields=["status", "status_changed_at", "checked_in_at", "checked_in_by_phone"]
    )
    entries_changed.send(sender=Entry, tournament_id=entry.tournament_id)
    audit_record(
        tournament=tournament,
        actor=None,
        action="entry.self_check_in",
        summary=f"{entry.name} checked in from their phone",
        detail={"entry_id": entry.pk, "from": Status.REGISTERED, "to": Status.CHECKED_IN},
    )
    return entry


TOKEN_SALT = "tournament.check_in.my-page"
TOKEN_DIGITS = 16  # hexadecimal digits of the digest: 64 bits, not guessed by any flood


def my_page_token(entry_id: int) -> str:
    """The token of the entry's own page, "<entry id>-<digest>" (see the terms above)."""
    digest = salted_hmac(TOKEN_SALT, str(entry_id), algorithm="sha256").hexdigest()
    return f"{entry_id}-{digest[:TOKEN_DIGITS]}"


def entry_id_of_token(token: str) -> int | None:
    """The entry a my page token opens; None for a token nobody was given."""
    number, _, _digest = token.partition("-")
    if not number.isdigit() or len(number) > 12:
        return None
    return int(number) if constant_time_compare(my_page_token(int(number)), token) else None
