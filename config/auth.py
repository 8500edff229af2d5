"""API tokens that expire: DRF's token, refused once it is older than `API_TOKEN_TTL`.

A **token** is what `POST /api/auth/token` gives for a username and password; it is sent as
`Authorization: Token <key>`. It is refused after `API_TOKEN_TTL` (a setting, from
`API_TOKEN_HOURS`), and `DELETE /api/auth/token` revokes it at once. DRF's tokens are stored as
they are sent, not hashed: the token table is as secret as the password hashes beside it.
"""

from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
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
