"""Who may read and write which table: the table's private link, its scorekeepers, the directors.

Terms
- table link: the table's private token, in the page's path (`/t/<token>/`) or, for the API, in
  the header `Authorization: Table <token>`. It opens that one table and nothing else. The token
  is looked up on every request, so a reissued link stops working at once.
- scorekeeper of a table: a signed-in user (session or API token) assigned to it
  (`Table.scorekeepers`).
- director: a director of the table's tournament (or a superuser), see `tournament.permissions`.
- via label: who acted, in words, as a result's history records it: "table 3 link · Marcia
  Campbell", "scorekeeper sam", "director dana". A second-person confirmation must come from a
  different label (or user) than the entry it confirms.

Anyone else is refused without learning that the table exists (404), unless they already know
the tournament, being its staff or holding another of its tables' links: those are told no (403).
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass, replace

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import Http404, HttpRequest
from django.utils.translation import gettext
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication, get_authorization_header
from rest_framework.permissions import BasePermission
from rest_framework.request import Request

from scoring.store.prepared import PreparedRead
from tables.models import Table
from tournament.models import StaffRole
from tournament.permissions import directed_tournaments

LINK_KEYWORD = "Table"
MAX_NAME = 80  # of a person named in a via label; the label itself is stored in 120 characters


@dataclass(frozen=True)
class Access:
    """What the caller may do at one table, and how their actions are labelled."""

    can_read: bool
    can_write: bool
    via_label: str  # "" when the caller has no access
    user: AbstractBaseUser | None  # the signed-in user, None for a table link or anonymous
    knows_tournament: bool = False  # refused callers who may learn the table exists (403)

    @property
    def by_link(self) -> bool:
        return self.user is None and bool(self.via_label)

    def via(self, name: str = "") -> str:
        """The via label with the name of the person acting, when a link user gives one."""
        name = " ".join(name.split())[:MAX_NAME]
        return f"{self.via_label} · {name}" if name and self.by_link else self.via_label


NO_ACCESS = Access(can_read=False, can_write=False, via_label="", user=None)


def link_label(table: Table) -> str:
    return f"table {table.number} link"


def table_access(
    request: HttpRequest | Request, table: Table, *, link_token: str | None = None
) -> Access:
    """What `request` may do at `table`: by its link (the API's `Authorization: Table` header,
    or `link_token` from a page's path), as its scorekeeper, or as a director of its tournament.

    `table` should come with `round` loaded. At most four queries, none for its link.
    """
    if _holds_link(request, table, link_token):
        return Access(True, True, link_label(table), None, knows_tournament=True)
    user = _signed_in(request)
    if user is None:
        return replace(NO_ACCESS, knows_tournament=_links_tournament(request, table))
    tournament_id = table.round.tournament_id
    if directed_tournaments(user).filter(pk=tournament_id).exists():
        return Access(True, True, f"director {user.get_username()}", user, knows_tournament=True)
    if table.scorekeepers.filter(pk=user.pk).exists():
        label = f"scorekeeper {user.get_username()}"
        return Access(True, True, label, user, knows_tournament=True)
    return replace(NO_ACCESS, knows_tournament=_is_staff_of(user, tournament_id))


def require_table_access(
    request: HttpRequest | Request,
    table: Table,
    *,
    write: bool = False,
    link_token: str | None = None,
) -> Access:
    """`table_access`, refusing with 404 (or 403 for the tournament's own people) if not allowed."""
    access = table_access(request, table, link_token=link_token)
    if access.can_write if write else access.can_read:
        return access
    if access.knows_tournament:
        raise PermissionDenied(
            gettext(
                "This is not your table: {table} is kept by its own link and scorekeepers."
            ).format(table=table)
        )
    raise Http404(gettext("No table of yours has this id."))


def _holds_link(request: HttpRequest | Request, table: Table, link_token: str | None) -> bool:
    linked = getattr(request, "auth", None)
    if isinstance(linked, Table):
        return linked.pk == table.pk
    return link_token is not None and hmac.compare_digest(
        link_token.encode(), table.access_token.encode()
    )


def _signed_in(request: HttpRequest | Request) -> AbstractBaseUser | None:
    user = getattr(request, "user", None)
    return user if user is not None and user.is_authenticated else None


def _links_tournament(request: HttpRequest | Request, table: Table) -> bool:
    """Holds the link of another table of the same tournament."""
    linked = getattr(request, "auth", None)
    return isinstance(linked, Table) and linked.round.tournament_id == table.round.tournament_id


def _is_staff_of(user: AbstractBaseUser, tournament_id: int) -> bool:
    """Has a role in the tournament, or keeps score at one of its tables."""
    return (
        StaffRole.objects.filter(user=user, tournament_id=tournament_id).exists()
        or Table.objects.filter(round__tournament_id=tournament_id, scorekeepers=user).exists()
    )


class TableCaller(BasePermission):
    """API: anyone may call a table endpoint; `require_table_access` then answers for the table
    (so that the refusal can be a 404 that does not reveal it). Unlike `AllowAny`, the schema
    does not list the endpoints as open to anonymous callers."""

    def has_permission(self, request: Request, view: object) -> bool:
        return True


def _table_of_link(token: str) -> QuerySet[Table]:
    """The table of a link, with its round and tournament: one row."""
    tables = Table.objects.select_related("round__tournament").order_by()
    return tables.filter(access_token=token)[:1]


_TABLE_OF_LINK = PreparedRead(_table_of_link, str)


class TableLinkAuthentication(BaseAuthentication):
    """`Authorization: Table <token>`: the caller holds that table's private link.

    `request.user` stays anonymous and `request.auth` is the table. A token that finds no table
    (mistyped, or reissued since) is refused with 401, so a phone can tell the scorekeeper to
    scan the new link rather than report a missing table.
    """

    def authenticate(self, request: Request) -> tuple[AnonymousUser, Table] | None:
        parts = get_authorization_header(request).split()
        if not parts or parts[0].lower() != LINK_KEYWORD.lower().encode():
            return None
        if len(parts) != 2:
            raise exceptions.AuthenticationFailed(
                gettext(
                    "Give the table link's token after the word {keyword}, with no spaces in it."
                ).format(keyword=LINK_KEYWORD)
            )
        try:
            token = parts[1].decode("ascii")
        except UnicodeDecodeError:
            raise exceptions.AuthenticationFailed(
                gettext("A table link's token is plain ASCII.")
            ) from None
        table = next(iter(_TABLE_OF_LINK(token)), None)
        if table is None:
            raise exceptions.AuthenticationFailed(
                gettext(
                    "No table has this link. It may have been reissued: ask the director for the "
                    "new one."
                )
            )
        return AnonymousUser(), table

    def authenticate_header(self, request: Request) -> str:
        return LINK_KEYWORD


class TableLinkScheme(OpenApiAuthenticationExtension):
    """The table link in the OpenAPI schema, next to the session and the API token."""

    target_class = TableLinkAuthentication
    name = "tableLink"

    def get_security_definition(self, auto_schema: object) -> dict[str, str]:
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": "The table's private link: `Table <token>`, the token being the "
            "last part of the link printed on the table card (`/t/<token>/`). It opens that one "
            "table; a reissued link is refused with 401.",
        }
