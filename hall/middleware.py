"""The crowd's shortcut: the live leaderboard answered to visitors without a session right
after WhiteNoise, without the rest of the middleware stack.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import Resolver404, ResolverMatch, get_urlconf, resolve

from config.caches import PUBLIC_SHORTCUT
from hall import views


class LeaderboardShortcut:
    """Middleware: the live leaderboard for visitors without a session, answered straight after
    WhiteNoise, as WhiteNoise answers static files, by the same views, without the rest of the
    stack (sessions, CSRF, sign-in, messages, sign-in lockout), which such a visitor's read of
    a public page never needs. Anything else, a query string (a preview) or a cookie of a
    session included, goes through the whole stack. Put it right after WhiteNoise in
    MIDDLEWARE: `"hall.middleware.LeaderboardShortcut"`."""

    ENDINGS = ("/leaderboard", "/leaderboard/rows", "/standings", "/pulse")
    API = "public:api-standings"  # the standings API: the same crowd, polling

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        view = self._view(request)
        if view is None:
            return self.get_response(request)
        try:
            response = view.func(request, *view.args, **view.kwargs)
        except Http404:
            return self.get_response(request)  # the site's own 404 page
        if callable(getattr(response, "render", None)):  # the API's refusals (DRF's Response)
            response = response.render()
        response.headers.setdefault("X-Frame-Options", settings.X_FRAME_OPTIONS)
        if not response.streaming:
            response.headers["Content-Length"] = str(len(response.content))
        return response

    def _view(self, request: HttpRequest) -> ResolverMatch | None:
        if request.method not in ("GET", "HEAD") or not request.path_info.endswith(self.ENDINGS):
            return None
        query = request.META.get("QUERY_STRING")
        if (
            query and not PAGE_QUERY.fullmatch(query)
        ) or settings.SESSION_COOKIE_NAME in request.COOKIES:
            return None
        return _shortcut_view(request.path_info, get_urlconf(), self.API)


PAGE_QUERY = re.compile(r"page=\d{1,6}")  # a page of the leaderboard: the crowd's too


@PUBLIC_SHORTCUT
def _shortcut_view(path: str, urlconf: str | None, api: str) -> ResolverMatch | None:
    """The leaderboard's or the standings API's view for `path`, else None: resolved once per
    path (`public.shortcut`: the URLs never change while serving; the urlconf is part of the
    key, for tests that swap it), since the crowd asks the same few paths again and again.
    Bounded, so that made-up paths cannot grow it."""
    try:
        found = resolve(path, urlconf)
    except Resolver404:
        return None
    answered = (views.leaderboard, views.leaderboard_rows, views.pulse)
    return found if found.func in answered or found.view_name == api else None
