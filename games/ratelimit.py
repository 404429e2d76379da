"""A small fixed-window request limiter on Django's cache.

Each client (an API token, else an IP address) gets ``limit`` requests per window;
the count lives in the cache under a key naming the window, so it expires by itself.
With several server processes the cache must be shared (e.g. Redis or the database
cache) for the limit to hold across them; the default local-memory cache counts per
process.
"""

from __future__ import annotations

import hashlib
import re
import time
from dataclasses import dataclass

from django.core.cache import cache

PERIODS = {"second": 1, "minute": 60, "hour": 3600, "day": 86400}
_RATE_RE = re.compile(r"^\s*(\d+)\s*/\s*(\d*)\s*(second|minute|hour|day)s?\s*$")


@dataclass(frozen=True)
class Rate:
    limit: int
    seconds: int


def parse_rate(text: str) -> Rate:
    """``"120/minute"``, ``"10/5 seconds"`` ..."""
    match = _RATE_RE.match(text)
    if not match:
        raise ValueError(f"a rate looks like '120/minute', not {text!r}")
    count = int(match.group(2) or 1)
    return Rate(int(match.group(1)), count * PERIODS[match.group(3)])


def hit(client: str, rate: Rate, now: float | None = None) -> int:
    """Count one request; returns 0 when allowed, else the seconds until the window ends."""
    now = time.time() if now is None else now
    window = int(now // rate.seconds)
    digest = hashlib.sha256(client.encode()).hexdigest()[:32]
    key = f"ratelimit:{rate.seconds}:{digest}:{window}"
    cache.add(key, 0, timeout=rate.seconds + 1)
    try:
        count = cache.incr(key)
    except ValueError:  # expired between add and incr: this request opens the window
        cache.set(key, 1, timeout=rate.seconds + 1)
        count = 1
    if count <= rate.limit:
        return 0
    return max(1, int((window + 1) * rate.seconds - now + 0.999))
