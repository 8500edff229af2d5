"""Django's PostgreSQL backend, with timestamps read by psycopg's compiled parser.

Django reads every `timestamptz` column through a loader of its own (`BaseTzLoader`), which
puts the connection's time zone on each value. It subclasses psycopg's pure-Python loader, so
psycopg cannot swap in the compiled one of its binary build, as it does for every other type
(`bench/bench_store.py` measures what that costs a result write). Here Django's loader keeps its
class, and with it Django's per-cursor check of the time zone (`create_cursor` reads its
`timezone`), but parses with the compiled loader. The values are the same
(tests/test_postgresql_backend.py). Without psycopg's binary build, this backend is Django's.

Settings name it as `ENGINE = "config.postgresql"` (config/settings.py).
"""

import functools
from datetime import tzinfo
from typing import Any

from django.db.backends.postgresql import base
from django.db.backends.postgresql.psycopg_any import BaseTzLoader
from psycopg import abc, adapt

try:  # psycopg's binary build (requirements.txt); its module is not public API
    from psycopg._cmodule import _psycopg

    _CompiledLoader = _psycopg.TimestamptzLoader
except (ImportError, AttributeError):
    _psycopg = None


def compiled_tz_loader(zone: tzinfo | None) -> type[BaseTzLoader]:
    """Django's loader for `zone` (`register_tzloader`), parsing with psycopg's compiled
    loader."""

    class CompiledTzLoader(BaseTzLoader):
        timezone = zone

        def __init__(self, oid: int, context: abc.AdaptContext | None = None) -> None:
            super().__init__(oid, context)
            self._parse = _CompiledLoader(oid, context).load

        def load(self, data: Any) -> Any:
            return self._parse(data).replace(tzinfo=self.timezone)

    return CompiledTzLoader


@functools.lru_cache
def _adapters(template: adapt.AdaptersMap, zone: tzinfo | None) -> adapt.AdaptersMap:
    """Django's adapters of a connection (`get_adapters_template`, cached as that is), with
    the compiled timestamp loader."""
    adapters = adapt.AdaptersMap(template)
    adapters.register_loader("timestamptz", compiled_tz_loader(zone))
    return adapters


class DatabaseWrapper(base.DatabaseWrapper):
    def get_connection_params(self) -> dict[str, Any]:
        params = super().get_connection_params()
        if _psycopg is not None and "context" in params:
            params["context"] = _adapters(params["context"], self.timezone)
        return params
