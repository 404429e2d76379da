"""``/metrics`` in Prometheus's text format, for the addresses the operator lists."""

from __future__ import annotations

import ipaddress
from functools import cache

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_safe
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from games.services.ratelimit import request_address

from . import metrics


@cache
def _networks(allowed: tuple[str, ...]) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    return tuple(ipaddress.ip_network(entry, strict=False) for entry in allowed)


def allowed(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in _networks(tuple(settings.METRICS_ALLOWED)))


@require_safe
def metrics_view(request: HttpRequest) -> HttpResponse:
    # Behind a proxy the address is the client's (TRUSTED_PROXIES), so the public is refused
    # even though every request reaches Daphne from the proxy's loopback address.
    if not allowed(request_address(request)):
        return HttpResponse(
            "Metrics are for the operator's addresses only.\n", status=403, content_type="text/plain"
        )
    response = HttpResponse(generate_latest(metrics.registry), content_type=CONTENT_TYPE_LATEST)
    response["Cache-Control"] = "no-store"
    return response
