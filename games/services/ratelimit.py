"""A small fixed-window request limiter on Django's cache, and who a client is.

Each client (an address, with the name of what is counted) gets ``limit`` requests per window;
the count lives in the cache under a key naming the window, so it expires by itself.
With several server processes the cache must be shared (e.g. Redis or the database
cache) for the limit to hold across them; the default local-memory cache counts per
process.
"""

from __future__ import annotations

import functools
import hashlib
import ipaddress
import re
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest

from games.services.fallback_cache import add_to_counters

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
    count = _count(key, rate.seconds + 1)
    if count <= rate.limit:
        return 0
    return max(1, int((window + 1) * rate.seconds - now + 0.999))


def _count(key: str, timeout: int) -> int:
    """Add one to the counter at ``key``, opening it at 1 when missing: one round trip on
    Redis (a script), where Django's ``incr`` took two (it asks whether the key exists)."""
    return add_to_counters(cache, [key], 1, timeout)[0]


Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@functools.lru_cache(maxsize=8)
def _networks(proxies: tuple[str, ...]) -> tuple[Network, ...]:
    return tuple(ipaddress.ip_network(p, strict=False) for p in proxies)


def _trusted(address: str, networks: Sequence[Network]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in networks)


def client_address(peer: str, forwarded_for: str | None = None) -> str:
    """The address a request comes from.

    ``peer`` is the connecting address. Only when it is one of ``TRUSTED_PROXIES`` is
    ``X-Forwarded-For`` read, from the right: each trusted proxy's entry is skipped and
    the first other address is the client's. A client cannot choose its address by
    sending the header itself: the proxy appends the true one after it.
    """
    networks = _networks(tuple(settings.TRUSTED_PROXIES))
    address = peer
    if not networks or not forwarded_for or not _trusted(peer, networks):
        return address
    for hop in reversed([h.strip() for h in forwarded_for.split(",")]):
        try:
            ipaddress.ip_address(hop)
        except ValueError:
            break  # garbage: the last trusted hop is all we know
        address = hop
        if not _trusted(hop, networks):
            break
    return address


def request_address(request: HttpRequest) -> str:
    return client_address(request.META.get("REMOTE_ADDR", ""), request.META.get("HTTP_X_FORWARDED_FOR"))


def scope_address(scope: dict[str, object]) -> str:
    """The same for a WebSocket's ASGI scope."""
    client = scope.get("client")
    peer = str(client[0]) if isinstance(client, list | tuple) and client else ""
    headers = scope.get("headers") or []
    forwarded = ", ".join(
        value.decode("latin-1")
        for name, value in headers  # type: ignore[attr-defined]
        if name.lower() == b"x-forwarded-for"
    )
    return client_address(peer, forwarded or None)


def check(scope: str, address: str, rate_setting: str) -> int:
    """Count one ``scope`` action (e.g. "move") of a client; the seconds to wait, or 0."""
    return hit(f"{scope}:{address}", parse_rate(getattr(settings, rate_setting)))


# -- WebSockets per client address, in this process: the games' and the lobby's together ----

TOO_MANY_SOCKETS = 4429  # the close code of a socket past WS_MAX_PER_CLIENT
_open_sockets: Counter[str] = Counter()


def open_socket(address: str) -> bool:
    """Count one more socket for ``address``; False (and nothing counted) past the cap."""
    if _open_sockets[address] >= settings.WS_MAX_PER_CLIENT:
        return False
    _open_sockets[address] += 1
    return True


def close_socket(address: str) -> None:
    _open_sockets[address] -= 1
    if _open_sockets[address] <= 0:
        del _open_sockets[address]


def open_sockets(address: str) -> int:
    return _open_sockets[address]


def forget_open_sockets() -> None:
    """Start the count afresh (tests: a socket a failed test left open counts no more)."""
    _open_sockets.clear()
