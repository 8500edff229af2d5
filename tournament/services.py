"""Writes to tournaments: each use case is one function doing its own transaction."""

from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from tournament.models import AuditEvent, Tournament


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
