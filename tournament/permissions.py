"""Who may do what: questions about a user's staff roles."""

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

from tournament.models import StaffRole


def is_director(user: AbstractBaseUser | AnonymousUser) -> bool:
    """A director of at least one tournament, or a superuser."""
    if not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    return StaffRole.objects.filter(user=user, role=StaffRole.Role.DIRECTOR).exists()
