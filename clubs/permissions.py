"""Who may manage which club: a club's directors (or a superuser), and nobody else.

A club another director manages is answered as not found, so that nobody learns which clubs or
members exist (tenancy: see the permission matrix tests).
"""

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import QuerySet
from django.http import Http404

from clubs.models import Club

User = AbstractBaseUser | AnonymousUser


def directed_clubs(user: User) -> QuerySet[Club]:
    """The clubs this user directs (every club for a superuser)."""
    if not user.is_authenticated:
        return Club.objects.none()
    if user.is_superuser:
        return Club.objects.all()
    return Club.objects.filter(directors=user)


def club_for_director(user: User, slug: str) -> Club:
    """The club with this slug if the user directs it; 404 otherwise."""
    club = directed_clubs(user).filter(slug=slug).first()
    if club is None:
        raise Http404("No club of yours has that address.")
    return club
