"""API-wide behaviour: every refusal is JSON in one shape that says what is wrong.

`{"errors": [{"rule": "R10.3" or null, "field": "hands.1.calls" or null, "message": "..."}]}`:
the rule when one applies, the field when the input's shape is at fault. DRF's own exceptions
(malformed JSON, wrong types, missing fields, authentication) are turned into that shape too.
"""

import re
from typing import Any

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
