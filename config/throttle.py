"""A flood limit per client address, for pages anyone may post to without an account.

Counted in the shared cache, one counter per (scope, address) and window of `seconds`: the
first `limit` requests of a window pass, the rest are told how long to wait (a 429 with
Retry-After, from the caller). The window is fixed, so a flood is slowed to `limit` requests a
window and never locked out for longer. Only the scope asking is counted: the director's pages,
signed in, are never counted here, so a flood from the hall's network never blocks them. A cache
that is away (Redis down) counts nothing: the page's own checks still refuse a wrong request.

Cache keys: ``flood:<scope>:<address>:<window>``, living one window.
"""

import time

from django.core.cache import cache
from django.http import HttpRequest

from config.signin import client_address


def flood_wait(request: HttpRequest, *, scope: str, limit: int, seconds: int) -> int:
    """Seconds this client must wait before `scope` serves it again; 0 when it may go on."""
    now = time.time()
    window = int(now // seconds)
    key = f"flood:{scope}:{client_address(request) or 'unknown'}:{window}"
    try:
        cache.add(key, 0, seconds + 1)
        count = cache.incr(key)
    except Exception:  # the cache is away, or forgot the key between add and incr
        return 0
    if not count or count <= limit:
        return 0
    return max(1, int((window + 1) * seconds - now + 0.999))
