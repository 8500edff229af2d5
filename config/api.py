"""API-wide behaviour: every refusal is JSON in one shape that says what is wrong.

`{"errors": [{"rule": "R10.3" or null, "field": "hands.1.calls" or null, "message": "..."}]}`:
the rule when one applies, the field when the input's shape is at fault. DRF's own exceptions
(malformed JSON, wrong types, missing fields, authentication) are turned into that shape too,
and so is the 404 of an address under /api/ that no route matches.
Bodies are read by `config.parsers.JSONParser`, which refuses deep nesting with a 400. Every
input serializer derives from `Input`, so that a field a request does not know is refused with a
400 naming it; an endpoint that takes no body checks it against `NoInput`.
"""

import re
from collections.abc import Mapping
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse, QueryDict
from django.views import defaults
from rest_framework import serializers
from rest_framework.exceptions import ParseError, ValidationError
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

RULE = re.compile(r"\((R\d+(?:\.\d+)?)")


def problem(message: str, field: str | None = None) -> dict[str, Any]:
    found = RULE.search(message)
    return {"rule": found.group(1) if found else None, "field": field, "message": message}


def flatten(detail: Any, path: str = "") -> list[dict[str, Any]]:
    """DRF's nested error detail as a flat list of problems, each naming its field path."""
    if isinstance(detail, dict):
        return [p for key, value in detail.items() for p in flatten(value, _join(path, key))]
    if isinstance(detail, list):
        if all(not isinstance(item, (dict, list)) for item in detail):
            return [problem(str(item), path or None) for item in detail]
        return [p for index, item in enumerate(detail) for p in flatten(item, _join(path, index))]
    return [problem(str(detail), path or None)]


def _join(path: str, key: Any) -> str:
    key = "" if key == "non_field_errors" else str(key)
    return f"{path}.{key}" if path and key else path or key


# A form post signed in by its session carries Django's CSRF token beside its fields.
FORM_EXTRAS = frozenset({"csrfmiddlewaretoken"})


class Input(serializers.Serializer):
    """A request's body, or an object within it: a field it does not declare is refused with a
    400 naming it, beside any other error of the body, so that a misspelt or unsupported field
    never answers 200 having changed nothing. Nested inputs derive from it too."""

    def to_internal_value(self, data: Any) -> Any:
        known = self.known_fields()
        unknown = (
            self.unknown_fields(data, known)
            if isinstance(data, Mapping) and not known.issuperset(data)
            else {}
        )
        if not unknown:
            return super().to_internal_value(data)
        try:
            super().to_internal_value(data)
        except ValidationError as error:
            if isinstance(error.detail, dict):
                raise ValidationError({**error.detail, **unknown}) from None
            raise
        raise ValidationError(unknown)

    def unknown_fields(self, data: Mapping, known: frozenset[str]) -> dict[str, list[str]]:
        extras = FORM_EXTRAS if isinstance(data, QueryDict) else frozenset()
        names = [name for name in self.fields if name in known]
        takes = f"it takes {', '.join(names)}" if names else "it takes none"
        return {
            str(name): [f"There is no field {str(name)!r} here: {takes}."]
            for name in data
            if name not in known and name not in extras
        }

    def known_fields(self) -> frozenset[str]:
        """The fields a request may send, as declared (read once per serializer)."""
        known = getattr(self, "_known_fields", None)
        if known is None:
            known = frozenset(name for name, field in self.fields.items() if not field.read_only)
            self._known_fields = known
        return known


class NoInput(Input):
    """The body of an endpoint that takes none: empty, or an empty object."""


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, ParseError):
        response.data = {"errors": [problem(f"Malformed request body: {exc.detail}")]}
    elif isinstance(exc, ValidationError):
        response.data = {"errors": flatten(exc.detail)}
    elif isinstance(response.data, dict) and "detail" in response.data:
        response.data = {"errors": [problem(str(response.data["detail"]))]}
    return response


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """Django's 404 handler: an API client gets the API's error shape, a person the HTML page.
    (DRF answers the 404s its views raise; this is for addresses that no route matches.)"""
    if request.path_info.startswith("/api/"):
        message = "No API endpoint has this address; the API is described at /api/docs/."
        return JsonResponse({"errors": [problem(message)]}, status=404)
    return defaults.page_not_found(request, exception)
