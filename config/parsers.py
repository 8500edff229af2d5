"""The API's JSON parser: DRF's, refusing a document nested deeper than any request of this API
needs (`MAX_DEPTH`) with a 400, where Python's own parser would hit its recursion limit (a 500).

Its own module, free of the views, because DRF's settings import it while loading.
"""

from typing import Any

from rest_framework import parsers
from rest_framework.exceptions import ParseError

MAX_DEPTH = 16  # a result is 4 levels deep ({"hands": [{"seat": ...}]}); 16 leaves room


class JSONParser(parsers.JSONParser):
    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            data = None
        if data is None or depth(data) > MAX_DEPTH:
            raise ParseError(f"JSON nested more than {MAX_DEPTH} levels deep.")
        return data


def depth(data: Any) -> int:
    """How deep lists and objects nest in `data`, counted without recursion."""
    deepest, level = 0, [(data, 1)]
    while level:
        value, depth = level.pop()
        if isinstance(value, (dict, list)):
            deepest = max(deepest, depth)
            children = value.values() if isinstance(value, dict) else value
            level.extend((child, depth + 1) for child in children)
    return deepest
