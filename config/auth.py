"""API tokens that expire: DRF's token, refused once it is older than `API_TOKEN_TTL`.

A **token** is what `POST /api/auth/token` gives for a username and password; it is sent as
`Authorization: Token <key>`. It is refused after `API_TOKEN_TTL` (a setting, from
`API_TOKEN_HOURS`), and `DELETE /api/auth/token` revokes it at once. DRF's tokens are stored as
they are sent, not hashed: the token table is as secret as the password hashes beside it.

A **password change** revokes the user's token and every session of theirs, wherever the
password is set (their own page, the admin, `manage.py changepassword`): whoever had learnt the
old password keeps nothing it opened. The browser that changed it stays signed in (Django keeps
its session, renewed). `RevokedWithPassword` does it: Django calls every password validator's
`password_changed` when a password is saved.
"""

from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.contrib.sessions.models import Session
from django.utils import timezone
from rest_framework import authentication, exceptions
from rest_framework.authtoken.models import Token


def token_expired(token: Token) -> bool:
    return token.created + settings.API_TOKEN_TTL <= timezone.now()


def token_fresh(*, user: AbstractBaseUser) -> Token:
    """The user's token, replaced by a new one if it has expired."""
    token, created = Token.objects.get_or_create(user=user)
    if not created and token_expired(token):
        token.delete()
        token = Token.objects.create(user=user)
    return token


class ExpiringTokenAuthentication(authentication.TokenAuthentication):
    def authenticate_credentials(self, key: str) -> tuple[Any, Token]:
        user, token = super().authenticate_credentials(key)
        if token_expired(token):
            expired = timezone.localtime(token.created + settings.API_TOKEN_TTL)
            raise exceptions.AuthenticationFailed(
                f"This token expired at {expired:%Y-%m-%d %H:%M}; ask for a new one at "
                "POST /api/auth/token."
            )
        return user, token


class RevokedWithPassword:
    """A password validator that checks nothing: when a password is saved, the user's API token
    and sessions go (AUTH_PASSWORD_VALIDATORS; the module's docstring says why)."""

    def validate(self, password: str, user: AbstractBaseUser | None = None) -> None:
        return None

    def get_help_text(self) -> str:
        return ""

    def password_changed(self, password: str, user: AbstractBaseUser | None = None) -> None:
        if user is None or user.pk is None:
            return
        Token.objects.filter(user=user).delete()
        if user.last_login is not None:  # a user never signed in has no session
            sessions_revoke(user=user)


def sessions_revoke(*, user: AbstractBaseUser) -> int:
    """Delete every stored session of `user`; how many. Sessions do not name their user, so
    each current one is read (a venue keeps a few hundred)."""
    key = str(user.pk)
    current = Session.objects.filter(expire_date__gt=timezone.now())
    theirs = [
        s.session_key for s in current.iterator() if s.get_decoded().get("_auth_user_id") == key
    ]
    Session.objects.filter(session_key__in=theirs).delete()
    return len(theirs)
