"""The table page in parts, so that a phone updates it in place after a save (`answer`).

The page (templates/scorekeeper/link.html) marks the elements that change with `data-part="name"`:
the totals, the deal now played, the form, each result's row, each deal's details... A part may
hold parts. Each part has a **key**, a digest of its own markup with its parts left out as
**slots** (`<tr data-slot="result-3-1"></tr>`), so a part's key changes only when something of
its own does. A part may name its key itself: the phone's own parts (the outbox, the live
clock: `data-key="phone"`, never sent) and the form (the digest of its fields, so that the same
form moves on to the next deal on the phone, without its markup being sent again).

The phone sends the keys it holds (`?have=key.key`); the answer carries the parts it lacks,
slots and all, and the phone fills each slot with the part it has or the one it was sent. A
saved deal so costs the totals, its row and its details, the deal now played: a few hundred
bytes compressed.
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Collection
from dataclasses import dataclass, field

OPEN = re.compile(r'<([a-z][a-z0-9]*)\b[^>]*?\sdata-part="([^"]+)"[^>]*>')
KEY = re.compile(r'\sdata-key="([^"]*)"')
MOST_HELD = 500  # parts a phone may say it holds: far more than any page has
TOKEN = re.compile(r'(name="csrfmiddlewaretoken") value="[^"]*"')  # masked anew every time
CODE = re.compile(r"^[A-Za-z0-9_-]{1,40}$")


@dataclass
class Part:
    name: str
    tag: str
    start: int  # where its opening tag starts in the page
    end: int  # where its closing tag ends
    open_end: int  # where its opening tag ends
    key: str = ""
    children: list[Part] = field(default_factory=list)
    skeleton: str = ""  # its markup, its own key in place, each child part a slot


def _close(html: str, tag: str, start: int) -> int:
    """Where the element opened at `start` ends: the close tag matching it, same-named
    elements counted (the page's own markup: well formed)."""
    depth, tags = 0, re.compile(rf"<(/?){tag}\b[^>]*>")
    for found in tags.finditer(html, start):
        depth += -1 if found.group(1) else 1
        if depth == 0:
            return found.end()
    raise ValueError(f"<{tag}> at {start} is never closed")


def parts(html: str) -> list[Part]:
    """Every part of the page, parents before their children, each with its key."""
    found = []
    for opened in OPEN.finditer(html):
        tag, name = opened.group(1), opened.group(2)
        end = _close(html, tag, opened.start())
        part = Part(name, tag, opened.start(), end, opened.end())
        declared = KEY.search(opened.group(0))
        part.key = declared.group(1) if declared else ""
        found.append(part)
    stack: list[Part] = []
    for part in found:
        while stack and stack[-1].end <= part.start:
            stack.pop()
        if stack:
            stack[-1].children.append(part)
        stack.append(part)
    for part in reversed(found):  # children first: a parent's skeleton holds their slots
        _skeleton(html, part)
    return found


def _skeleton(html: str, part: Part) -> None:
    pieces, at = [], part.start
    for child in part.children:
        pieces += [html[at : child.start], f'<{child.tag} data-slot="{child.name}"></{child.tag}>']
        at = child.end
    markup = "".join([*pieces, html[at : part.end]])
    if not part.key:
        steady = TOKEN.sub(r"\1", markup).encode()
        part.key = digest(steady)
        opening = part.open_end - part.start
        markup = f'{markup[: opening - 1]} data-key="{part.key}"{markup[opening - 1 :]}'
    part.skeleton = markup


def digest(text: bytes) -> str:
    """Eight characters that change with the text (48 bits: a stale part is all a clash
    could cost, and one in 10^14 changes would meet one)."""
    return base64.urlsafe_b64encode(hashlib.blake2b(text, digest_size=6).digest()).decode()


def keyed(html: str) -> str:
    """The page with each part's key written on it, for the phone to send back."""
    out, at = [], 0
    for part in parts(html):
        if KEY.search(html[part.start : part.open_end]):
            continue
        out += [html[at : part.open_end - 1], f' data-key="{part.key}"']
        at = part.open_end - 1
    return "".join([*out, html[at:]])


def held(text: str) -> set[str]:
    """The keys of the parts a phone says it holds, `key.key.key` (a key names its part: the
    part's name is in what it digests). What is not a key is left out: that part is sent."""
    return {key for key in text.split(".")[:MOST_HELD] if CODE.match(key)}


def answer(html: str, have: Collection[str]) -> list[list[str]]:
    """The parts of the page that the phone lacks (`[name, key, markup]`), the outermost
    first. A phone's own parts are never sent."""
    return [
        [part.name, part.key, part.skeleton]
        for part in parts(html)
        if part.key != "phone" and part.key not in have
    ]
