"""Static files as the phones get them: our own scripts without their comments and indentation,
then compressed (WhiteNoise), when `collectstatic` runs.

The table page's first load is weighed (bench/bench_phone_bytes.py, ≤ 35 KB): its scripts'
comments, which explain them to a reader of the code, are a fifth of their compressed bytes. Only
whole-line comments and leading blanks go: a comment after code, a string or a regular
expression is never touched, so the script means exactly what it meant (our scripts hold no
multi-line strings: no template literals). The files in `static/` stay as written; DEBUG serves
them unchanged.
"""

from __future__ import annotations

import re
from typing import Any

from whitenoise.storage import CompressedStaticFilesStorage

OWN_SCRIPTS = re.compile(r"^js/[\w-]+\.js$")
BLOCK_COMMENT = re.compile(r"^[ \t]*/\*(?:(?!\*/).)*\*/[ \t]*\n", re.S | re.M)
LINE_COMMENT = re.compile(r"^[ \t]*//.*\n", re.M)


def trimmed(source: str) -> str:
    """`source` without its whole-line comments, leading blanks and empty lines."""
    source = LINE_COMMENT.sub("", BLOCK_COMMENT.sub("", source))
    return "".join(f"{line.strip()}\n" for line in source.splitlines() if line.strip())


class TrimmedCompressedStaticFilesStorage(CompressedStaticFilesStorage):
    """WhiteNoise's compressed storage, our scripts trimmed before they are compressed."""

    def post_process(self, paths: dict[str, Any], dry_run: bool = False, **options: Any):
        if not dry_run:
            for name in paths:
                if OWN_SCRIPTS.match(name):
                    self._trim(name)
        yield from super().post_process(paths, dry_run=dry_run, **options)

    def _trim(self, name: str) -> None:
        path = self.path(name)
        with open(path, encoding="utf-8") as source:
            text = trimmed(source.read())
        with open(path, "w", encoding="utf-8") as target:
            target.write(text)
