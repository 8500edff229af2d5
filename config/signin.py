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

A **device** is a browser that has signed in as a username before: it holds a **device cookie**
(signed with the secret key, naming the username and a random id), set at each sign-in, as
OWASP's "device cookies" advise. Wrong passwords from other browsers never pause a device: a
stranger on the venue's Wi-Fi who keeps the director's address paused cannot keep the director's
own laptop or phone out. A device's own wrong passwords are counted against it: after
`AXES_FAILURE_LIMIT` of them within `SIGNIN_PAUSE_MAX`, it is a browser like any other until they
are older, so a stolen cookie buys a few guesses at most.

The **client address** is the connection's (REMOTE_ADDR), unless the connection comes from one
of `TRUSTED_PROXIES` (a reverse proxy of this deployment), or from the front of `make serve` and
`make venue` over gunicorn's Unix socket (no address: only a process of this machine can open
it): then it is the last address of X-Forwarded-For that is not itself a trusted proxy. A
client's own X-Forwarded-For is ignored.
"""

import ipaddress
import secrets
from datetime import timedelta
from typing import Any

from axes.helpers import get_client_username
from axes.models import AccessFailureLog
from django.conf import settings
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.views import LoginView
from django.core import signing
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

DEVICE_COOKIE = "signin_device"
DEVICE_SALT = "config.signin.device"
DEVICE_AGE = timedelta(days=365)


def client_address(request: HttpRequest) -> str | None:
    """The client's address, seen through the trusted proxies only (AXES_CLIENT_IP_CALLABLE)."""
    address = request.META.get("REMOTE_ADDR")
    if address and address not in settings.TRUSTED_PROXIES:
        return address
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    for hop in reversed([part.strip() for part in forwarded.split(",")]):
        if hop not in settings.TRUSTED_PROXIES and _is_address(hop):
            return hop
    return address or None


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
    failures = (
        AccessFailureLog.objects.filter(
            username=username, ip_address=ip_address, attempt_time__gte=since
        )
        .exclude(user_agent__startswith=DEVICE_MARK)
        .count()
    )  # nor guesses refused while paused
    pauses = max(failures - 1, 0) // settings.AXES_FAILURE_LIMIT  # earlier pauses
    pause = settings.SIGNIN_PAUSE_FIRST * 2 ** min(pauses, 20)
    return min(pause, settings.SIGNIN_PAUSE_MAX)


def cool_off(request: HttpRequest | None) -> timedelta:
    """AXES_COOLOFF_TIME: the pause for the username and address of this request."""
    if request is None:
        return settings.SIGNIN_PAUSE_FIRST
    username = get_client_username(request) or ""
    return signin_pause(username=username, ip_address=client_address(request))


# --- devices ---------------------------------------------------------------------------------

DEVICE_MARK = "signin device "  # a device's failures, in AccessFailureLog's user agent


def device_of(request: HttpRequest, username: str) -> str | None:
    """The id of this browser's device cookie when it is genuine and names `username`."""
    raw = request.COOKIES.get(DEVICE_COOKIE)
    if not raw or not username:
        return None
    try:
        found = signing.loads(raw, salt=DEVICE_SALT, max_age=DEVICE_AGE)
    except signing.BadSignature:
        return None
    if not isinstance(found, dict) or found.get("username") != username:
        return None
    device = found.get("device")
    return device if isinstance(device, str) else None


def _device_failures(username: str, device: str) -> int:
    since = timezone.now() - settings.SIGNIN_PAUSE_MAX
    return AccessFailureLog.objects.filter(
        username=username, user_agent=DEVICE_MARK + device, attempt_time__gte=since
    ).count()


def trusted_device(request: HttpRequest, credentials: dict[str, Any] | None = None) -> bool:
    """AXES_WHITELIST_CALLABLE: a device of this username, short of its own failure limit, is
    not paused by the failures of others (and its own are counted by `DeviceBackend`)."""
    username = get_client_username(request, credentials) or ""
    device = device_of(request, username)
    return device is not None and _device_failures(username, device) < settings.AXES_FAILURE_LIMIT


class DeviceBackend(ModelBackend):
    """Django's password check, counting a wrong password sent from a device against that
    device (django-axes, which counts everyone else's, lets a trusted device through)."""

    def authenticate(
        self, request: HttpRequest | None, username: str | None = None, password: str | None = None,
        **kwargs: Any,
    ) -> Any:  # fmt: skip
        user = super().authenticate(request, username, password, **kwargs)
        if user is None and request is not None and username:
            device = device_of(request, username)
            if device is not None:
                AccessFailureLog.objects.create(
                    username=username,
                    ip_address=client_address(request),
                    user_agent=DEVICE_MARK + device,
                    http_accept="",
                    path_info=request.path[:255],
                    locked_out=False,
                )
        return user


def device_cookie(response: HttpResponse, username: str) -> None:
    """Make this browser a device of `username` (a new id at each sign-in)."""
    value = signing.dumps(
        {"username": username, "device": secrets.token_urlsafe(16)}, salt=DEVICE_SALT
    )
    response.set_cookie(
        DEVICE_COOKIE,
        value,
        max_age=int(DEVICE_AGE.total_seconds()),
        httponly=True,
        samesite="Lax",
        secure=settings.SESSION_COOKIE_SECURE,
    )


class SignInView(LoginView):
    """Django's sign-in page; a successful sign-in makes the browser a device of its user."""

    def form_valid(self, form: Any) -> HttpResponse:
        response = super().form_valid(form)
        device_cookie(response, form.get_user().get_username())
        return response
