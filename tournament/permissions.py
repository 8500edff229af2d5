"""Who may do what: questions about a user's staff roles, for pages and the API alike.

A **director** of a tournament holds the director role in it (or is a superuser); a director
sees and changes only their own tournaments. A **scorekeeper** holds the scorekeeper role.
"""

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import QuerySet
from django.http import Http404
from rest_framework.permissions import BasePermission
from rest_framework.request import Request

from tournament.models import StaffRole, Tournament

User = AbstractBaseUser | AnonymousUser


def is_director(user: User) -> bool:
    """A director of at least one tournament, or a superuser."""
    if not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    return StaffRole.objects.filter(user=user, role=StaffRole.Role.DIRECTOR).exists()


def directed_tournaments(user: User) -> QuerySet[Tournament]:
    """The tournaments this user directs (all of them for a superuser)."""
    if not user.is_authenticated:
        return Tournament.objects.none()
    if user.is_superuser:
        return Tournament.objects.all()
    return Tournament.objects.filter(
        staff__user=user, staff__role=StaffRole.Role.DIRECTOR
    ).distinct()


def tournament_for_director(user: User, slug: str) -> Tournament:
    """The tournament with this slug if the user directs it; 404 otherwise, so that another
    director cannot even learn which tournaments exist."""
    tournament = directed_tournaments(user).filter(slug=slug).first()
    if tournament is None:
        raise Http404("No tournament of yours has that address.")
    return tournament


class IsDirector(BasePermission):
    """API: signed in (session or token) and directing at least one tournament. Views then
    look the tournament up with `tournament_for_director`, which 404s for anyone else's."""

    message = "Only a tournament director may do this."

    def has_permission(self, request: Request, view: object) -> bool:
        return is_director(request.user)


def may_create_tournaments(user: User) -> bool:
    """Directors, and users an administrator gave the "add tournament" permission (a new
    director's first tournament); a scorekeeper may not."""
    if not user.is_authenticated:
        return False
    return is_director(user) or user.has_perm("tournament.add_tournament")


class MayCreateTournaments(BasePermission):
    """API: may list their own tournaments and create new ones (see `may_create_tournaments`)."""

    message = "Only a tournament director may do this."

    def has_permission(self, request: Request, view: object) -> bool:
        return may_create_tournaments(request.user)
