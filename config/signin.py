"""Sign-in limits that cannot be turned against the director (django-axes).

A **failure** is a wrong password for a username from a client address. After
`AXES_FAILURE_LIMIT` failures of one username from one address, signing in as that username from
that address **pauses**: for `SIGNIN_PAUSE_FIRST` (30 s) the first time, twice as long each time
the limit is reached again within `SIGNIN_PAUSE_MEMORY` (a day), never longer than
`SIGNIN_PAUSE_MAX` (10 minutes). Guesses refused during a pause neither count nor lengthen it. So
guessing stays slow (at most five guesses per pause), and someone sharing the director's address
(a venue's network) can delay the director by minutes at most, never lock them out; an
administrator lifts a pause at once (`manage.py axes_reset_username NAME`, or the admin's
"Access attempts").

The **client address** is the connection's (REMOTE_ADDR), unless the connection comes from one
of `TRUSTED_PROXIES` (a reverse proxy of this deployment): then it is the last address of
X-Forwarded-For that is not itself a trusted proxy. A client's own X-Forwarded-For is ignored.
"""

import ipaddress
from datetime import timedelta

from axes.helpers import get_client_username
from axes.models import AccessFailureLog
from django.conf import settings
from django.http import HttpRequest
from django.utils import timezone


def client_address(request: HttpRequest) -> str | None:
    """The client's address, seen through the trusted proxies only (AXES_CLIENT_IP_CALLABLE)."""
    address = request.META.get("REMOTE_ADDR")
    if address not in settings.TRUSTED_PROXIES:
        return address
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    for hop in reversed([part.strip() for part in forwarded.split(",")]):
        if hop not in settings.TRUSTED_PROXIES and _is_address(hop):
            return hop
    return address


def _is_address(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


def signin_pause(*, username: str, ip_address: str | None) -> timedelta:
    """How long sign-in pauses once this username fails `AXES_FAILURE_LIMIT` times from this
    address: doubling with each earlier pause remembered, within the bounds."""
    since = timezone.now() - settings.SIGNIN_PAUSE_MEMORY
    failures = AccessFailureLog.objects.filter(
        username=username, ip_address=ip_address, attempt_time__gte=since
    ).count()  # guesses refused during a pause are not logged
    pauses = max(failures - 1, 0) // settings.AXES_FAILURE_LIMIT  # earlier pauses
    pause = settings.SIGNIN_PAUSE_FIRST * 2 ** min(pauses, 20)
    return min(pause, settings.SIGNIN_PAUSE_MAX)


def cool_off(request: HttpRequest | None) -> timedelta:
    """AXES_COOLOFF_TIME: the pause for the username and address of this request."""
    if request is None:
        return settings.SIGNIN_PAUSE_FIRST
    username = get_client_username(request) or ""
    return signin_pause(username=username, ip_address=client_address(request))
